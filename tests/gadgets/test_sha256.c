/* The SHA-256 gadget: constraint counts asserted by bellpepper's own tests,
 * digests equal to OpenSSL's on random messages (one and many blocks),
 * broken witnesses caught, and every backend / LC layout agreeing. */
#include <openssl/sha.h>
#include "check.h"
#include "cuzk/gadgets.h"
#include "cs_eq.h"

/* Message bytes as allocated bits, MSB first per byte (bellpepper's
 * test_against_vectors, Filecoin's usage), namespaces "input bit i". */
static cz_bool *alloc_msg(cz_cs *cs, const uint8_t *msg, size_t n) {
  cz_bool *bits = malloc((8 * n + 1) * sizeof *bits);
  bool *v = malloc(8 * n + 1);
  cz_bytes_to_bits(v, msg, n);
  for (size_t i = 0; i < 8 * n; i++) {
    cz_abit b;
    CZ_PUSH_NS(cs, "input bit %zu", i);
    CHECK_EQ_INT(cz_abit_alloc(cs, &b, v[i]), CZ_OK);
    CZ_POP_NS(cs);
    bits[i] = cz_bool_from_bit(b);
  }
  free(v);
  return bits;
}

static void digest_of(uint8_t out[32], const cz_bool bits[256]) {
  memset(out, 0, 32);
  for (int i = 0; i < 256; i++) out[i / 8] |= (uint8_t)(bits[i].value << (7 - i % 8));
}

/* bellpepper sha256.rs test_blank_hash: the padded empty message as
 * constants costs 0 constraints and gives SHA-256("") (FIPS 180-2). */
static void test_blank_hash(void) {
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  cz_bool in[512], out[256];
  cz_u32 iv[8], st[8];
  for (int i = 0; i < 512; i++) in[i] = cz_bool_const(i == 0);
  cz_sha256_iv(iv);
  CHECK_EQ_INT(cz_sha256_compression(cs, st, in, iv), CZ_OK);
  for (int i = 0; i < 8; i++) cz_u32_into_bits_be(&st[i], out + 32 * i);
  CHECK(cz_cs_is_satisfied(cs));
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 0);
  uint8_t d[32], want[32];
  digest_of(d, out);
  CHECK_EQ_INT(check_hex(want, 32,
                         "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
               32);
  CHECK_MEM(d, want, 32);
  for (int i = 0; i < 256; i++) CHECK(cz_bool_is_const(out[i]));
  cz_cs_free(cs);
}

/* bellpepper sha256.rs test_full_block: one compression of 512 allocated
 * bits: num_constraints() - 512 == 25840. test_full_hash: sha256() of the
 * same 512 bits (two blocks, the second all constants): 44874. */
static void test_counts(void) {
  uint8_t msg[64];
  check_rand_bytes(msg, sizeof msg);
  for (int full = 0; full < 2; full++) {
    cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
    cz_bool *in = alloc_msg(cs, msg, 64), out[256];
    CZ_PUSH_NS(cs, "sha256");
    if (full) CHECK_EQ_INT(cz_sha256(cs, out, in, 512), CZ_OK);
    else CHECK_EQ_INT(cz_sha256_block_no_padding(cs, out, in), CZ_OK);
    CZ_POP_NS(cs);
    CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
    CHECK(cz_cs_is_satisfied(cs));
    CHECK_EQ_INT(cz_cs_num_constraints(cs) - 512, full ? 44874 : 25840);
    uint8_t d[32], want[32];
    digest_of(d, out);
    if (full) {
      SHA256(msg, 64, want);
      CHECK_MEM(d, want, 32);
    }
    free(in);
    cz_cs_free(cs);
  }
}

/* Digests against OpenSSL for lengths that hit every padding case and
 * several multi-block messages (up to 8 blocks; cuzk-bench sha256-synth
 * runs the 20-block label shape). */
static void test_against_openssl(void) {
  static const size_t lens[] = {0, 1, 3, 31, 32, 55, 56, 63, 64, 65, 119, 120, 128, 200, 255, 440};
  for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
    size_t n = lens[k];
    uint8_t *msg = malloc(n + 1), d[32], want[32];
    check_rand_bytes(msg, n);
    SHA256(msg, n, want);
    cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
    cz_bool *in = alloc_msg(cs, msg, n), out[256];
    CHECK_EQ_INT(cz_sha256(cs, out, in, 8 * n), CZ_OK);
    CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
    CHECK(cz_cs_is_satisfied(cs));
    digest_of(d, out);
    CHECK_MEM(d, want, 32);
    if (memcmp(d, want, 32)) fprintf(stderr, "  length %zu\n", n);
    /* Bits are constants only for the empty message (bellpepper asserts
     * the same in test_against_vectors). */
    bool any_const = false;
    for (int i = 0; i < 256; i++) any_const |= cz_bool_is_const(out[i]);
    CHECK(any_const == (n == 0));
    free(in);
    free(msg);
    cz_cs_free(cs);
  }
}

/* A broken witness: any single aux variable changed (a bit flipped, or a
 * non-boolean value) leaves the system unsatisfied. */
static void test_flipped(void) {
  uint8_t msg[40];
  check_rand_bytes(msg, sizeof msg);
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  cz_bool *in = alloc_msg(cs, msg, sizeof msg), out[256];
  CHECK_EQ_INT(cz_sha256(cs, out, in, 8 * sizeof msg), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK(cz_cs_is_satisfied(cs));
  size_t n_aux = cz_cs_num_aux(cs);
  for (int t = 0; t < 12; t++) {
    cz_var v = cz_var_aux((uint32_t)(check_rand64() % n_aux));
    if (t == 0) v = in[5].var;    /* an input bit */
    if (t == 1) v = out[100].var; /* an output bit */
    cz_fr old, bad;
    CHECK(cz_cs_value(cs, v, &old));
    if (t % 3 == 2) cz_fr_from_u64(&bad, 2);
    else cz_fr_sub(&bad, &CZ_FR_ONE, &old); /* flip the bit */
    CHECK(cz_cs_set_value(cs, v, &bad));
    CHECK(!cz_cs_is_satisfied(cs));
    CHECK(cz_cs_which_is_unsatisfied(cs, NULL) != NULL);
    CHECK(cz_cs_set_value(cs, v, &old));
  }
  CHECK(cz_cs_is_satisfied(cs));
  free(in);
  cz_cs_free(cs);
}

/* One run of sha256 on msg in the given backend. */
static cz_cs *run_backend(cz_cs_mode mode, const cz_cs_config *cfg, const uint8_t *msg, size_t n,
                          uint8_t digest[32]) {
  cz_cs *cs = cz_cs_new(mode, cfg);
  cz_bool *in = alloc_msg(cs, msg, n), out[256];
  CHECK_EQ_INT(cz_sha256(cs, out, in, 8 * n), CZ_OK);
  /* Expose the digest packed into inputs, as Filecoin circuits do. */
  CHECK_EQ_INT(cz_pack_into_inputs(cs, out, 256), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  if (digest) digest_of(digest, out);
  free(in);
  return cs;
}

/* PROVE = RECORD matrices * WITNESS values, for every LC layout; KEYGEN
 * and TEST see the same shape. */
static void test_backends(void) {
  uint8_t msg[70], d0[32], d[32], want[32];
  check_rand_bytes(msg, sizeof msg);
  SHA256(msg, sizeof msg, want);
  cz_cs_config cfgs[] = {{CZ_LC_VEC, 0, 0, 0},
                         {CZ_LC_INLINE, 1, 0, 0},
                         {CZ_LC_INLINE, 4, 0, 0},
                         {CZ_LC_ARENA, 0, 0, 0}};
  cz_assignment ref = {0};
  cz_cs *cs = run_backend(CZ_CS_PROVE, &cfgs[0], msg, sizeof msg, d0);
  CHECK_MEM(d0, want, 32);
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &ref), CZ_OK);
  cz_cs_free(cs);
  for (size_t k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++) {
    cz_assignment p = {0}, w = {0};
    cz_r1cs m = {0};
    cs = run_backend(CZ_CS_PROVE, &cfgs[k], msg, sizeof msg, d);
    CHECK_MEM(d, want, 32);
    CHECK_EQ_INT(cz_cs_take_assignment(cs, &p), CZ_OK);
    cz_cs_free(cs);
    cs = run_backend(CZ_CS_RECORD, &cfgs[k], msg, sizeof msg, NULL);
    CHECK_EQ_INT(cz_cs_take_r1cs(cs, &m), CZ_OK);
    cz_cs_free(cs);
    cs = run_backend(CZ_CS_WITNESS, &cfgs[k], msg, sizeof msg, NULL);
    CHECK_EQ_INT(cz_cs_take_assignment(cs, &w), CZ_OK);
    cz_cs_free(cs);
    CHECK_EQ_INT(cz_r1cs_eval(&m, &w), CZ_OK);
    CHECK(assign_eq(&ref, &p));
    CHECK(assign_eq(&ref, &w));
    cz_assignment_free(&p);
    cz_assignment_free(&w);
    cz_r1cs_free(&m);
  }
  cs = run_backend(CZ_CS_KEYGEN, NULL, msg, sizeof msg, NULL);
  CHECK_EQ_INT(cz_cs_num_constraints(cs), ref.n_constraints);
  CHECK_EQ_INT(cz_cs_num_aux(cs), ref.n_aux);
  CHECK_EQ_INT(cz_cs_num_inputs(cs), ref.n_inputs);
  cz_cs_free(cs);
  cs = run_backend(CZ_CS_TEST, NULL, msg, sizeof msg, NULL);
  CHECK(cz_cs_is_satisfied(cs));
  /* TEST has no trailing input constraints. */
  CHECK_EQ_INT(cz_cs_num_constraints(cs) + ref.n_inputs, ref.n_constraints);
  CHECK_EQ_INT(cz_cs_num_inputs(cs), 3); /* ONE + ceil(256 / 254) packed inputs */
  cz_cs_free(cs);
  cz_assignment_free(&ref);
}

/* The SDR label shape, built as rust-fil-proofs' create_label_circuit
 * (storage-proofs-porep/src/stacked/circuit/create_label.rs): 37 parents of
 * 256 allocated bits, a 256-bit allocated replica id, layer (UInt32) and
 * node (UInt64) constants big-endian, zero padding, sha256 over 1248 bytes
 * (20 blocks), bits renumbered within bytes, the first 254 packed into one
 * number (*label), on cs. */
enum { LABEL_PARENTS = 37, LABEL_BYTES = 1248 };
static void label_circuit(cz_cs *cs, const uint8_t msg[LABEL_BYTES], cz_anum *label) {
  cz_bool *bits = malloc(8 * LABEL_BYTES * sizeof *bits), out[256];
  bool v[8 * LABEL_BYTES];
  cz_bytes_to_bits(v, msg, LABEL_BYTES);
  for (int p = 0; p < LABEL_PARENTS; p++) {
    CZ_PUSH_NS(cs, "parents %d", p);
    for (int i = 0; i < 256; i++) {
      size_t at = 512 + 256 * (size_t)p + (size_t)i;
      cz_abit b;
      CZ_PUSH_NS(cs, "bit %d", i);
      CHECK_EQ_INT(cz_abit_alloc(cs, &b, v[at]), CZ_OK);
      CZ_POP_NS(cs);
      bits[at] = cz_bool_from_bit(b);
    }
    CZ_POP_NS(cs);
  }
  CZ_PUSH_NS(cs, "id");
  for (int i = 0; i < 256; i++) {
    cz_abit b;
    CZ_PUSH_NS(cs, "bit %d", i);
    CHECK_EQ_INT(cz_abit_alloc(cs, &b, v[i]), CZ_OK);
    CZ_POP_NS(cs);
    bits[i] = cz_bool_from_bit(b);
  }
  CZ_POP_NS(cs);
  cz_u32 layer;
  cz_u32_const(&layer, 3);
  cz_u32_into_bits_be(&layer, bits + 256);
  for (int i = 0; i < 64; i++) bits[288 + i] = cz_bool_const((22ull >> (63 - i)) & 1);
  for (int i = 352; i < 512; i++) bits[i] = cz_bool_const(false);
  CZ_PUSH_NS(cs, "create_label");
  CZ_PUSH_NS(cs, "hash");
  CHECK_EQ_INT(cz_sha256(cs, out, bits, 8 * LABEL_BYTES), CZ_OK);
  CZ_POP_NS(cs);
  cz_bool renum[256];
  for (int i = 0; i < 256; i++) renum[i] = out[(i & ~7) + 7 - (i & 7)];
  CZ_PUSH_NS(cs, "result_num");
  CHECK_EQ_INT(cz_pack_bits(cs, label, renum, CZ_FR_CAPACITY), CZ_OK);
  CZ_POP_NS(cs);
  CZ_POP_NS(cs);
  free(bits);
}

/* test_create_label asserts num_constraints() == 532_025. The number must
 * be the OpenSSL digest, little-endian, top two bits cleared (Filecoin's
 * trim to 254 bits). Run on PROVE (no names: fast), and every constraint
 * checked as a * b = c on the recorded shape's evaluations of a WITNESS
 * run (PROVE leaves c to the prover). */
static void test_label_shape(void) {
  uint8_t msg[LABEL_BYTES];
  memset(msg, 0, sizeof msg);
  check_rand_bytes(msg, 32);
  msg[35] = 3;  /* layer 3, big-endian u32 */
  msg[43] = 22; /* node 22, big-endian u64 */
  check_rand_bytes(msg + 64, 32 * LABEL_PARENTS);
  cz_cs *cs = cz_cs_new(CZ_CS_PROVE, NULL);
  cz_anum label;
  label_circuit(cs, msg, &label);
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 532025);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  uint8_t d[32];
  SHA256(msg, sizeof msg, d);
  d[31] &= 0x3f;
  cz_fr want, got;
  CHECK_EQ_INT(cz_fr_from_bytes_le(&want, d), CZ_OK);
  CHECK(cz_fr_eq(&label.value, &want));
  cz_assignment as = {0}, w = {0};
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &as), CZ_OK);
  cz_cs_free(cs);
  cz_fr_packed_get(&as.aux, label.var.index, &got);
  CHECK(cz_fr_eq(&got, &want));
  cz_r1cs m;
  cs = cz_cs_new(CZ_CS_RECORD, NULL);
  label_circuit(cs, msg, &label);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_take_r1cs(cs, &m), CZ_OK);
  cz_cs_free(cs);
  cs = cz_cs_new(CZ_CS_WITNESS, NULL);
  label_circuit(cs, msg, &label);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &w), CZ_OK);
  cz_cs_free(cs);
  CHECK_EQ_INT(cz_r1cs_eval(&m, &w), CZ_OK);
  CHECK(assign_eq(&as, &w));
  CHECK_EQ_INT(first_unsatisfied(&w, w.n_constraints), w.n_constraints);
  cz_r1cs_free(&m);
  cz_assignment_free(&w);
  cz_assignment_free(&as);
}

int main(void) {
  test_label_shape();
  test_blank_hash();
  test_counts();
  test_against_openssl();
  test_flipped();
  test_backends();
  return check_report("test_sha256");
}
