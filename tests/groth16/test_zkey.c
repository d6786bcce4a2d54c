/* Proving circom circuits from snarkjs keys (cuzk/zkey.h, cuzk/circom.h),
 * against what snarkjs itself made from the same files (tests/data/circom,
 * tests/circom/gen.sh):
 * - with snarkjs's r and s injected, our proof.json is snarkjs's byte for
 *   byte (tests/circom/prove_fixed.mjs made it with those r and s);
 * - with random r and s, the proof verifies against the zkey's key and
 *   verification_key.json, and public.json is snarkjs's byte for byte;
 * - snarkjs's own proof verifies with our verifier;
 * - a changed public input, a changed proof digit, a witness that breaks
 *   a constraint are all refused (the last with the constraint named when
 *   the .r1cs is given). */
#include <pthread.h>
#include "check.h"
#include "cuzk/circom.h"
#include "cuzk/zkey.h"
#include "groth16/circom_fixture.h"

static const cz_prove_timing QUIET = {NULL, NULL, true};
static const char *const CIRCUITS[] = {"tiny", "dense_chain", "many_public"};

/* snarkjs's 2^32-th root of unity, 5^((r-1)/2^32), is cuzk's to the power
 * the H code uses (src/groth16/zkey_hpoly.c). */
static void test_snarkjs_root(void) {
  const uint64_t t[4] = {0xfffe5bfeffffffffULL, 0x09a1d80553bda402ULL, 0x299d7d483339d808ULL,
                         0x0000000073eda753ULL}; /* (r - 1) / 2^32 */
  const uint64_t k = 3797895509ULL;
  cz_fr five, w_js, w_cuzk, w_k;
  cz_fr_from_u64(&five, 5);
  cz_fr_pow(&w_js, &five, t, 4);
  cz_fr_root_of_unity(&w_cuzk, 32);
  cz_fr_pow(&w_k, &w_cuzk, &k, 1);
  CHECK(cz_fr_eq(&w_js, &w_k));
  CHECK(!cz_fr_eq(&w_js, &w_cuzk));
}

typedef struct {
  const char *name;
  cz_zkey *z;
  cz_wtns w;
  cz_zkey_info info;
} circuit;

static bool circuit_open(circuit *c, const char *name) {
  char path[256], msg[512];
  memset(c, 0, sizeof *c);
  c->name = name;
  fixture_path(path, sizeof path, name, "circuit.zkey");
  cz_err e = cz_zkey_load(&c->z, path, 0, 0, msg, sizeof msg);
  if (e != CZ_OK) fprintf(stderr, "%s: %s\n", name, msg);
  CHECK_EQ_INT(e, CZ_OK);
  fixture_path(path, sizeof path, name, "witness.wtns");
  cz_err e2 = cz_wtns_load(&c->w, path, msg, sizeof msg);
  if (e2 != CZ_OK) fprintf(stderr, "%s: %s\n", name, msg);
  CHECK_EQ_INT(e2, CZ_OK);
  if (e || e2) return false;
  cz_zkey_get_info(c->z, &c->info);
  CHECK_EQ_INT(c->info.n_vars, c->w.n);
  return true;
}

static void circuit_close(circuit *c) {
  cz_zkey_free(c->z);
  cz_wtns_free(&c->w);
}

/* Our proof.json equals `want` (a file of the fixture) byte for byte. */
static void check_json_file(const char *circuit, const char *file, const char *ours, size_t n) {
  size_t len;
  char *want = fixture_file(circuit, file, &len);
  CHECK(want != NULL);
  if (!want) return;
  CHECK_EQ_INT(n, len);
  CHECK(n == len && !memcmp(ours, want, n));
  if (n != len || memcmp(ours, want, n))
    fprintf(stderr, "%s/%s differs:\n%s\n", circuit, file, ours);
  free(want);
}

static void test_fixed_rs(circuit *c) {
  cz_fr r, s;
  fixture_rs(&r, &s);
  cz_zkey_prove_opts o = {0, &r, &s, &QUIET, false, NULL, 0};
  cz_groth16_proof p;
  CHECK_EQ_INT(cz_zkey_prove(c->z, c->w.v, c->w.n, &p, &o), CZ_OK);
  char json[8192];
  size_t n = cz_snarkjs_proof_json(json, sizeof json, &p);
  CHECK(n < sizeof json);
  check_json_file(c->name, "snarkjs_proof_fixed_rs.json", json, n);
}

/* A proof and its public signals through JSON, verified with the key read
 * from verification_key.json. */
static void test_random_rs(circuit *c) {
  cz_groth16_proof p, back;
  char msg[512];
  cz_zkey_prove_opts o = {0, NULL, NULL, &QUIET, false, msg, sizeof msg};
  CHECK_EQ_INT(cz_zkey_prove(c->z, c->w.v, c->w.n, &p, &o), CZ_OK);
  size_t np = c->info.n_public, n = cz_snarkjs_public_json(NULL, 0, c->w.v + 1, np);
  char *pub = malloc(n + 1), json[8192];
  cz_snarkjs_public_json(pub, n + 1, c->w.v + 1, np);
  check_json_file(c->name, "snarkjs_public.json", pub, n);
  size_t m = cz_snarkjs_proof_json(json, sizeof json, &p);
  CHECK_EQ_INT(cz_snarkjs_proof_parse(&back, json, m, msg, sizeof msg), CZ_OK);
  CHECK(!memcmp(&back, &p, sizeof p));
  size_t vlen;
  char *vtext = fixture_file(c->name, "verification_key.json", &vlen);
  cz_groth16_vk vk;
  CHECK(vtext && cz_snarkjs_vkey_parse(&vk, vtext, vlen, msg, sizeof msg) == CZ_OK);
  if (vtext) {
    CHECK_EQ_INT(vk.n_ic, np + 1);
    CHECK_EQ_INT(cz_groth16_verify(&vk, c->w.v + 1, np, &back), CZ_OK);
    /* a public input changed by one: refused */
    cz_fr *bad = malloc(np * sizeof *bad);
    memcpy(bad, c->w.v + 1, np * sizeof *bad);
    cz_fr_add(&bad[np - 1], &bad[np - 1], &CZ_FR_ONE);
    CHECK_EQ_INT(cz_groth16_verify(&vk, bad, np, &back), CZ_ERR_PROOF_INVALID);
    free(bad);
    cz_groth16_vk_free(&vk);
  }
  free(vtext);
  free(pub);
}

/* snarkjs's proof verifies; every changed digit of it is refused (parse,
 * curve, subgroup or pairing), never accepted. */
static void test_snarkjs_proof(circuit *c) {
  size_t len, plen, np;
  char *text = fixture_file(c->name, "snarkjs_proof.json", &len);
  char *ptext = fixture_file(c->name, "snarkjs_public.json", &plen);
  cz_fr *pub = NULL;
  cz_groth16_proof p;
  CHECK(text && ptext);
  if (!text || !ptext) return;
  CHECK_EQ_INT(cz_snarkjs_public_parse(&pub, &np, ptext, plen, NULL, 0), CZ_OK);
  CHECK_EQ_INT(np, c->info.n_public);
  CHECK_EQ_INT(cz_snarkjs_proof_parse(&p, text, len, NULL, 0), CZ_OK);
  const cz_groth16_vk *vk = cz_zkey_vk(c->z);
  CHECK_EQ_INT(cz_groth16_verify(vk, pub, np, &p), CZ_OK);
  int accepted = 0, tried = 0;
  for (size_t i = 0; i < len; i += 7) {
    if (text[i] < '0' || text[i] > '9') continue;
    char keep = text[i];
    text[i] = (char)(keep == '9' ? '0' : keep + 1);
    tried++;
    if (cz_snarkjs_proof_parse(&p, text, len, NULL, 0) == CZ_OK &&
        cz_groth16_verify(vk, pub, np, &p) == CZ_OK)
      accepted++;
    text[i] = keep;
  }
  CHECK(tried > 20);
  CHECK_EQ_INT(accepted, 0);
  free(pub);
  free(text);
  free(ptext);
}

/* A witness that breaks a constraint: no proof, and the .r1cs names it. */
static void test_unsatisfied(circuit *c) {
  char msg[512] = "", path[256];
  cz_fr *w = malloc(c->w.n * sizeof *w);
  memcpy(w, c->w.v, c->w.n * sizeof *w);
  size_t k = c->w.n - 1;
  cz_fr_add(&w[k], &w[k], &CZ_FR_ONE);
  cz_groth16_proof p;
  memset(&p, 0xa5, sizeof p);
  cz_zkey_prove_opts o = {0, NULL, NULL, &QUIET, false, msg, sizeof msg};
  CHECK_EQ_INT(cz_zkey_prove(c->z, w, c->w.n, &p, &o), CZ_ERR_PROOF_INVALID);
  CHECK(strstr(msg, "does not satisfy the circuit") != NULL);
  CHECK(cz_g1_affine_is_identity(&p.a)); /* nothing left behind */
  cz_circom_r1cs r;
  fixture_path(path, sizeof path, c->name, "circuit.r1cs");
  CHECK_EQ_INT(cz_circom_r1cs_load(&r, path, msg, sizeof msg), CZ_OK);
  CHECK_EQ_INT(r.n_wires, c->info.n_vars);
  CHECK_EQ_INT(r.n_outputs + r.n_pub_inputs, c->info.n_public);
  CHECK_EQ_INT(cz_circom_r1cs_check(&r, c->w.v, c->w.n, 0, NULL, msg, sizeof msg), CZ_OK);
  size_t bad = SIZE_MAX;
  CHECK_EQ_INT(cz_circom_r1cs_check(&r, w, c->w.n, 0, &bad, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  CHECK(bad < r.n_constraints);
  CHECK(strstr(msg, "does not satisfy constraint") != NULL);
  /* wrong length, and a witness whose ONE is not 1 */
  CHECK_EQ_INT(cz_zkey_prove(c->z, w, c->w.n - 1, &p, &o), CZ_ERR_INVALID_ARG);
  w[0] = CZ_FR_ZERO;
  CHECK_EQ_INT(cz_zkey_prove(c->z, w, c->w.n, &p, &o), CZ_ERR_INVALID_ARG);
  cz_circom_r1cs_free(&r);
  free(w);
}

/* One key, proofs from several threads at once (each with a budget of one
 * thread): the key is read-only, so every proof verifies. */
typedef struct {
  circuit *c;
  cz_err err;
  cz_groth16_proof proof;
} worker_arg;

static void *prove_thread(void *p) {
  worker_arg *a = p;
  cz_zkey_prove_opts o = {1, NULL, NULL, &QUIET, false, NULL, 0};
  a->err = cz_zkey_prove(a->c->z, a->c->w.v, a->c->w.n, &a->proof, &o);
  return NULL;
}

static void test_concurrent(circuit *c) {
  enum { N = 3 };
  pthread_t t[N];
  worker_arg a[N];
  for (int i = 0; i < N; i++) {
    memset(&a[i], 0, sizeof a[i]);
    a[i].c = c;
    CHECK_EQ_INT(pthread_create(&t[i], NULL, prove_thread, &a[i]), 0);
  }
  for (int i = 0; i < N; i++) {
    pthread_join(t[i], NULL);
    CHECK_EQ_INT(a[i].err, CZ_OK);
    CHECK_EQ_INT(cz_groth16_verify(cz_zkey_vk(c->z), c->w.v + 1, c->info.n_public, &a[i].proof),
                 CZ_OK);
  }
  CHECK(memcmp(&a[0].proof, &a[1].proof, sizeof a[0].proof)); /* fresh r, s each */
}

int main(void) {
  test_snarkjs_root();
  for (size_t i = 0; i < sizeof CIRCUITS / sizeof CIRCUITS[0]; i++) {
    circuit c;
    if (circuit_open(&c, CIRCUITS[i])) {
      test_fixed_rs(&c);
      test_random_rs(&c);
      test_snarkjs_proof(&c);
      test_unsatisfied(&c);
      test_concurrent(&c);
    }
    circuit_close(&c);
  }
  return check_report("test_zkey");
}
