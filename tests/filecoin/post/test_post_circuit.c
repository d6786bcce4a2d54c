/* The fallback PoSt circuit against the counts rust-fil-proofs asserts,
 * satisfied by real trees and broken by a wrong sibling or comm_r, its
 * public inputs against the TEST and PROVE assignments, and the witness
 * checks.
 *
 * Counts: storage-proofs-post/tests/fallback_circuit.rs (rust-fil-proofs
 * master, 87348a74) on TestConstraintSystem (no trailing input
 * constraints), 5 challenges per sector, ApiVersion 1.1.0, leaves = 64 *
 * get_base_tree_count::<Tree>():
 *   single_partition_base_8     (U8, U0, U0), 3 sectors: 19 inputs, 16_869
 *   two_partitions_base_8       (U8, U0, U0), 2 sectors: 13 inputs, 11_246
 *   single_partition_sub_8_4    (U8, U4, U0), 3 sectors: 19 inputs, 22_674
 *   single_partition_top_8_4_2  (U8, U4, U2), 3 sectors: 19 inputs, 27_384
 *   base_8_bench_cs (BenchCS, 32 GiB DiskTree 8-0-0, 5 sectors, 10
 *   challenges): 266_665 constraints.
 * filecoin-proofs constants.rs WINDOW_POST_SECTOR_COUNT: 2349 sectors of
 * 32 GiB "gives 125,279,217 constraints", 2300 of 64 GiB "129,887,900"
 * (53_333 and 56_473 per sector). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/groth16.h"
#include "cuzk/porep.h"
#include "cuzk/post.h"
#include "cuzk/post_circuit.h"
#include "rand_field.h"

#define N_CH 5
#define WP_VK "tests/vectors/winningpost-2kib/winning-post-2kib.vk"

/* A partition's witness over real trees: sector s has its own tree R_last
 * over random leaves, a random comm_c and comm_r = H(comm_c, comm_r_last). */
typedef struct {
  cz_merkle_shape tree;
  size_t leaves, n_sectors, n_challenges;
  cz_post_slot *sectors;
  cz_merkle_proof *proofs; /* n_sectors * n_challenges */
} witness;

static void witness_make(witness *w, cz_merkle_shape tree, size_t leaves, size_t n_sectors,
                         size_t n_challenges) {
  w->tree = tree;
  w->leaves = leaves;
  w->n_sectors = n_sectors;
  w->n_challenges = n_challenges;
  w->sectors = calloc(n_sectors, sizeof *w->sectors);
  w->proofs = calloc(n_sectors * n_challenges, sizeof *w->proofs);
  cz_fr *data = malloc(leaves * sizeof *data);
  CHECK(w->sectors && w->proofs && data);
  for (size_t s = 0; s < n_sectors; s++) {
    for (size_t i = 0; i < leaves; i++) data[i] = check_rand_fr();
    cz_merkle_tree t;
    CHECK_EQ_INT(cz_merkle_tree_build(&t, &tree, data, leaves), CZ_OK);
    cz_post_slot *sec = &w->sectors[s];
    sec->comm_r_last = t.root;
    sec->comm_c = check_rand_fr();
    cz_fr kids[2] = {sec->comm_c, sec->comm_r_last};
    CHECK_EQ_INT(cz_merkle_hash_node(CZ_MERKLE_POSEIDON, 2, kids, &sec->comm_r), CZ_OK);
    sec->proofs = &w->proofs[s * n_challenges];
    for (size_t c = 0; c < n_challenges; c++)
      CHECK_EQ_INT(cz_merkle_prove(&t, (size_t)(check_rand64() % leaves),
                                   &w->proofs[s * n_challenges + c]),
                   CZ_OK);
    cz_merkle_tree_free(&t);
  }
  free(data);
}

static void witness_free(witness *w) {
  free(w->sectors);
  free(w->proofs);
}

static cz_err run(cz_cs *cs, const witness *w, bool with_values) {
  return cz_post_circuit(cs, &w->tree, w->leaves, w->n_sectors, w->n_challenges,
                         with_values ? w->sectors : NULL);
}

/* Inputs 1.. of a TEST or PROVE system (or assignment) equal
 * cz_post_circuit_inputs. */
static bool inputs_match(const witness *w, const cz_fr *got, size_t n_got) {
  size_t n = cz_post_circuit_input_count(w->n_sectors, w->n_challenges);
  cz_fr *want = malloc(n * sizeof *want);
  char msg[160];
  bool ok = want && cz_post_circuit_inputs(&(cz_post_dims){&w->tree, w->leaves, w->n_sectors,
                                                           w->n_challenges},
                                           w->sectors, want, &n, msg, sizeof msg) == CZ_OK;
  ok = ok && n_got == n + 1 && cz_fr_eq(&got[0], &CZ_FR_ONE);
  for (size_t i = 0; ok && i < n; i++) ok = cz_fr_eq(&got[i + 1], &want[i]);
  free(want);
  return ok;
}

static bool cs_inputs_match(const witness *w, const cz_cs *cs) {
  size_t n = cz_cs_num_inputs(cs);
  cz_fr *v = malloc(n * sizeof *v);
  bool ok = v != NULL;
  for (size_t i = 0; ok && i < n; i++) ok = cz_cs_value(cs, cz_var_input((uint32_t)i), &v[i]);
  ok = ok && inputs_match(w, v, n);
  free(v);
  return ok;
}

typedef struct {
  const char *test;
  cz_merkle_shape tree;
  size_t leaves, n_sectors, inputs, constraints;
} rust_case;

#define P8(sub, top) \
  { CZ_MERKLE_POSEIDON, 8, (sub), (top) }
static const rust_case rust_cases[] = {
    {"single_partition_base_8", P8(0, 0), 64, 3, 19, 16869},
    {"two_partitions_base_8", P8(0, 0), 64, 2, 13, 11246},
    {"single_partition_sub_8_4", P8(4, 0), 256, 3, 19, 22674},
    {"single_partition_top_8_4_2", P8(4, 2), 512, 3, 19, 27384},
};

/* TEST on an honest witness: satisfied, rust-fil-proofs' counts, the
 * public inputs; COUNT and KEYGEN (no witness) give the same shape. */
static void test_rust_case(const rust_case *rc) {
  witness w;
  witness_make(&w, rc->tree, rc->leaves, rc->n_sectors, N_CH);
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  CHECK_EQ_INT(run(cs, &w, true), CZ_OK);
  CHECK(cz_cs_is_satisfied(cs));
  CHECK_EQ_INT(cz_cs_num_inputs(cs), rc->inputs);
  CHECK_EQ_INT(cz_cs_num_constraints(cs), rc->constraints);
  CHECK(cs_inputs_match(&w, cs));
  printf("fallback_circuit %s: %zu inputs, %zu constraints, %zu aux (rust-fil-proofs: %zu, %zu)\n",
         rc->test, cz_cs_num_inputs(cs), cz_cs_num_constraints(cs), cz_cs_num_aux(cs), rc->inputs,
         rc->constraints);
  size_t aux = cz_cs_num_aux(cs);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  cz_cs_free(cs);

  cz_cs *cnt = cz_cs_new(CZ_CS_COUNT, NULL), *kg = cz_cs_new(CZ_CS_KEYGEN, NULL);
  CHECK_EQ_INT(run(cnt, &w, false), CZ_OK);
  CHECK_EQ_INT(run(kg, &w, false), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(cnt), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(kg), CZ_OK);
  CHECK_EQ_INT(cz_cs_num_constraints(cnt), rc->constraints);
  CHECK_EQ_INT(cz_cs_num_inputs(cnt), rc->inputs);
  CHECK_EQ_INT(cz_cs_num_aux(cnt), aux);
  CHECK_EQ_INT(cz_cs_num_constraints(kg), rc->constraints + rc->inputs);
  CHECK_EQ_INT(cz_cs_num_aux(kg), aux);
  cz_cs_free(cnt);
  cz_cs_free(kg);
  witness_free(&w);
}

/* The first broken constraint names the fault: a wrong sibling breaks the
 * root check of that challenge's inclusion, a wrong comm_r (witness and
 * input alike) the comm_r hash check, a public comm_r that differs from
 * the private one the inputize. */
static void test_broken(void) {
  witness w;
  witness_make(&w, (cz_merkle_shape)P8(0, 0), 64, 3, N_CH);
  cz_merkle_proof *p = &w.proofs[1 * N_CH + 2];
  cz_fr keep = p->siblings[1][3];
  cz_fr_add(&p->siblings[1][3], &keep, &CZ_FR_ONE);
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  CHECK_EQ_INT(run(cs, &w, true), CZ_OK);
  const char *bad = cz_cs_which_is_unsatisfied(cs, NULL);
  CHECK(bad &&
        !strcmp(bad, "outer namespace/sector_1/challenge_inclusion_2/enforce root is correct"));
  cz_cs_free(cs);
  p->siblings[1][3] = keep;

  cz_fr r = w.sectors[2].comm_r;
  cz_fr_add(&w.sectors[2].comm_r, &r, &CZ_FR_ONE);
  cs = cz_cs_new(CZ_CS_TEST, NULL);
  CHECK_EQ_INT(run(cs, &w, true), CZ_OK);
  bad = cz_cs_which_is_unsatisfied(cs, NULL);
  CHECK(bad && !strcmp(bad, "outer namespace/sector_2/enforce_comm_c_comm_r_last_hash_comm_r"));
  cz_cs_free(cs);
  w.sectors[2].comm_r = r;

  /* Input 1 + 6 * 2 is sector 2's comm_r. */
  cs = cz_cs_new(CZ_CS_TEST, NULL);
  CHECK_EQ_INT(run(cs, &w, true), CZ_OK);
  CHECK(cz_cs_is_satisfied(cs));
  cz_fr v;
  CHECK(cz_cs_value(cs, cz_var_input(1 + (1 + N_CH) * 2), &v) && cz_fr_eq(&v, &r));
  cz_fr_add(&v, &v, &CZ_FR_ONE);
  CHECK(cz_cs_set_value(cs, cz_var_input(1 + (1 + N_CH) * 2), &v));
  bad = cz_cs_which_is_unsatisfied(cs, NULL);
  CHECK(bad && !strcmp(bad, "outer namespace/sector_2/comm_r_input/enforce input is correct"));
  cz_cs_free(cs);

  /* A wrong comm_r_last breaks the comm_r hash first (it is hashed before
   * any inclusion uses it). */
  cz_fr_add(&w.sectors[0].comm_r_last, &w.sectors[0].comm_r_last, &CZ_FR_ONE);
  cs = cz_cs_new(CZ_CS_TEST, NULL);
  CHECK_EQ_INT(run(cs, &w, true), CZ_OK);
  bad = cz_cs_which_is_unsatisfied(cs, NULL);
  CHECK(bad && !strcmp(bad, "outer namespace/sector_0/enforce_comm_c_comm_r_last_hash_comm_r"));
  cz_cs_free(cs);
  witness_free(&w);
}

/* PROVE: its assignment's inputs are the public inputs, and it holds the
 * trailing input constraints. */
static void test_prove_inputs(void) {
  witness w;
  witness_make(&w, (cz_merkle_shape)P8(4, 0), 256, 2, N_CH);
  cz_cs *cs = cz_cs_new(CZ_CS_PROVE, NULL);
  CHECK_EQ_INT(run(cs, &w, true), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  cz_assignment as;
  CHECK_EQ_INT(cz_cs_take_assignment(cs, &as), CZ_OK);
  CHECK(inputs_match(&w, as.inputs, as.n_inputs));
  /* 22_674 / 3 per sector (fallback_circuit.rs sub_8_4), 13 inputs. */
  CHECK_EQ_INT(as.n_constraints, 2 * 22674 / 3 + 13);
  cz_assignment_free(&as);
  cz_cs_free(cs);
  witness_free(&w);
}

/* The real partition sizes, counted: BenchCS's 266_665 for 5 sectors of
 * the 32 GiB DiskTree 8-0-0 (10 levels, as 8-8-0), and the per-sector
 * share of constants.rs' totals for 8-8-0 and 8-8-2 (3 sectors each, the
 * whole partitions are measured by cuzk-bench post-count). */
static void test_big_counts(void) {
  static const struct {
    cz_merkle_shape tree;
    size_t leaves, n_sectors, constraints;
  } cases[] = {
      {P8(0, 0), (size_t)1 << 30, 5, 266665},
      {P8(8, 0), (size_t)1 << 30, 3, 3 * (125279217 / 2349)},
      {P8(8, 2), (size_t)1 << 31, 3, 3 * (129887900 / 2300)},
  };
  CHECK_EQ_INT(125279217 % 2349, 0);
  CHECK_EQ_INT(129887900 % 2300, 0);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cz_cs *cs = cz_cs_new(CZ_CS_COUNT, NULL);
    CHECK_EQ_INT(cz_post_circuit(cs, &cases[i].tree, cases[i].leaves, cases[i].n_sectors, 10, NULL),
                 CZ_OK);
    CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
    CHECK_EQ_INT(cz_cs_num_constraints(cs), cases[i].constraints);
    CHECK_EQ_INT(cz_cs_num_inputs(cs), 1 + cases[i].n_sectors * 11);
    cz_cs_free(cs);
  }
}

/* WinningPoSt 2 KiB: 66 slots of 1 challenge over 64 leaves, as many
 * inputs with ONE as the official v28 WinningPoSt 2 KiB verifying key has
 * IC points (133, tests/vectors/winningpost-2kib), on a real witness. */
static void test_winning(void) {
  const cz_registered_post *k = cz_registered_post_by_id(0); /* StackedDrgWinning2KiBV1 */
  CHECK_EQ_INT(k->sector_count, 66);
  CHECK_EQ_INT(k->challenge_count, 1);
  CHECK_EQ_INT(k->sector_size / 32, 64);
  witness w;
  witness_make(&w, k->tree_r, (size_t)(k->sector_size / 32), k->sector_count, k->challenge_count);
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  CHECK_EQ_INT(run(cs, &w, true), CZ_OK);
  CHECK(cz_cs_is_satisfied(cs));
  CHECK_EQ_INT(cz_cs_num_inputs(cs), 133);
  cz_groth16_vk vk;
  CHECK_EQ_INT(cz_groth16_vk_load(&vk, WP_VK, false), CZ_OK);
  CHECK_EQ_INT(cz_cs_num_inputs(cs), vk.n_ic);
  cz_groth16_vk_free(&vk);
  CHECK(cs_inputs_match(&w, cs));
  /* One slot: 16_869 / 3 less 4 PoRs of 1_062 (por_circuit.rs). */
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 66 * (16869 / 3 - 4 * 1062));
  cz_cs_free(cs);
  witness_free(&w);
}

/* The registered configurations; tree shapes as the seal proofs' tree R
 * (cz_registered_porep, a consistency check between the two tables). */
static void test_configs(void) {
  static const uint64_t sizes[] = {2048, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};
  static const size_t window_sectors[] = {2, 2, 2, 2349, 2300};
  for (size_t i = 0; i < 5; i++) {
    const cz_registered_post *c = cz_registered_post_by_id((uint32_t)(5 + i)); /* Window V1 */
    CHECK_EQ_INT(c->sector_size, sizes[i]);
    CHECK_EQ_INT(c->sector_count, window_sectors[i]);
    CHECK_EQ_INT(c->challenge_count, 10);
    const cz_registered_porep *k = cz_registered_porep_by_sector_size(sizes[i], true);
    CHECK(k && !memcmp(&k->shape.tree_r, &c->tree_r, sizeof c->tree_r));
    CHECK(cz_merkle_shape_ok(&c->tree_r, (size_t)(sizes[i] / 32)));
  }
}

static bool msg_has(const char *msg, const char *part) { return strstr(msg, part) != NULL; }

/* Witnesses the circuit must refuse, with the field named. */
static void test_checks(void) {
  witness w;
  witness_make(&w, (cz_merkle_shape)P8(0, 0), 64, 2, 2);
  char msg[200];
  CHECK_EQ_INT(cz_post_check_sectors(&w.tree, 64, 2, 2, w.sectors, msg, sizeof msg), CZ_OK);
  cz_merkle_proof *p = &w.proofs[3], keep = *p;
  p->challenge ^= 1; /* the path leads elsewhere */
  CHECK_EQ_INT(cz_post_check_sectors(&w.tree, 64, 2, 2, w.sectors, msg, sizeof msg),
               CZ_ERR_INVALID_ARG);
  CHECK(msg_has(msg, "sectors[1].proofs[1].index"));
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  CHECK_EQ_INT(cz_post_circuit(cs, &w.tree, 64, 2, 2, w.sectors), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_cs_num_aux(cs), 0); /* untouched */
  CHECK_EQ_INT(cz_cs_error(cs), CZ_OK);
  cz_cs_free(cs);
  *p = keep;
  p->challenge = 64;
  CHECK_EQ_INT(cz_post_check_sectors(&w.tree, 64, 2, 2, w.sectors, msg, sizeof msg),
               CZ_ERR_INVALID_ARG);
  CHECK(msg_has(msg, "sectors[1].proofs[1].challenge: 64"));
  *p = keep;
  p->n_levels = 3;
  CHECK_EQ_INT(cz_post_check_sectors(&w.tree, 64, 2, 2, w.sectors, msg, sizeof msg),
               CZ_ERR_INVALID_ARG);
  CHECK(msg_has(msg, "sectors[1].proofs[1].n_levels"));
  *p = keep;
  p->shape.hasher = CZ_MERKLE_SHA256;
  CHECK_EQ_INT(cz_post_check_sectors(&w.tree, 64, 2, 2, w.sectors, msg, sizeof msg),
               CZ_ERR_INVALID_ARG);
  CHECK(msg_has(msg, "sectors[1].proofs[1].shape"));
  *p = keep;
  w.sectors[0].proofs = NULL;
  CHECK_EQ_INT(cz_post_check_sectors(&w.tree, 64, 2, 2, w.sectors, msg, sizeof msg),
               CZ_ERR_INVALID_ARG);
  CHECK(msg_has(msg, "sectors[0].proofs"));
  w.sectors[0].proofs = w.proofs;
  CHECK_EQ_INT(cz_post_check_sectors(&w.tree, 63, 2, 2, w.sectors, msg, sizeof msg),
               CZ_ERR_INVALID_ARG);
  CHECK(msg_has(msg, "tree"));
  CHECK_EQ_INT(cz_post_check_sectors(&w.tree, 64, 0, 2, w.sectors, msg, sizeof msg),
               CZ_ERR_INVALID_ARG);
  /* Values needed but none given; none needed and none given is fine. */
  cs = cz_cs_new(CZ_CS_PROVE, NULL);
  CHECK_EQ_INT(cz_post_circuit(cs, &w.tree, 64, 2, 2, NULL), CZ_ERR_INVALID_ARG);
  cz_cs_free(cs);
  CHECK_EQ_INT(cz_post_circuit(NULL, &w.tree, 64, 2, 2, w.sectors), CZ_ERR_INVALID_ARG);
  /* Public inputs: too little room tells the count needed. */
  cz_fr out[6];
  size_t n = 5;
  CHECK_EQ_INT(cz_post_circuit_inputs(&(cz_post_dims){&w.tree, 64, 2, 2}, w.sectors, out, &n, msg,
                                      sizeof msg),
               CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(n, 6);
  CHECK(msg_has(msg, "out"));
  CHECK_EQ_INT(cz_post_circuit_inputs(&(cz_post_dims){&w.tree, 64, 2, 2}, w.sectors, out, &n, msg,
                                      sizeof msg),
               CZ_OK);
  CHECK_EQ_INT(n, 6);
  cz_fr ch;
  cz_fr_from_u64(&ch, w.proofs[3].challenge);
  CHECK(cz_fr_eq(&out[3], &w.sectors[1].comm_r) && cz_fr_eq(&out[5], &ch));
  CHECK_EQ_INT(cz_post_circuit_input_count(2349, 10), 2349 * 11);
  CHECK_EQ_INT(cz_post_circuit_input_count(SIZE_MAX, 1), 0);
  witness_free(&w);
}

static bool dens_eq(const cz_density *a, const cz_density *b) {
  if (a->n != b->n || a->count != b->count) return false;
  return a->n == 0 || memcmp(a->bits, b->bits, (a->n + 63) / 64 * sizeof(uint64_t)) == 0;
}

/* a/b/c and the densities of two PROVE assignments. */
static bool prove_rows_eq(const cz_assignment *x, const cz_assignment *y) {
  size_t k = y->n_constraints;
  if (x->n_constraints != k || !x->a || !x->b || x->c || y->c) return false;
  return !memcmp(x->a, y->a, k * sizeof(cz_fr)) && !memcmp(x->b, y->b, k * sizeof(cz_fr)) &&
         dens_eq(&x->a_aux, &y->a_aux) && dens_eq(&x->b_input, &y->b_input) &&
         dens_eq(&x->b_aux, &y->b_aux);
}

static void take_serial(cz_cs_mode mode, witness *w, cz_assignment *out) {
  cz_cs *cs = cz_cs_new(mode, NULL);
  CHECK_EQ_INT(run(cs, w, true), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_take_assignment(cs, out), CZ_OK);
  cz_cs_free(cs);
}

/* cz_post_witness equals a serial run of the same mode for every thread
 * budget (chunks of unequal sizes, several chunks per worker, chunk edges
 * inside density words): WITNESS, and PROVE with its a/b/c rows and
 * densities; WITNESS completed by the recorded shape equals PROVE too. A
 * consistency check between our own backends, not a count from
 * rust-fil-proofs. */
static void test_parallel_witness(cz_merkle_shape tree, size_t leaves, size_t n_sectors,
                                  size_t n_ch, bool with_pce) {
  witness w;
  witness_make(&w, tree, leaves, n_sectors, n_ch);
  cz_assignment ser, want;
  take_serial(CZ_CS_WITNESS, &w, &ser);
  take_serial(CZ_CS_PROVE, &w, &want);
  static const unsigned budgets[] = {1, 2, 3, 0};
  char msg[160];
  for (size_t b = 0; b < 4; b++) {
    cz_assignment par, pp;
    CHECK_EQ_INT(cz_post_witness(&(cz_post_dims){&w.tree, leaves, n_sectors, n_ch}, w.sectors,
                                 CZ_CS_PROVE, budgets[b], &pp, msg, sizeof msg),
                 CZ_OK);
    CHECK_EQ_INT(pp.n_inputs, want.n_inputs);
    CHECK_EQ_INT(pp.n_aux, want.n_aux);
    if (pp.n_inputs == want.n_inputs && pp.n_aux == want.n_aux) {
      CHECK(!memcmp(pp.inputs, want.inputs, want.n_inputs * sizeof(cz_fr)));
      CHECK(cz_fr_packed_eq(&pp.aux, &want.aux));
    }
    CHECK(prove_rows_eq(&pp, &want));
    cz_assignment_free(&pp);
    CHECK_EQ_INT(cz_post_witness(&(cz_post_dims){&w.tree, leaves, n_sectors, n_ch}, w.sectors,
                                 CZ_CS_WITNESS, budgets[b], &par, msg, sizeof msg),
                 CZ_OK);
    CHECK_EQ_INT(par.n_inputs, ser.n_inputs);
    CHECK_EQ_INT(par.n_aux, ser.n_aux);
    CHECK_EQ_INT(par.n_constraints, ser.n_constraints);
    if (par.n_inputs == ser.n_inputs && par.n_aux == ser.n_aux) {
      CHECK(!memcmp(par.inputs, ser.inputs, ser.n_inputs * sizeof(cz_fr)));
      CHECK(cz_fr_packed_eq(&par.aux, &ser.aux));
    }
    CHECK(par.a == NULL && par.b == NULL && par.c == NULL);
    if (with_pce && budgets[b] == 2) {
      cz_cs *rec = cz_cs_new(CZ_CS_RECORD, NULL);
      cz_pce *pce = NULL;
      CHECK_EQ_INT(run(rec, &w, false), CZ_OK);
      CHECK_EQ_INT(cz_cs_finish(rec), CZ_OK);
      CHECK_EQ_INT(cz_cs_take_pce(rec, &pce), CZ_OK);
      CHECK_EQ_INT(cz_pce_eval(pce, &par, 2), CZ_OK);
      CHECK(prove_rows_eq(&par, &want));
      cz_pce_free(pce);
      cz_cs_free(rec);
    }
    cz_assignment_free(&par);
  }
  /* A rejected witness: the message, and *out zeroed. */
  cz_assignment par;
  w.proofs[0].challenge = leaves;
  CHECK_EQ_INT(cz_post_witness(&(cz_post_dims){&w.tree, leaves, n_sectors, n_ch}, w.sectors,
                               CZ_CS_PROVE, 2, &par, msg, sizeof msg),
               CZ_ERR_INVALID_ARG);
  CHECK(msg_has(msg, "sectors[0].proofs[0].challenge"));
  CHECK(par.inputs == NULL && par.aux.one == NULL && par.n_aux == 0);
  cz_assignment_free(&ser);
  cz_assignment_free(&want);
  witness_free(&w);
}

int main(void) {
  for (size_t i = 0; i < sizeof rust_cases / sizeof rust_cases[0]; i++)
    test_rust_case(&rust_cases[i]);
  test_broken();
  test_prove_inputs();
  test_big_counts();
  test_winning();
  test_configs();
  test_checks();
  test_parallel_witness((cz_merkle_shape)P8(4, 2), 512, 7, 3, true);
  test_parallel_witness((cz_merkle_shape)P8(0, 0), 64, 40, 1, false);
  return check_report("post_circuit");
}
