/* Refusals of malformed snarkjs and circom files: each is one line that
 * names the section and field (or JSON path) and says what the file is
 * instead. The inputs are real files of tests/data/circom with one thing
 * changed. */
#include <unistd.h>
#include "check.h"
#include "cuzk/circom.h"
#include "cuzk/zkey.h"
#include "groth16/circom_fixture.h"

#define MSG 512

static const uint64_t BN254_Q[4] = {0x3c208c16d87cfd47ULL, 0x97816a916871ca8dULL,
                                    0xb85045b68181585dULL, 0x30644e72e131a029ULL};

static uint32_t rd32(const uint8_t *p) {
  return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}
static void wr32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Offset of section id's body in an iden3 binary file (0: none). */
static size_t section_at(const uint8_t *b, size_t len, uint32_t id) {
  size_t off = 12;
  for (uint32_t i = 0; i < rd32(b + 8) && off + 12 <= len; i++) {
    uint64_t size = rd32(b + off + 4) | (uint64_t)rd32(b + off + 8) << 32;
    if (rd32(b + off) == id) return off + 12;
    off += 12 + size;
  }
  return 0;
}

/* cz_zkey_read of a mutated copy: the error and the message, checked to
 * contain want. */
static void zkey_refuses(const uint8_t *buf, size_t len, unsigned flags, cz_err want_err,
                         const char *want) {
  char msg[MSG] = "";
  cz_zkey *z = NULL;
  cz_err e = cz_zkey_read(&z, buf, len, flags, 0, msg, sizeof msg);
  CHECK_EQ_INT(e, want_err);
  CHECK(strstr(msg, want) != NULL);
  CHECK(strchr(msg, '\n') == NULL);
  if (!strstr(msg, want)) fprintf(stderr, "  got \"%s\", wanted \"%s\"\n", msg, want);
  if (e == CZ_OK) cz_zkey_free(z);
}

/* An affine G1 point on the curve but outside the subgroup, in the
 * zkey's encoding (Montgomery words). */
static void off_subgroup_point(uint8_t out[96]) {
  cz_g1_affine p;
  for (uint64_t x = 1;; x++) {
    cz_fp t, four;
    cz_fp_from_u64(&p.x, x);
    cz_fp_sqr(&t, &p.x);
    cz_fp_mul(&t, &t, &p.x);
    cz_fp_from_u64(&four, 4);
    cz_fp_add(&t, &t, &four);
    if (cz_fp_sqrt(&p.y, &t) && !cz_g1_affine_is_in_subgroup(&p)) break;
  }
  memcpy(out, &p, 96);
}

static void test_zkey_refusals(void) {
  size_t len;
  uint8_t *orig = (uint8_t *)fixture_file("many_public", "circuit.zkey", &len);
  CHECK(orig != NULL);
  if (!orig) return;
  uint8_t *b = malloc(len);
#define FRESH() memcpy(b, orig, len)
  FRESH();
  zkey_refuses(b, len, 0, CZ_OK, "");
  zkey_refuses(b, len - 1, 0, CZ_ERR_TRUNCATED, "truncated");
  zkey_refuses(b, 3, 0, CZ_ERR_TRUNCATED, "too short");
  memcpy(b, "wtns", 4);
  zkey_refuses(b, len, 0, CZ_ERR_PARSE, "this is a witness (.wtns), not a proving key (.zkey)");
  FRESH();
  size_t s1 = section_at(b, len, 1), s2 = section_at(b, len, 2), s4 = section_at(b, len, 4);
  size_t s5 = section_at(b, len, 5), s9 = section_at(b, len, 9);
  CHECK(s1 && s2 && s4 && s5 && s9);
  wr32(b + s1, 2);
  zkey_refuses(b, len, 0, CZ_ERR_PARSE, "section 1 (header).protocol: a PLONK key, not Groth16");
  wr32(b + s1, 10);
  zkey_refuses(b, len, 0, CZ_ERR_PARSE, "an FFLONK key, not Groth16");
  FRESH();
  /* q of bn128 where bls12-381's stands (n8q 32) */
  wr32(b + s2, 32);
  memcpy(b + s2 + 4, BN254_Q, 32);
  zkey_refuses(b, len, 0, CZ_ERR_PARSE,
               "section 2 (groth16 header).q: the bn128 (BN254) base field");
  FRESH();
  wr32(b + s2 + 4 + 48 + 4 + 32 + 8, 3000); /* domainSize */
  zkey_refuses(b, len, 0, CZ_ERR_PARSE, "domainSize: 3000 is not a power of two");
  FRESH();
  /* term 0's signal past nVars */
  wr32(b + s4 + 4 + 8, 0x7fffffff);
  zkey_refuses(b, len, 0, CZ_ERR_PARSE, "section 4 (A/B terms)[0]: signal is past nVars");
  FRESH();
  /* A[0] (the point of ONE, never infinity here) moved off the curve */
  b[s5] ^= 1;
  zkey_refuses(b, len, 0, CZ_ERR_NOT_ON_CURVE,
               "section 5 (A points)[0]: the point is not on the curve");
  FRESH();
  memcpy(b + s9 + 96, CZ_FP_MODULUS, 48);
  zkey_refuses(b, len, 0, CZ_ERR_NONCANONICAL,
               "section 9 (H points)[1]: a coordinate is not below");
  FRESH();
  off_subgroup_point(b + s9 + 2 * 96);
  zkey_refuses(b, len, 0, CZ_OK, "");
  zkey_refuses(b, len, CZ_ZKEY_CHECK_SUBGROUP, CZ_ERR_NOT_IN_SUBGROUP,
               "section 9 (H points)[2]: the point is not in the prime-order subgroup");
  FRESH();
  wr32(b + s9 - 12, 11); /* H's section renamed */
  zkey_refuses(b, len, 0, CZ_ERR_PARSE, "section 9 (H points): missing");
  wr32(b + s9 - 12, 5);
  zkey_refuses(b, len, 0, CZ_ERR_PARSE, "section 5 (A points): appears 2 times");
#undef FRESH
  free(b);
  free(orig);
}

static void test_wtns_refusals(void) {
  size_t len;
  uint8_t *b = (uint8_t *)fixture_file("many_public", "witness.wtns", &len);
  CHECK(b != NULL);
  if (!b) return;
  char msg[MSG];
  cz_wtns w;
  CHECK_EQ_INT(cz_wtns_read(&w, b, len, msg, sizeof msg), CZ_OK);
  cz_wtns_free(&w);
  CHECK_EQ_INT(cz_wtns_read(&w, b, len - 32, msg, sizeof msg), CZ_ERR_TRUNCATED);
  CHECK(w.v == NULL && w.n == 0);
  size_t s2 = section_at(b, len, 2), s1 = section_at(b, len, 1);
  memcpy(b + s2 + 32 * 7, CZ_FR_MODULUS, 32);
  CHECK_EQ_INT(cz_wtns_read(&w, b, len, msg, sizeof msg), CZ_ERR_NONCANONICAL);
  CHECK(strstr(msg, "wtns: section 2 (values)[7]: value is not below r") != NULL);
  uint8_t keep[32];
  memcpy(keep, b + s1 + 4, 32);
  b[s1 + 4] ^= 2; /* the prime */
  CHECK_EQ_INT(cz_wtns_read(&w, b, len, msg, sizeof msg), CZ_ERR_PARSE);
  CHECK(strstr(msg, "section 1 (header).prime: an unknown 255-bit prime") != NULL);
  memcpy(b + s1 + 4, keep, 32);
  memcpy(b, "zkey", 4);
  CHECK_EQ_INT(cz_wtns_read(&w, b, len, msg, sizeof msg), CZ_ERR_PARSE);
  CHECK(strstr(msg, "this is a proving key (.zkey), not a witness (.wtns)") != NULL);
  free(b);
}

/* cz_wtns_save writes what circom writes, byte for byte. */
static void test_wtns_save(void) {
  size_t len, len2;
  char *orig = fixture_file("dense_chain", "witness.wtns", &len), msg[MSG];
  cz_wtns w;
  CHECK(orig && cz_wtns_read(&w, (const uint8_t *)orig, len, msg, sizeof msg) == CZ_OK);
  if (!orig) return;
  char path[] = "/tmp/cuzk-wtns-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  CHECK_EQ_INT(cz_wtns_save(path, w.v, w.n), CZ_OK);
  char *again = NULL;
  CHECK_EQ_INT(cz_read_file(path, &again, &len2, msg, sizeof msg), CZ_OK);
  CHECK(again && len2 == len && !memcmp(again, orig, len));
  unlink(path);
  free(again);
  free(orig);
  cz_wtns_free(&w);
}

static void test_r1cs_refusals(void) {
  size_t len;
  uint8_t *b = (uint8_t *)fixture_file("dense_chain", "circuit.r1cs", &len);
  CHECK(b != NULL);
  if (!b) return;
  char msg[MSG];
  cz_circom_r1cs r;
  CHECK_EQ_INT(cz_circom_r1cs_read(&r, b, len, msg, sizeof msg), CZ_OK);
  CHECK_EQ_INT(r.n_constraints, 4092);
  CHECK_EQ_INT(r.n_pub_inputs, 1);
  CHECK_EQ_INT(r.n_outputs, 1);
  cz_circom_r1cs_free(&r);
  size_t s2 = section_at(b, len, 2);
  /* constraint 0's A: its first term's wire */
  wr32(b + s2 + 4, 1u << 30);
  CHECK_EQ_INT(cz_circom_r1cs_read(&r, b, len, msg, sizeof msg), CZ_ERR_PARSE);
  CHECK(strstr(msg, "r1cs: section 2 (constraints)[0].A[0]: wire is past nWires") != NULL);
  CHECK(r.lc == NULL);
  CHECK_EQ_INT(cz_circom_r1cs_read(&r, b, s2 + 10, msg, sizeof msg), CZ_ERR_TRUNCATED);
  free(b);
}

/* JSON refusals, from snarkjs's proof with one thing changed. */
static void json_refuses(const char *text, cz_err want_err, const char *want) {
  char msg[MSG] = "";
  cz_groth16_proof p;
  CHECK_EQ_INT(cz_snarkjs_proof_parse(&p, text, strlen(text), msg, sizeof msg), want_err);
  CHECK(strstr(msg, want) != NULL);
  if (!strstr(msg, want)) fprintf(stderr, "  got \"%s\", wanted \"%s\"\n", msg, want);
}

static char *replaced(const char *text, const char *from, const char *to) {
  const char *at = strstr(text, from);
  CHECK(at != NULL);
  size_t n = strlen(text), a = (size_t)(at - text);
  char *out = malloc(n + strlen(to) + 1);
  memcpy(out, text, a);
  strcpy(out + a, to);
  strcat(out, at + strlen(from));
  return out;
}

/* bfj (snarkjs's CLI) writes an empty public.json as "[\n]". */
static void test_public_json_empty(void) {
  char out[8];
  CHECK_EQ_INT(cz_snarkjs_public_json(out, sizeof out, NULL, 0), 3);
  CHECK(!strcmp(out, "[\n]"));
  cz_fr *v = (cz_fr *)1;
  size_t n = 9;
  CHECK_EQ_INT(cz_snarkjs_public_parse(&v, &n, out, 3, NULL, 0), CZ_OK);
  CHECK(n == 0 && v == NULL);
}

static void test_json_refusals(void) {
  size_t len;
  char *t = fixture_file("dense_chain", "snarkjs_proof.json", &len);
  CHECK(t != NULL);
  if (!t) return;
  char *x;
  json_refuses(x = replaced(t, "\"groth16\"", "\"plonk\""), CZ_ERR_PARSE,
               "proof: protocol: the proof system is \"plonk\", expected \"groth16\"");
  free(x);
  json_refuses(x = replaced(t, "\"bls12381\"", "\"bn128\""), CZ_ERR_PARSE,
               "proof: curve: the curve is \"bn128\", expected \"bls12381\"");
  free(x);
  json_refuses(x = replaced(t, "\"1\"\n ],\n \"pi_b\"", "\"2\"\n ],\n \"pi_b\""), CZ_ERR_PARSE,
               "proof: pi_a[2]: expected \"1\" (affine points only)");
  free(x);
  json_refuses(x = replaced(t, "\"pi_a\": [\n  \"", "\"pi_a\": [\n  \"1"), CZ_ERR_NONCANONICAL,
               "proof: pi_a[0]: number is not below the field prime");
  free(x);
  json_refuses(x = replaced(t, "\"pi_c\": [\n  \"", "\"pi_c\": [\n  \"7"), CZ_ERR_NONCANONICAL,
               "pi_c[0]");
  free(x);
  json_refuses(x = replaced(t, "\"curve\"", "\"kurve\""), CZ_ERR_PARSE, "unknown field `kurve`");
  free(x);
  free(t);
}

/* Real files of other kinds: snarkjs's bn128 and PLONK / FFLONK keys and
 * circom's bn128 witness and R1CS of the same circuit. */
static void test_other_kinds(void) {
  static const struct {
    const char *circuit, *file, *want;
  } K[] = {
      {"tiny_bn128", "circuit.zkey",
       "zkey: section 2 (groth16 header).q: the bn128 (BN254) base field, not bls12-381"},
      {"tiny_plonk", "circuit.zkey", "zkey: section 1 (header).protocol: a PLONK key, not Groth16"},
      {"tiny_fflonk", "circuit.zkey",
       "zkey: section 1 (header).protocol: an FFLONK key, not Groth16"},
      {"tiny_bn128", "witness.wtns",
       "wtns: section 1 (header).prime: the bn128 (BN254) scalar field, not bls12-381"},
      {"tiny_bn128", "circuit.r1cs",
       "r1cs: section 1 (header).prime: the bn128 (BN254) scalar field, not bls12-381"},
      {"tiny", "circuit.r1cs",
       "zkey: this is a constraint system (.r1cs), not a proving key (.zkey)"},
  };
  for (size_t i = 0; i < sizeof K / sizeof K[0]; i++) {
    char path[256], msg[MSG] = "";
    fixture_path(path, sizeof path, K[i].circuit, K[i].file);
    cz_err e;
    if (strstr(K[i].want, "zkey: ")) {
      cz_zkey *z = NULL;
      e = cz_zkey_load(&z, path, 0, 0, msg, sizeof msg);
      CHECK(z == NULL);
    } else if (strstr(K[i].want, "wtns: ")) {
      cz_wtns w;
      e = cz_wtns_load(&w, path, msg, sizeof msg);
    } else {
      cz_circom_r1cs r;
      e = cz_circom_r1cs_load(&r, path, msg, sizeof msg);
    }
    CHECK_EQ_INT(e, CZ_ERR_PARSE);
    CHECK(!strcmp(msg, K[i].want));
    if (strcmp(msg, K[i].want)) fprintf(stderr, "  %s/%s: \"%s\"\n", K[i].circuit, K[i].file, msg);
  }
}

int main(void) {
  test_other_kinds();
  test_zkey_refusals();
  test_wtns_refusals();
  test_wtns_save();
  test_r1cs_refusals();
  test_public_json_empty();
  test_json_refusals();
  return check_report("test_circom_files");
}
