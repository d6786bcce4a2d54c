/* The SDR encoding, column hash and comm_r check as gadgets: each equals its
 * native function, is satisfied on honest witnesses and not when one value
 * is changed, and has the constraint count rust-fil-proofs asserts where it
 * asserts one:
 *  - hash_single_column of 11 labels: 598 constraints, storage-proofs-porep
 *    src/stacked/circuit/hash.rs test_hash_single_column_circuit.
 *  - Poseidon hash2_circuit (the comm_r hash): 311 constraints, same file,
 *    test_hash2_circuit. The check adds one constraint::equal: 312 (no
 *    upstream test asserts that total; it follows from 311 + 1).
 *  - hash_single_column of 2 labels is poseidon_hash arity 2 as hash2: 311.
 *  - encode / decode (constraint::add / sub): storage-proofs-core
 *    src/gadgets/constraint.rs add_constraint / sub_constraint assert only
 *    the value and satisfaction, no count; ours (1 constraint, 1 variable)
 *    follows from the one cs.enforce in add / sub. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cuzk/cs.h"
#include "cuzk/gadgets.h"
#include "cuzk/sdr.h"

static cz_fr rand_fr(void) {
  uint8_t b[32];
  check_rand_bytes(b, 32);
  b[31] &= 0x3f; /* < 2^254 < r: canonical */
  cz_fr x;
  CHECK_EQ_INT(cz_fr_from_bytes_le(&x, b), CZ_OK);
  return x;
}

static void alloc_num(cz_cs *cs, cz_anum *a, const cz_fr *v, const char *ns) {
  CZ_PUSH_NS(cs, "%s", ns);
  CHECK_EQ_INT(cz_anum_alloc(cs, a, v), CZ_OK);
  CZ_POP_NS(cs);
}

static bool unsat_named(const cz_cs *cs, const char *part) {
  size_t at;
  const char *name = cz_cs_which_is_unsatisfied(cs, &at);
  return name && strstr(name, part);
}

static void test_encode_decode(void) {
  for (int round = 0; round < 20; round++) {
    cz_fr key = rand_fr(), data = rand_fr();
    uint8_t kb[32], db[32], want[32], got[32], back[32];
    cz_fr_to_bytes_le(kb, &key);
    cz_fr_to_bytes_le(db, &data);
    CHECK_EQ_INT(cz_sdr_encode(want, kb, db), CZ_OK);

    cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
    cz_anum k, d, enc, dec;
    alloc_num(cs, &k, &key, "key");
    alloc_num(cs, &d, &data, "data");
    CZ_PUSH_NS(cs, "encode_node");
    CHECK_EQ_INT(cz_sdr_encode_gadget(cs, &enc, &k, &d), CZ_OK);
    CZ_POP_NS(cs);
    CHECK_EQ_INT(cz_cs_num_constraints(cs), 1);
    CHECK_EQ_INT(cz_cs_num_aux(cs), 3);
    cz_fr_to_bytes_le(got, &enc.value);
    CHECK_MEM(got, want, 32);
    CHECK(cz_cs_is_satisfied(cs));

    /* Decoding the replica gives the data back, natively and in-circuit. */
    CZ_PUSH_NS(cs, "decode_node");
    CHECK_EQ_INT(cz_sdr_decode_gadget(cs, &dec, &k, &enc), CZ_OK);
    CZ_POP_NS(cs);
    CHECK_EQ_INT(cz_cs_num_constraints(cs), 2);
    CHECK_EQ_INT(cz_sdr_decode(back, kb, want), CZ_OK);
    CHECK_MEM(back, db, 32);
    cz_fr_to_bytes_le(got, &dec.value);
    CHECK_MEM(got, db, 32);
    CHECK(cz_cs_is_satisfied(cs));

    /* A wrong encoded value breaks the sum constraint first. */
    cz_fr bad = enc.value;
    cz_fr_add(&bad, &bad, &CZ_FR_ONE);
    CHECK(cz_cs_set_value(cs, enc.var, &bad));
    CHECK(!cz_cs_is_satisfied(cs));
    CHECK(unsat_named(cs, "sum constraint"));
    CHECK(cz_cs_set_value(cs, enc.var, &enc.value));
    CHECK(cz_cs_is_satisfied(cs));
    /* A wrong decoded value breaks the subtraction constraint. */
    CHECK(cz_cs_set_value(cs, dec.var, &bad));
    CHECK(!cz_cs_is_satisfied(cs));
    CHECK(unsat_named(cs, "subtraction constraint"));
    cz_cs_free(cs);
  }
}

static void test_column_hash(size_t layers, size_t want_constraints) {
  cz_fr col[11], want;
  for (size_t i = 0; i < layers; i++) col[i] = rand_fr();
  CHECK_EQ_INT(cz_sdr_column_hash(&want, col, layers), CZ_OK);

  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  cz_anum nums[11], out;
  for (size_t i = 0; i < layers; i++) {
    char ns[16];
    snprintf(ns, sizeof ns, "num_%zu", i);
    alloc_num(cs, &nums[i], &col[i], ns);
  }
  CZ_PUSH_NS(cs, "hash_single_column");
  CHECK_EQ_INT(cz_sdr_column_hash_gadget(cs, &out, nums, layers), CZ_OK);
  CZ_POP_NS(cs);
  CHECK_EQ_INT(cz_cs_num_constraints(cs), (long long)want_constraints);
  CHECK_MEM(&out.value, &want, sizeof want);
  cz_fr got;
  CHECK(cz_cs_value(cs, out.var, &got));
  CHECK_MEM(&got, &want, sizeof want);
  CHECK(cz_cs_is_satisfied(cs));

  /* One label changed after synthesis: the circuit no longer holds. */
  cz_fr bad = col[layers - 1];
  cz_fr_add(&bad, &bad, &CZ_FR_ONE);
  CHECK(cz_cs_set_value(cs, nums[layers - 1].var, &bad));
  CHECK(!cz_cs_is_satisfied(cs));
  cz_cs_free(cs);
}

static void test_column_hash_bad_len(void) {
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  cz_anum nums[11], out;
  cz_fr v = CZ_FR_ONE;
  for (int i = 0; i < 11; i++) {
    char ns[16];
    snprintf(ns, sizeof ns, "n%d", i);
    alloc_num(cs, &nums[i], &v, ns);
  }
  CHECK_EQ_INT(cz_sdr_column_hash_gadget(cs, &out, nums, 8), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_sdr_column_hash_gadget(cs, &out, nums, 1), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 0);
  cz_cs_free(cs);
}

static void test_comm_r(void) {
  for (int round = 0; round < 3; round++) {
    cz_fr c = rand_fr(), rl = rand_fr(), r;
    uint8_t cb[32], rlb[32], rb[32];
    cz_fr_to_bytes_le(cb, &c);
    cz_fr_to_bytes_le(rlb, &rl);
    CHECK_EQ_INT(cz_sdr_comm_r(rb, cb, rlb), CZ_OK);
    CHECK_EQ_INT(cz_fr_from_bytes_le(&r, rb), CZ_OK);

    /* StackedCircuit's order: comm_r (an input there), comm_r_last, comm_c. */
    cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
    cz_anum nr, nrl, nc;
    alloc_num(cs, &nr, &r, "comm_r");
    alloc_num(cs, &nrl, &rl, "comm_r_last");
    alloc_num(cs, &nc, &c, "comm_c");
    CHECK_EQ_INT(cz_sdr_comm_r_gadget(cs, &nr, &nc, &nrl), CZ_OK);
    CHECK_EQ_INT(cz_cs_num_constraints(cs), 311 + 1);
    CHECK(cz_cs_is_satisfied(cs));
    const char *last = cz_cs_constraint_name(cs, 311);
    CHECK(last && strstr(last, "enforce comm_r = H(comm_c || comm_r_last)"));

    /* A comm_r other than the hash: only the equality fails. */
    cz_fr bad = r;
    cz_fr_add(&bad, &bad, &CZ_FR_ONE);
    CHECK(cz_cs_set_value(cs, nr.var, &bad));
    CHECK(!cz_cs_is_satisfied(cs));
    CHECK(unsat_named(cs, "enforce comm_r = H(comm_c || comm_r_last)"));
    /* Swapped comm_c and comm_r_last hash to something else. */
    CHECK(cz_cs_set_value(cs, nr.var, &r));
    CHECK(cz_cs_set_value(cs, nc.var, &rl));
    CHECK(cz_cs_set_value(cs, nrl.var, &c));
    CHECK(!cz_cs_is_satisfied(cs));
    cz_cs_free(cs);
  }
}

/* Without values (KEYGEN), the same shapes: counts as with the test system. */
static void test_keygen_shapes(void) {
  cz_cs *cs = cz_cs_new(CZ_CS_KEYGEN, NULL);
  CHECK(cs != NULL);
  cz_anum n[13], out;
  for (int i = 0; i < 13; i++) CHECK_EQ_INT(cz_anum_alloc(cs, &n[i], NULL), CZ_OK);
  CHECK_EQ_INT(cz_sdr_encode_gadget(cs, &out, &n[0], &n[1]), CZ_OK);
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 1);
  CHECK_EQ_INT(cz_sdr_decode_gadget(cs, &out, &n[0], &n[1]), CZ_OK);
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 2);
  CHECK_EQ_INT(cz_sdr_column_hash_gadget(cs, &out, n, 11), CZ_OK);
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 2 + 598);
  CHECK_EQ_INT(cz_sdr_column_hash_gadget(cs, &out, n, 2), CZ_OK);
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 2 + 598 + 311);
  CHECK_EQ_INT(cz_sdr_comm_r_gadget(cs, &n[11], &n[12], &n[10]), CZ_OK);
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 2 + 598 + 311 + 312);
  CHECK_EQ_INT(cz_cs_error(cs), CZ_OK);
  cz_cs_free(cs);
}

int main(void) {
  test_encode_decode();
  test_column_hash(11, 598);
  test_column_hash(2, 311);
  test_column_hash_bad_len();
  test_comm_r();
  test_keygen_shapes();
  return check_report("test_sdr_gadgets");
}
