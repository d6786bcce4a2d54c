/* Mapped keys (cz_groth16_params_map / _view): the same proof bytes as the
 * decoded key for the same r and s, whatever the slice size (slices of a
 * few points cross every density word and segment edge); the file's bytes
 * back unchanged; the ends checked at map time, a bad point inside found
 * by a checked map or by the proof that reads it; nothing resident. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cuzk/groth16_prove.h"
#include "cuzk/synthetic.h"
#include "groth16/g16_internal.h"
#include "rand_field.h"
#include "setup_keygen.h"

static const cz_prove_timing QUIET = {NULL, NULL, true};

typedef struct {
  bool sparse;
  size_t n;
  cz_groth16_params dec, map;
  char path[64];
} fixture;

static cz_cs *synth(cz_cs_mode mode, const fixture *f) {
  cz_cs *cs = cz_cs_new(mode, NULL);
  cz_fr x;
  cz_fr_from_u64(&x, 11);
  if (f->sparse) CHECK_EQ_INT(cz_synthetic_sparse(cs, f->n, &x, 7), CZ_OK);
  else CHECK_EQ_INT(cz_synthetic_chain(cs, f->n, &x), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  return cs;
}

static bool fixture_open(fixture *f) {
  if (!check_setup_from(&f->dec, synth(CZ_CS_KEYGEN, f))) return false;
  snprintf(f->path, sizeof f->path, "/tmp/cuzk-test-map-%d.params", (int)getpid());
  CHECK_EQ_INT(cz_groth16_params_save(&f->dec, f->path), CZ_OK);
  char msg[256];
  cz_err e = cz_groth16_params_map(&f->map, f->path, false, 2, msg, sizeof msg);
  if (e != CZ_OK) fprintf(stderr, "map: %s\n", msg);
  CHECK_EQ_INT(e, CZ_OK);
  return e == CZ_OK;
}

/* The proof's bytes in out; the prover's error, else the verifier's. */
static cz_err prove(const cz_groth16_params *p, const fixture *f, const cz_fr *r, const cz_fr *s,
                    uint8_t out[CZ_GROTH16_PROOF_BYTES]) {
  cz_cs *cs = synth(CZ_CS_PROVE, f);
  cz_assignment as;
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &as), CZ_OK);
  cz_cs_free(cs);
  cz_prove_opts o = {2, r, s, &QUIET, NULL, 0};
  cz_groth16_proof proof;
  cz_err e = cz_groth16_prove(NULL, p, &as, 1, &proof, &o);
  if (e == CZ_OK) {
    cz_groth16_proof_write(out, &proof);
    e = cz_groth16_verify(&p->vk, as.inputs + 1, as.n_inputs - 1, &proof);
  }
  cz_assignment_free(&as);
  return e;
}

/* Same bytes from the decoded and the mapped key, at several slice sizes. */
static void same_proofs(const fixture *f) {
  CHECK(cz_groth16_params_is_mapped(&f->map) && !cz_groth16_params_is_mapped(&f->dec));
  CHECK(f->map.n_h == f->dec.n_h && f->map.n_l == f->dec.n_l && f->map.n_a == f->dec.n_a &&
        f->map.n_b_g1 == f->dec.n_b_g1 && f->map.n_b_g2 == f->dec.n_b_g2);
  cz_fr r = check_rand_fr(), s = check_rand_fr();
  uint8_t want[CZ_GROTH16_PROOF_BYTES], got[CZ_GROTH16_PROOF_BYTES];
  CHECK_EQ_INT(prove(&f->dec, f, &r, &s, want), CZ_OK);
  const size_t slices[] = {0, 1, 3 * sizeof(cz_g1_affine), 100 * sizeof(cz_g1_affine)};
  for (int copied = 0; copied < 2; copied++) { /* slices copied or read in place */
    cz_g16_set_key_copy_limit(copied ? 0 : 1);
    for (size_t k = 0; k < sizeof slices / sizeof *slices; k++) {
      cz_g16_set_slice_bytes(slices[k]);
      CHECK_EQ_INT(prove(&f->map, f, &r, &s, got), CZ_OK);
      CHECK_MEM(got, want, sizeof want);
    }
  }
  cz_g16_set_slice_bytes(0);
  CHECK(cz_groth16_params_resident_bytes(&f->map) < 4096);
  CHECK(cz_groth16_params_resident_bytes(&f->dec) >
        f->dec.n_h * sizeof(cz_g1_affine) + f->dec.n_b_g2 * sizeof(cz_g2_affine));
}

/* The mapped key writes back the file it maps. */
static void writes_its_file(const fixture *f) {
  size_t n = cz_groth16_params_file_size(&f->map);
  CHECK(n == f->map.map.len && n == cz_groth16_params_file_size(&f->dec));
  uint8_t *a = malloc(n), *b = malloc(n);
  CHECK(cz_groth16_params_write(a, &f->map) == n && cz_groth16_params_write(b, &f->dec) == n);
  CHECK_MEM(a, b, n);
  free(a);
  free(b);
}

/* Byte offset of point i of the l vector in f's file. */
static size_t l_offset(const fixture *f, size_t i) {
  return (size_t)(f->map.map.l - f->map.map.file) + i * CZ_G1_UNCOMPRESSED_BYTES;
}

/* A point flipped inside l: an unchecked map takes the file (only the
 * ends are decoded), the proof that reads it does not verify (a proof's
 * decoding checks encodings, not the curve), a checked map names it; the
 * last point flipped fails any map. */
static void bad_points(const fixture *f) {
  size_t len = f->map.map.len, mid = f->map.n_l / 2;
  uint8_t *buf = malloc(len);
  memcpy(buf, f->map.map.file, len);
  buf[l_offset(f, mid) + 40] ^= 1;
  cz_groth16_params q;
  char msg[256];
  CHECK_EQ_INT(cz_groth16_params_view(&q, buf, len, false, 2, msg, sizeof msg), CZ_OK);
  uint8_t out[CZ_GROTH16_PROOF_BYTES];
  cz_fr r = check_rand_fr(), s = check_rand_fr();
  CHECK(prove(&q, f, &r, &s, out) != CZ_OK);
  cz_groth16_params_free(&q);
  CHECK(cz_groth16_params_view(&q, buf, len, true, 2, msg, sizeof msg) != CZ_OK);
  char want[64];
  snprintf(want, sizeof want, "l point %zu", mid);
  CHECK(strstr(msg, want) != NULL);
  buf[l_offset(f, mid) + 40] ^= 1;
  buf[l_offset(f, f->map.n_l - 1) + 40] ^= 1;
  CHECK(cz_groth16_params_view(&q, buf, len, false, 2, msg, sizeof msg) != CZ_OK);
  snprintf(want, sizeof want, "l point %zu", f->map.n_l - 1);
  CHECK(strstr(msg, want) != NULL);
  CHECK(cz_groth16_params_view(&q, buf, len - 1, false, 2, msg, sizeof msg) != CZ_OK);
  CHECK(cz_groth16_params_map(&q, "/nonexistent/x.params", false, 2, msg, sizeof msg) == CZ_ERR_IO);
  CHECK(strstr(msg, "/nonexistent/x.params") != NULL);
  free(buf);
}

/* A key file cut short under a mapped key (another process rewrote it):
 * the prover's copies come up short and the proof fails with CZ_ERR_IO,
 * where reading through the mapping would have raised SIGBUS. */
static void file_cut_short(const fixture *f) {
  char path[80];
  snprintf(path, sizeof path, "%s.cut", f->path);
  CHECK_EQ_INT(cz_groth16_params_save(&f->dec, path), CZ_OK);
  cz_groth16_params q;
  char msg[256];
  CHECK_EQ_INT(cz_groth16_params_map(&q, path, false, 2, msg, sizeof msg), CZ_OK);
  CHECK(q.map.fd >= 0);
  CHECK_EQ_INT(truncate(path, (off_t)(q.map.l - q.map.file)), 0); /* h stays, l is gone */
  uint8_t out[CZ_GROTH16_PROOF_BYTES];
  cz_fr r = check_rand_fr(), s = check_rand_fr();
  CHECK_EQ_INT(prove(&q, f, &r, &s, out), CZ_ERR_IO);
  cz_groth16_params_free(&q);
  unlink(path);
}

int main(void) {
  for (int sparse = 0; sparse < 2; sparse++) {
    fixture f = {.sparse = sparse, .n = 1000};
    if (fixture_open(&f)) {
      same_proofs(&f);
      writes_its_file(&f);
      bad_points(&f);
      file_cut_short(&f);
    }
    cz_groth16_params_free(&f.map);
    cz_groth16_params_free(&f.dec);
    unlink(f.path);
  }
  return check_report("test_params_map");
}
