/* The recorded shape on disk (cz_pce_save / cz_pce_load): a saved shape
 * loads back and evaluates bit for bit as the recorded one (16- and 32-bit
 * codes); another key is STALE, no file MISSING; every flipped byte and
 * every truncation is refused; a file whose checksum was recomputed over a
 * malformed shape is refused too; a failed save leaves no file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cs_eq.h"
#include "cuzk/crc32c.h"
#include "cuzk/cs.h"
#include "bits_circuit.h"

static char dir[64];

static uint8_t *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *n = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *b = malloc(*n ? *n : 1);
  CHECK_EQ_INT(fread(b, 1, *n, f), *n);
  fclose(f);
  return b;
}

static void spill(const char *path, const uint8_t *b, size_t n) {
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (!f) return;
  CHECK_EQ_INT(fwrite(b, 1, n, f), n);
  fclose(f);
}

/* A WITNESS run of the bits circuit completed by shape p. */
static void eval_bits(const cz_pce *p, uint64_t seed, cz_assignment *w) {
  cz_cs *cs = run_bits(CZ_CS_WITNESS, seed);
  CHECK_EQ_INT(cz_cs_take_assignment(cs, w), CZ_OK);
  cz_cs_free(cs);
  CHECK_EQ_INT(cz_pce_eval(p, w, 2), CZ_OK);
}

static cz_pce_file_status load_status(const char *path, const uint8_t *key) {
  char msg[256] = "";
  cz_pce *q = NULL;
  cz_pce_file_status st = cz_pce_load(path, key, &q, msg, sizeof msg);
  CHECK_EQ_INT(st == CZ_PCE_FILE_OK, q != NULL);
  CHECK(st == CZ_PCE_FILE_OK || msg[0] != 0);
  cz_pce_free(q);
  return st;
}

static void test_round_trip(void) {
  cz_cs *cs = run_bits(CZ_CS_RECORD, 1);
  cz_pce *p = NULL;
  CHECK_EQ_INT(cz_cs_take_pce(cs, &p), CZ_OK);
  cz_cs_free(cs);
  uint8_t key[CZ_PCE_KEY_BYTES], other[CZ_PCE_KEY_BYTES];
  for (int i = 0; i < CZ_PCE_KEY_BYTES; i++) key[i] = (uint8_t)(i * 7 + 1);
  memcpy(other, key, sizeof key);
  other[31] ^= 0x80;
  char path[128], msg[256] = "";
  snprintf(path, sizeof path, "%s/bits.pce", dir);
  CHECK_EQ_INT(load_status(path, key), CZ_PCE_FILE_MISSING);
  CHECK_EQ_INT(cz_pce_save(p, path, key, msg, sizeof msg), CZ_OK);
  cz_pce *q = NULL;
  CHECK_EQ_INT(cz_pce_load(path, key, &q, msg, sizeof msg), CZ_PCE_FILE_OK);
  if (!q) fprintf(stderr, "  load: %s\n", msg);
  if (q) {
    cz_pce_info a, b;
    cz_pce_get_info(p, &a);
    cz_pce_get_info(q, &b);
    CHECK(a.n_inputs == b.n_inputs && a.n_aux == b.n_aux && a.n_constraints == b.n_constraints &&
          a.n_coeffs == b.n_coeffs && a.code_bytes == b.code_bytes && a.nnz[0] == b.nnz[0] &&
          a.nnz[1] == b.nnz[1] && a.nnz[2] == b.nnz[2]);
    for (uint64_t seed = 1; seed <= 2; seed++) {
      cz_assignment w1, w2, pr;
      eval_bits(p, seed, &w1);
      eval_bits(q, seed, &w2);
      cs = run_bits(CZ_CS_PROVE, seed);
      CHECK_EQ_INT(cz_cs_take_assignment(cs, &pr), CZ_OK);
      cz_cs_free(cs);
      CHECK(assign_eq(&w1, &w2));
      CHECK(assign_eq(&pr, &w2));
      cz_assignment_free(&w1);
      cz_assignment_free(&w2);
      cz_assignment_free(&pr);
    }
    cz_pce_free(q);
  }
  CHECK_EQ_INT(load_status(path, other), CZ_PCE_FILE_STALE);

  /* Every byte flipped, one at a time: never a shape. */
  size_t n = 0;
  uint8_t *img = slurp(path, &n);
  char bad[160];
  snprintf(bad, sizeof bad, "%s/bad.pce", dir);
  size_t refused = 0;
  for (size_t i = 0; img && i < n; i++) {
    img[i] ^= 0x10;
    spill(bad, img, n);
    refused += load_status(bad, key) != CZ_PCE_FILE_OK;
    img[i] ^= 0x10;
  }
  CHECK_EQ_INT(refused, n);
  /* Every truncation (and one byte too many). */
  refused = 0;
  for (size_t len = 0; img && len < n; len++) {
    spill(bad, img, len);
    refused += load_status(bad, key) == CZ_PCE_FILE_CORRUPT;
  }
  CHECK_EQ_INT(refused, n);
  if (img) {
    uint8_t *longer = calloc(n + 1, 1);
    memcpy(longer, img, n);
    spill(bad, longer, n + 1);
    CHECK_EQ_INT(load_status(bad, key), CZ_PCE_FILE_CORRUPT);
    free(longer);
  }
  /* A malformed shape under a correct checksum: the first column index of
   * A (just after the row offsets) pointed past the last variable. */
  if (img) {
    cz_pce_info info;
    cz_pce_get_info(p, &info);
    size_t idx_at = 192 + ((info.n_constraints + 1) * 4 + 63) / 64 * 64;
    uint32_t big = 0xFFFFFFF0u;
    memcpy(img + idx_at, &big, 4);
    uint32_t crc = cz_crc32c(0, img, n - 16);
    memcpy(img + n - 16, &crc, 4);
    spill(bad, img, n);
    char m2[256] = "";
    cz_pce *r = NULL;
    CHECK_EQ_INT(cz_pce_load(bad, key, &r, m2, sizeof m2), CZ_PCE_FILE_CORRUPT);
    CHECK(strstr(m2, "malformed") != NULL);
  }
  free(img);
  unlink(bad);
  unlink(path);

  /* A save that cannot happen: CZ_ERR_IO with the reason, nothing left. */
  char nodir[160];
  snprintf(nodir, sizeof nodir, "%s/no/such/dir/x.pce", dir);
  CHECK_EQ_INT(cz_pce_save(p, nodir, key, msg, sizeof msg), CZ_ERR_IO);
  CHECK(strstr(msg, "No such file") != NULL);
  cz_pce_free(p);
}

/* More than 65536 distinct coefficients: 32-bit codes survive the trip. */
static void test_wide(void) {
  cz_cs *cs = cz_cs_new(CZ_CS_RECORD, NULL);
  cz_var x, y;
  cz_cs_alloc(cs, &x, NULL);
  cz_cs_alloc(cs, &y, NULL);
  for (uint64_t i = 0; i < 70000; i++) {
    cz_lc a, b, c;
    cz_lc_init(&a, cs);
    cz_lc_init(&b, cs);
    cz_lc_init(&c, cs);
    cz_fr k = bits_fr(i + 3);
    cz_lc_add_term(&a, x, &k);
    cz_lc_add(&b, CZ_VAR_ONE);
    cz_lc_add(&c, y);
    cz_cs_enforce(cs, &a, &b, &c);
    cz_lc_free(&a);
    cz_lc_free(&b);
    cz_lc_free(&c);
  }
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  cz_pce *p = NULL, *q = NULL;
  CHECK_EQ_INT(cz_cs_take_pce(cs, &p), CZ_OK);
  cz_cs_free(cs);
  cz_pce_info a, b;
  cz_pce_get_info(p, &a);
  CHECK_EQ_INT(a.code_bytes, 4);
  uint8_t key[CZ_PCE_KEY_BYTES] = {1};
  char path[128], msg[256] = "";
  snprintf(path, sizeof path, "%s/wide.pce", dir);
  CHECK_EQ_INT(cz_pce_save(p, path, key, msg, sizeof msg), CZ_OK);
  CHECK_EQ_INT(cz_pce_load(path, key, &q, msg, sizeof msg), CZ_PCE_FILE_OK);
  if (q) {
    cz_pce_get_info(q, &b);
    CHECK_EQ_INT(b.code_bytes, 4);
    CHECK_EQ_INT(b.n_coeffs, a.n_coeffs);
    /* x = 5, y: the same a/b/c from both shapes. */
    cz_assignment w1 = {0}, w2 = {0};
    cz_fr vals[3] = {CZ_FR_ONE, bits_fr(5), bits_fr(9)};
    for (int t = 0; t < 2; t++) {
      cz_assignment *w = t ? &w2 : &w1;
      w->n_inputs = 1;
      w->n_aux = 2;
      w->n_constraints = 70000;
      w->inputs = malloc(sizeof(cz_fr));
      w->inputs[0] = vals[0];
      CHECK_EQ_INT(cz_fr_packed_from(&w->aux, vals + 1, 2), CZ_OK);
      CHECK_EQ_INT(cz_pce_eval(t ? q : p, w, 2), CZ_OK);
    }
    CHECK(assign_eq(&w1, &w2));
    cz_assignment_free(&w1);
    cz_assignment_free(&w2);
    cz_pce_free(q);
  }
  unlink(path);
  cz_pce_free(p);
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/cz-pce-file.XXXXXX");
  if (!mkdtemp(dir)) return 1;
  test_round_trip();
  test_wide();
  rmdir(dir);
  return check_report("test_pce_file");
}
