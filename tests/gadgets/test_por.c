/* The PoR circuit, the insert gadget and the tree hash circuits
 * (cuzk/merkle.h) against rust-fil-proofs' counts, the native trees, and
 * broken witnesses. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cs_eq.h"
#include "cuzk/merkle.h"
#include "cuzk/por.h"
#include "rand_field.h"

typedef struct {
  cz_merkle_shape s;
  size_t leaves, constraints, stride;
  /* The first constraint broken by flipping index bit 0; for arity 8 the
   * "nor constraint" when bit 1 is 0, else "b0 and b1/and constraint". */
  const char *flip_name;
} por_case;

/* SHA-256 shapes are checked on fewer challenges (each is ~250k
 * constraints). Expected counts: rust-fil-proofs storage-proofs-core/tests/por_circuit.rs
 * (TestConstraintSystem, root public, 3 inputs: ONE, packed path, root;
 * leaves = 64 * get_base_tree_count):
 *   test_por_circuit_sha256_base_2       -> test_por_circuit(3, 272_295)
 *   test_por_circuit_poseidon_base_2     -> (3, 1_887)
 *   test_por_circuit_poseidon_base_4     -> (3, 1_164)
 *   test_por_circuit_poseidon_base_8     -> (3, 1_063)
 *   test_por_circuit_poseidon_sub_8_2    -> (3, 1_377)
 *   test_por_circuit_poseidon_sub_8_8    -> (3, 1_593)
 *   test_por_circuit_poseidon_top_8_4_2  -> (3, 1_764)
 *   test_por_circuit_poseidon_top_8_8_2  -> (3, 1_907)
 *   test_por_circuit_poseidon_top_8_2_4  -> (3, 1_764)
 *   test_por_circuit_sha256_base_4       -> (3, 216_258)
 *   test_por_circuit_sha256_base_8       -> (3, 250_987) */
static const por_case cases[] = {
    {{CZ_MERKLE_SHA256, 2, 0, 0}, 64, 272295, 32, "base/merkle tree hash 0/binary insert 0/pick"},
    {{CZ_MERKLE_SHA256, 4, 0, 0}, 64, 216258, 64, "base/merkle tree hash 0/p0_x0/pick"},
    {{CZ_MERKLE_SHA256, 8, 0, 0},
     64,
     250987,
     64,
     "base/merkle tree hash 0/b0 nor b1/nor constraint"},
    {{CZ_MERKLE_POSEIDON, 2, 0, 0}, 64, 1887, 1, "base/merkle tree hash 0/binary insert 0/pick"},
    {{CZ_MERKLE_POSEIDON, 4, 0, 0}, 64, 1164, 1, "base/merkle tree hash 0/p0_x0/pick"},
    {{CZ_MERKLE_POSEIDON, 8, 0, 0},
     64,
     1063,
     1,
     "base/merkle tree hash 0/b0 nor b1/nor constraint"},
    {{CZ_MERKLE_POSEIDON, 8, 2, 0},
     128,
     1377,
     3,
     "base/merkle tree hash 0/b0 nor b1/nor constraint"},
    {{CZ_MERKLE_POSEIDON, 8, 8, 0},
     512,
     1593,
     7,
     "base/merkle tree hash 0/b0 nor b1/nor constraint"},
    {{CZ_MERKLE_POSEIDON, 8, 4, 2},
     512,
     1764,
     7,
     "base/merkle tree hash 0/b0 nor b1/nor constraint"},
    {{CZ_MERKLE_POSEIDON, 8, 8, 2},
     1024,
     1907,
     13,
     "base/merkle tree hash 0/b0 nor b1/nor constraint"},
    {{CZ_MERKLE_POSEIDON, 8, 2, 4},
     512,
     1764,
     7,
     "base/merkle tree hash 0/b0 nor b1/nor constraint"},
};

static cz_merkle_tree make_tree(const cz_merkle_shape *s, size_t n) {
  cz_fr *leaves = malloc(n * sizeof *leaves);
  CHECK(leaves != NULL);
  for (size_t i = 0; i < n; i++) leaves[i] = check_rand_fr();
  cz_merkle_tree t;
  CHECK_EQ_INT(cz_merkle_tree_build(&t, s, leaves, n), CZ_OK);
  free(leaves);
  return t;
}

/* What the circuits of one PoR shape share: the case, its tree, and the
 * aux count of the first circuit built (0 until then), which every later
 * circuit must have. */
typedef struct {
  const por_case *pc;
  const cz_merkle_tree *t;
  size_t aux;
} por_run;

/* Flipping index bit 0 breaks the insert (the named constraint); restored,
 * the circuit is satisfied again; a changed claimed root breaks the root
 * check. cs is a satisfied public-root circuit for challenge c. */
static void por_check_broken_witness(const por_run *run, cz_cs *cs, size_t c) {
  const por_case *pc = run->pc;
  const cz_merkle_tree t = *run->t;
  size_t aux = run->aux;
  /* Flip index bit 0 (aux 1, after the value): the bit stays boolean
   * but the insert no longer matches. */
  cz_fr b;
  CHECK(cz_cs_value(cs, cz_var_aux(1), &b));
  cz_fr_sub(&b, &CZ_FR_ONE, &b);
  CHECK(cz_cs_set_value(cs, cz_var_aux(1), &b));
  const char *want = pc->flip_name;
  if (pc->s.base_arity == 8 && ((c >> 1) & 1))
    want = "base/merkle tree hash 0/b0 and b1/and constraint";
  const char *bad = cz_cs_which_is_unsatisfied(cs, NULL);
  CHECK(bad != NULL && strcmp(bad, want) == 0);
  /* Restore, then break the claimed root. */
  cz_fr_sub(&b, &CZ_FR_ONE, &b);
  CHECK(cz_cs_set_value(cs, cz_var_aux(1), &b));
  CHECK(cz_cs_is_satisfied(cs));
  cz_fr r = t.root;
  cz_fr_add(&r, &r, &CZ_FR_ONE);
  CHECK(cz_cs_set_value(cs, cz_var_aux((uint32_t)(aux - 1)), &r));
  bad = cz_cs_which_is_unsatisfied(cs, NULL);
  CHECK(bad != NULL && strcmp(bad, "enforce root is correct") == 0);
}

/* The circuit ends as por.rs does: packing of the path bits, the root
 * check, the root's inputize (bellpepper's names). */
static void por_check_last_names(const cz_cs *cs, int priv) {
  size_t k = cz_cs_num_constraints(cs);
  const char *n1 = cz_cs_constraint_name(cs, k - 2);
  const char *n2 = cz_cs_constraint_name(cs, k - 1);
  CHECK(n1 && strcmp(n1, priv ? "path/packing constraint 0" : "enforce root is correct") == 0);
  CHECK(n2 && strcmp(n2, priv ? "enforce root is correct" : "root/enforce input is correct") == 0);
}

/* The PoR circuit for the proof of challenge c, root public or private:
 * satisfied, rust-fil-proofs' counts, the inputs and the computed root in
 * place; then broken witnesses (challenge stride) and the last names
 * (challenge 0). Sets run->aux from the first circuit. */
static void por_check_circuit(por_run *run, const cz_merkle_proof *proof, size_t c, int priv) {
  const por_case *pc = run->pc;
  const cz_merkle_tree t = *run->t;
  const cz_merkle_proof p = *proof;
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  CHECK_EQ_INT(cz_por_circuit(cs, &pc->s, pc->leaves, &p, priv), CZ_OK);
  CHECK(cz_cs_is_satisfied(cs));
  /* Private root: one input and one constraint fewer
   * (test_por_circuit_private_root: 2 inputs, 1_886 / 1_163 / 1_062). */
  CHECK_EQ_INT(cz_cs_num_constraints(cs), pc->constraints - (size_t)priv);
  CHECK_EQ_INT(cz_cs_num_inputs(cs), 3 - (size_t)priv);
  /* Inputs as generate_public_inputs: the challenge, then the root. */
  cz_fr v, ch;
  cz_fr_from_u64(&ch, c);
  CHECK(cz_cs_value(cs, cz_var_input(1), &v) && cz_fr_eq(&v, &ch));
  if (!priv) CHECK(cz_cs_value(cs, cz_var_input(2), &v) && cz_fr_eq(&v, &t.root));
  if (run->aux == 0) run->aux = cz_cs_num_aux(cs);
  size_t aux = run->aux;
  CHECK_EQ_INT(cz_cs_num_aux(cs), aux);
  /* The computed root: the aux right before "root_value" (the last aux). */
  CHECK(cz_cs_value(cs, cz_var_aux((uint32_t)(aux - 2)), &v) && cz_fr_eq(&v, &t.root));
  if (c == pc->stride && !priv) por_check_broken_witness(run, cs, c);
  if (c == 0) por_check_last_names(cs, priv);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  cz_cs_free(cs);
}

/* Proof p with its leaf changed: the root check is the broken constraint. */
static void por_check_wrong_leaf(const por_case *pc, const cz_merkle_proof *p) {
  cz_merkle_proof q = *p;
  cz_fr_add(&q.leaf, &q.leaf, &CZ_FR_ONE);
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  CHECK_EQ_INT(cz_por_circuit(cs, &pc->s, pc->leaves, &q, false), CZ_OK);
  const char *bad = cz_cs_which_is_unsatisfied(cs, NULL);
  CHECK(bad != NULL && strcmp(bad, "enforce root is correct") == 0);
  cz_cs_free(cs);
}

/* The blank circuit (no witness) has the same shape; KEYGEN adds one
 * constraint per input at finish. */
static void por_check_blank(const por_case *pc, size_t aux) {
  cz_cs *ks = cz_cs_new(CZ_CS_KEYGEN, NULL);
  CHECK_EQ_INT(cz_por_circuit(ks, &pc->s, pc->leaves, NULL, false), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(ks), CZ_OK);
  CHECK_EQ_INT(cz_cs_num_aux(ks), aux);
  CHECK_EQ_INT(cz_cs_num_constraints(ks), pc->constraints + 3);
  cz_cs_free(ks);
}

/* One PoR shape over every stride-th challenge of a random tree: each
 * circuit, a wrong leaf, and the blank circuit's shape. */
static void test_por_case(const por_case *pc) {
  cz_merkle_tree t = make_tree(&pc->s, pc->leaves);
  por_run run = {pc, &t, 0};
  for (size_t c = 0; c < pc->leaves; c += pc->stride) {
    cz_merkle_proof p;
    CHECK_EQ_INT(cz_merkle_prove(&t, c, &p), CZ_OK);
    for (int priv = 0; priv < 2; priv++) {
      if (priv && pc->s.hasher == CZ_MERKLE_SHA256) continue; /* keep the test short */
      por_check_circuit(&run, &p, c, priv);
    }
    /* A wrong leaf in an otherwise honest proof is not satisfiable
     * (Poseidon shapes only, to keep the SHA-256 ones short). */
    if (c == 0 && pc->s.hasher == CZ_MERKLE_POSEIDON) por_check_wrong_leaf(pc, &p);
  }
  por_check_blank(pc, run.aux);
  cz_merkle_tree_free(&t);
}

/* insertion.rs tests::test_insert: every size 2..16 and index puts the
 * element at the index; sizes 2/4/8 cost 2, 8, 22 constraints (insert_2,
 * insert_4: 8 picks, insert_8: nor + and + 20 picks); the generic
 * algorithm size * (size - 1) (16: 240). */
static void test_insert(void) {
  static const size_t cost[] = {0, 2, 8, 22, 240};
  for (unsigned log = 1; log <= 4; log++) {
    size_t size = (size_t)1 << log;
    for (size_t index = 0; index < size; index++) {
      cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
      cz_anum el[16], x, out[16];
      cz_bool bits[4];
      for (size_t i = 0; i + 1 < size; i++) {
        cz_fr v = check_rand_fr();
        CHECK(cz_anum_alloc(cs, &el[i], &v) == CZ_OK);
      }
      cz_fr xv = check_rand_fr();
      CHECK(cz_anum_alloc(cs, &x, &xv) == CZ_OK);
      for (unsigned i = 0; i < log; i++) {
        cz_abit b;
        CZ_PUSH_NS(cs, "index bit %u", i);
        CHECK(cz_abit_alloc(cs, &b, (index >> i) & 1) == CZ_OK);
        CZ_POP_NS(cs);
        bits[i] = cz_bool_from_bit(b);
      }
      size_t before = cz_cs_num_constraints(cs);
      CZ_PUSH_NS(cs, "insert");
      CHECK_EQ_INT(cz_insert(cs, out, &x, bits, log, el, size - 1), CZ_OK);
      CZ_POP_NS(cs);
      CHECK_EQ_INT(cz_cs_num_constraints(cs) - before, cost[log]);
      CHECK(cz_cs_is_satisfied(cs));
      for (size_t i = 0; i < size; i++) {
        const cz_fr *want = i < index ? &el[i].value : i == index ? &xv : &el[i - 1].value;
        cz_fr got;
        CHECK(cz_cs_value(cs, out[i].var, &got) && cz_fr_eq(&got, want));
        CHECK(cz_fr_eq(&out[i].value, want));
      }
      cz_cs_free(cs);
    }
  }
}

/* por_no_challenge_input (por_circuit.rs test_por_no_challenge_input:
 * satisfaction only, no count asserted there): several challenges into one
 * system against one allocated root. Per challenge it costs what the PoR
 * circuit costs (its index bits are the caller's challenge bits here) less
 * the packing constraint and the root's inputize: an internal consistency
 * check, not a count from rust-fil-proofs. */
static void test_no_challenge_input(cz_merkle_shape s, size_t n) {
  cz_merkle_tree t = make_tree(&s, n);
  size_t levels = cz_merkle_proof_levels(&s, n), nbits = 0;
  while (((size_t)1 << nbits) < n) nbits++;
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  cz_anum root;
  CHECK(cz_anum_alloc(cs, &root, &t.root) == CZ_OK);
  for (int k = 0; k < 5; k++) {
    size_t c = (size_t)(check_rand64() % n);
    cz_merkle_proof p;
    CHECK_EQ_INT(cz_merkle_prove(&t, c, &p), CZ_OK);
    cz_anum leaf, path[CZ_MERKLE_MAX_LEVELS * 7];
    cz_abit bits[64];
    CZ_PUSH_NS(cs, "leaf (c_index=%d)", k);
    CHECK(cz_anum_alloc(cs, &leaf, &p.leaf) == CZ_OK);
    CZ_POP_NS(cs);
    for (size_t i = 0; i < nbits; i++) {
      CZ_PUSH_NS(cs, "challenge_bit (c_index=%d, bit_index=%zu)", k, i);
      CHECK(cz_abit_alloc(cs, &bits[i], (c >> i) & 1) == CZ_OK);
      CZ_POP_NS(cs);
    }
    size_t m = 0;
    for (size_t l = 0; l < levels; l++)
      for (unsigned j = 0; j + 1 < p.arity[l]; j++)
        CHECK(cz_anum_alloc(cs, &path[m++], &p.siblings[l][j]) == CZ_OK);
    CZ_PUSH_NS(cs, "por (c_index=%d)", k);
    CHECK_EQ_INT(cz_por_no_challenge_input(cs, &s, n, bits, &leaf, path, &root), CZ_OK);
    CZ_POP_NS(cs);
  }
  CHECK(cz_cs_is_satisfied(cs));
  cz_cs *ks = cz_cs_new(CZ_CS_TEST, NULL);
  cz_merkle_proof p0;
  CHECK_EQ_INT(cz_merkle_prove(&t, 0, &p0), CZ_OK);
  CHECK_EQ_INT(cz_por_circuit(ks, &s, n, &p0, false), CZ_OK);
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 5 * (cz_cs_num_constraints(ks) - 2));
  cz_cs_free(ks);
  cz_fr r = t.root;
  cz_fr_add(&r, &r, &CZ_FR_ONE);
  cz_cs_set_value(cs, root.var, &r);
  const char *bad = cz_cs_which_is_unsatisfied(cs, NULL);
  CHECK(bad != NULL && strcmp(bad, "por (c_index=0)/calculated root == provided root") == 0);
  cz_cs_free(cs);
  cz_merkle_tree_free(&t);
}

/* hash_multi_leaf_circuit and hash2_circuit of both hashers: the native
 * node, satisfied, broken by a tampered output. SHA-256 arity 2 costs
 * (272_295 - 3) / 6 - 3 = 45_379 constraints: the per-level share of
 * test_por_circuit_sha256_base_2 less its index bit and 2 picks; Poseidon
 * arity 2 is neptune's 311. hash2 has the same constraints. */
static void test_hash_circuits(void) {
  for (int h = 0; h < 2; h++) {
    for (int two = 0; two < 2; two++) {
      cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
      cz_fr v[2] = {check_rand_fr(), check_rand_fr()}, want, got;
      cz_anum in[2], out;
      CHECK(cz_anum_alloc(cs, &in[0], &v[0]) == CZ_OK);
      CHECK(cz_anum_alloc(cs, &in[1], &v[1]) == CZ_OK);
      CZ_PUSH_NS(cs, "h");
      if (two)
        CHECK_EQ_INT(cz_merkle_hash2_circuit(cs, (cz_merkle_hasher)h, &in[0], &in[1], &out), CZ_OK);
      else CHECK_EQ_INT(cz_merkle_hash_circuit(cs, (cz_merkle_hasher)h, 2, in, &out), CZ_OK);
      CZ_POP_NS(cs);
      CHECK_EQ_INT(cz_cs_num_constraints(cs), h == CZ_MERKLE_SHA256 ? 45379 : 311);
      CHECK(cz_cs_is_satisfied(cs));
      CHECK_EQ_INT(cz_merkle_hash_node((cz_merkle_hasher)h, 2, v, &want), CZ_OK);
      CHECK(cz_cs_value(cs, out.var, &got) && cz_fr_eq(&got, &want));
      CHECK(cz_fr_eq(&out.value, &want));
      if (h == CZ_MERKLE_SHA256) {
        const char *n0 = cz_cs_constraint_name(cs, 0);
        CHECK(n0 && strncmp(n0, two ? "h/a_bits/" : "h/0_num_into_bits/", two ? 9 : 18) == 0);
      }
      cz_fr_add(&got, &got, &CZ_FR_ONE);
      CHECK(cz_cs_set_value(cs, out.var, &got));
      CHECK(!cz_cs_is_satisfied(cs));
      cz_cs_free(cs);
    }
  }
}

/* PROVE == RECORD + WITNESS + cz_r1cs_eval for the PoR circuit (the
 * witness run skips LCs but must count every constraint), and KEYGEN on
 * the blank circuit has the same shape. */
static void test_backends(cz_merkle_shape s, size_t n, size_t c) {
  cz_merkle_tree t = make_tree(&s, n);
  cz_merkle_proof p;
  CHECK_EQ_INT(cz_merkle_prove(&t, c, &p), CZ_OK);
  cz_assignment pr, w;
  cz_r1cs m;
  cz_cs *cs = cz_cs_new(CZ_CS_PROVE, NULL);
  CHECK_EQ_INT(cz_por_circuit(cs, &s, n, &p, false), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &pr), CZ_OK);
  cz_cs_free(cs);
  cs = cz_cs_new(CZ_CS_WITNESS, NULL);
  CHECK_EQ_INT(cz_por_circuit(cs, &s, n, &p, false), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &w), CZ_OK);
  cz_cs_free(cs);
  cs = cz_cs_new(CZ_CS_RECORD, NULL);
  CHECK_EQ_INT(cz_por_circuit(cs, &s, n, NULL, false), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_take_r1cs(cs, &m), CZ_OK);
  cz_cs_free(cs);
  CHECK_EQ_INT(cz_r1cs_eval(&m, &w), CZ_OK);
  CHECK_EQ_INT(w.n_constraints, pr.n_constraints);
  CHECK_EQ_INT(w.n_aux, pr.n_aux);
  if (w.n_constraints == pr.n_constraints && w.n_aux == pr.n_aux && w.n_inputs == pr.n_inputs) {
    size_t k = pr.n_constraints;
    CHECK(!memcmp(pr.inputs, w.inputs, pr.n_inputs * sizeof(cz_fr)));
    CHECK(cz_fr_packed_eq(&pr.aux, &w.aux));
    CHECK(!memcmp(pr.a, w.a, k * sizeof(cz_fr)) && !memcmp(pr.b, w.b, k * sizeof(cz_fr)));
    CHECK(pr.c == NULL && first_unsatisfied(&w, k) == k); /* C rows = a * b */
    CHECK(dens_eq(&pr.a_aux, &w.a_aux) && dens_eq(&pr.b_input, &w.b_input) &&
          dens_eq(&pr.b_aux, &w.b_aux));
  }
  cz_r1cs_free(&m);
  cz_assignment_free(&pr);
  cz_assignment_free(&w);
  cz_merkle_tree_free(&t);
}

/* enforce_inclusion's PoRCircuit (Root::Var leaf and root, private): the
 * circuit of cz_por_circuit(private) without the "value" and "root_value"
 * allocations, bound to the caller's variables. */
static void test_por_allocated(const cz_merkle_shape *s, size_t n_leaves, size_t challenge) {
  cz_merkle_tree t = make_tree(s, n_leaves);
  cz_merkle_proof p;
  CHECK_EQ_INT(cz_merkle_prove(&t, challenge, &p), CZ_OK);
  cz_cs *ref = cz_cs_new(CZ_CS_TEST, NULL);
  CHECK_EQ_INT(cz_por_circuit(ref, s, n_leaves, &p, true), CZ_OK);
  for (int wrong = 0; wrong < 2; wrong++) {
    cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
    cz_anum leaf, root;
    cz_fr r = t.root;
    if (wrong) cz_fr_add(&r, &r, &CZ_FR_ONE);
    CZ_PUSH_NS(cs, "leaf");
    CHECK(cz_anum_alloc(cs, &leaf, &p.leaf) == CZ_OK);
    CZ_POP_NS(cs);
    CZ_PUSH_NS(cs, "root");
    CHECK(cz_anum_alloc(cs, &root, &r) == CZ_OK);
    CZ_POP_NS(cs);
    CHECK_EQ_INT(cz_por_circuit_allocated(cs, s, n_leaves, &p, &leaf, &root, true), CZ_OK);
    CHECK_EQ_INT(cz_cs_num_constraints(cs), cz_cs_num_constraints(ref));
    CHECK_EQ_INT(cz_cs_num_inputs(cs), cz_cs_num_inputs(ref));
    CHECK_EQ_INT(cz_cs_num_aux(cs), cz_cs_num_aux(ref)); /* 2 allocated outside instead */
    bool same_names = true;
    for (size_t i = 0; i < cz_cs_num_constraints(cs); i++)
      same_names &= strcmp(cz_cs_constraint_name(cs, i), cz_cs_constraint_name(ref, i)) == 0;
    CHECK(same_names);
    if (!wrong) CHECK(cz_cs_is_satisfied(cs));
    const char *bad = cz_cs_which_is_unsatisfied(cs, NULL);
    if (wrong) CHECK(bad && strcmp(bad, "enforce root is correct") == 0);
    CHECK_EQ_INT(cz_por_circuit_allocated(cs, s, n_leaves, &p, NULL, &root, true),
                 CZ_ERR_INVALID_ARG);
    cz_cs_free(cs);
  }
  cz_cs_free(ref);
  cz_merkle_tree_free(&t);
}

/* The fallback PoSt's PoRCircuit (Root::Val leaf, Root::Var root,
 * private): cz_por_circuit(private) less the "root_value" allocation, the
 * leaf still in "value". For the base-8 tree of 64 leaves that is
 * test_por_circuit_poseidon_base_8_private_root's 1_062 constraints
 * (storage-proofs-core/tests/por_circuit.rs), 2 inputs. */
static void test_por_var_root(const cz_merkle_shape *s, size_t n_leaves, size_t challenge,
                              size_t want_constraints) {
  cz_merkle_tree t = make_tree(s, n_leaves);
  cz_merkle_proof p;
  CHECK_EQ_INT(cz_merkle_prove(&t, challenge, &p), CZ_OK);
  cz_cs *ref = cz_cs_new(CZ_CS_TEST, NULL);
  CHECK_EQ_INT(cz_por_circuit(ref, s, n_leaves, &p, true), CZ_OK);
  for (int wrong = 0; wrong < 2; wrong++) {
    cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
    cz_anum root;
    cz_fr r = t.root;
    if (wrong) cz_fr_add(&r, &r, &CZ_FR_ONE);
    CZ_PUSH_NS(cs, "root");
    CHECK(cz_anum_alloc(cs, &root, &r) == CZ_OK);
    CZ_POP_NS(cs);
    CHECK_EQ_INT(cz_por_circuit_var_root(cs, s, n_leaves, &p, &root, true), CZ_OK);
    if (want_constraints) CHECK_EQ_INT(cz_cs_num_constraints(cs), want_constraints);
    CHECK_EQ_INT(cz_cs_num_constraints(cs), cz_cs_num_constraints(ref));
    CHECK_EQ_INT(cz_cs_num_inputs(cs), 2);
    CHECK_EQ_INT(cz_cs_num_aux(cs), cz_cs_num_aux(ref)); /* the root allocated outside instead */
    /* The leaf is the first aux after the caller's root, in "value". */
    cz_fr v;
    CHECK(cz_cs_value(cs, cz_var_aux(1), &v) && cz_fr_eq(&v, &p.leaf));
    bool same_names = true;
    for (size_t i = 0; i < cz_cs_num_constraints(cs); i++)
      same_names &= strcmp(cz_cs_constraint_name(cs, i), cz_cs_constraint_name(ref, i)) == 0;
    CHECK(same_names);
    if (!wrong) CHECK(cz_cs_is_satisfied(cs));
    const char *bad = cz_cs_which_is_unsatisfied(cs, NULL);
    if (wrong) CHECK(bad && strcmp(bad, "enforce root is correct") == 0);
    CHECK_EQ_INT(cz_por_circuit_var_root(cs, s, n_leaves, &p, NULL, true), CZ_ERR_INVALID_ARG);
    cz_cs_free(cs);
  }
  cz_cs_free(ref);
  cz_merkle_tree_free(&t);
}

int main(void) {
  test_por_var_root(&(cz_merkle_shape){CZ_MERKLE_POSEIDON, 8, 0, 0}, 64, 37, 1062);
  test_por_var_root(&(cz_merkle_shape){CZ_MERKLE_POSEIDON, 8, 4, 2}, 512, 301, 0);
  test_por_allocated(&(cz_merkle_shape){CZ_MERKLE_POSEIDON, 8, 4, 2}, 512, 301);
  test_por_allocated(&(cz_merkle_shape){CZ_MERKLE_SHA256, 2, 0, 0}, 8, 5);
  test_hash_circuits();
  test_backends((cz_merkle_shape){CZ_MERKLE_POSEIDON, 8, 8, 2}, 1024, 777);
  test_backends((cz_merkle_shape){CZ_MERKLE_POSEIDON, 2, 0, 0}, 64, 45);
  test_insert();
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) test_por_case(&cases[i]);
  test_no_challenge_input((cz_merkle_shape){CZ_MERKLE_POSEIDON, 8, 0, 0}, 64);
  test_no_challenge_input((cz_merkle_shape){CZ_MERKLE_POSEIDON, 8, 8, 0}, 64);
  test_no_challenge_input((cz_merkle_shape){CZ_MERKLE_POSEIDON, 8, 4, 0}, 256);
  test_no_challenge_input((cz_merkle_shape){CZ_MERKLE_POSEIDON, 8, 4, 2}, 512);
  test_no_challenge_input((cz_merkle_shape){CZ_MERKLE_POSEIDON, 8, 8, 2}, 1024);
  return check_report("por");
}
