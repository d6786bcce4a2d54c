/* Groth16 setup, prover, batch verifier and parameter files.
 *
 * The strongest check is the known-answer one: with injected r and s, the
 * proof must equal A, B, C computed directly as scalars from the toxic
 * waste, with the Lagrange basis evaluated by its closed form
 * L_j(tau) = Z(tau) omega^j / (n (tau - omega^j)) (no NTT, no MSM, no
 * fixed-base tables), times the generators. */
#include <unistd.h>
#include "check.h"
#include "cuzk/ntt.h"
#include "cuzk/params.h"
#include "cuzk/groth16_prove.h"
#include "cuzk/synthetic.h"

static const cz_prove_timing QUIET = {NULL, NULL, true};

static void rand_fr(cz_fr *x) {
  uint8_t w[64];
  check_rand_bytes(w, sizeof w);
  cz_fr_from_wide_le(x, w);
}

static void toxic(cz_groth16_toxic *t) {
  rand_fr(&t->tau);
  rand_fr(&t->alpha);
  rand_fr(&t->beta);
  rand_fr(&t->gamma);
  rand_fr(&t->delta);
}

/* ---- circuits ------------------------------------------------------------ */

/* x^3 + x + 5 = out, out public (the classic example circuit). */
static void cubic(cz_cs *cs, uint64_t xv, uint64_t outv) {
  cz_fr x, x2, x3, s, o, five;
  cz_fr_from_u64(&x, xv);
  cz_fr_sqr(&x2, &x);
  cz_fr_mul(&x3, &x2, &x);
  cz_fr_add(&s, &x3, &x);
  cz_fr_from_u64(&o, outv);
  cz_fr_from_u64(&five, 5);
  cz_var vx, vx2, vx3, vs, vo;
  CHECK(cz_cs_alloc_input(cs, &vo, &o) == CZ_OK);
  CHECK(cz_cs_alloc(cs, &vx, &x) == CZ_OK);
  CHECK(cz_cs_alloc(cs, &vx2, &x2) == CZ_OK);
  CHECK(cz_cs_alloc(cs, &vx3, &x3) == CZ_OK);
  CHECK(cz_cs_alloc(cs, &vs, &s) == CZ_OK);
  cz_lc a, b, c;
  cz_lc_init(&a, cs);
  cz_lc_init(&b, cs);
  cz_lc_init(&c, cs);
  cz_lc_add(&a, vx);
  cz_lc_add(&b, vx);
  cz_lc_add(&c, vx2);
  cz_cs_enforce(cs, &a, &b, &c);
  cz_lc_clear(&a);
  cz_lc_clear(&b);
  cz_lc_clear(&c);
  cz_lc_add(&a, vx2);
  cz_lc_add(&b, vx);
  cz_lc_add(&c, vx3);
  cz_cs_enforce(cs, &a, &b, &c);
  cz_lc_clear(&a);
  cz_lc_clear(&b);
  cz_lc_clear(&c);
  cz_lc_add(&a, vx3);
  cz_lc_add(&a, vx);
  cz_lc_add(&b, CZ_VAR_ONE);
  cz_lc_add(&c, vs);
  cz_cs_enforce(cs, &a, &b, &c);
  cz_lc_clear(&a);
  cz_lc_clear(&b);
  cz_lc_clear(&c);
  cz_lc_add(&a, vs);
  cz_lc_add_const(&a, &five);
  cz_lc_add(&b, CZ_VAR_ONE);
  cz_lc_add(&c, vo);
  cz_cs_enforce(cs, &a, &b, &c);
  cz_lc_free(&a);
  cz_lc_free(&b);
  cz_lc_free(&c);
}

typedef enum { C_CUBIC, C_CHAIN, C_SPARSE } circ;
typedef struct {
  circ kind;
  size_t n;     /* chain/sparse length */
  uint64_t x;   /* cubic: x; chain/sparse: the input */
  uint64_t out; /* cubic: the public output */
} circ_spec;

static cz_cs *synth(cz_cs_mode mode, const circ_spec *c) {
  cz_cs *cs = cz_cs_new(mode, NULL);
  cz_fr x;
  cz_fr_from_u64(&x, c->x);
  if (c->kind == C_CUBIC) cubic(cs, c->x, c->out);
  else if (c->kind == C_CHAIN) CHECK_EQ_INT(cz_synthetic_chain(cs, c->n, &x), CZ_OK);
  else CHECK_EQ_INT(cz_synthetic_sparse(cs, c->n, &x, 42), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  return cs;
}

static void keygen(cz_keygen_cols *k, const circ_spec *c) {
  cz_cs *cs = synth(CZ_CS_KEYGEN, c);
  CHECK_EQ_INT(cz_cs_take_keygen(cs, k), CZ_OK);
  cz_cs_free(cs);
}

static void assign(cz_assignment *as, const circ_spec *c) {
  cz_cs *cs = synth(CZ_CS_PROVE, c);
  CHECK_EQ_INT(cz_cs_take_assignment(cs, as), CZ_OK);
  cz_cs_free(cs);
}

static bool setup(cz_groth16_params *p, cz_groth16_toxic *t, const circ_spec *c) {
  cz_keygen_cols k;
  keygen(&k, c);
  toxic(t);
  char msg[256];
  cz_err e = cz_groth16_setup(p, &k, t, 2, msg, sizeof msg);
  if (e != CZ_OK) fprintf(stderr, "setup: %s\n", msg);
  CHECK_EQ_INT(e, CZ_OK);
  cz_keygen_cols_free(&k);
  return e == CZ_OK;
}

static cz_err prove(const cz_groth16_params *p, const circ_spec *c, const cz_fr *r, const cz_fr *s,
                    cz_groth16_proof *proof, cz_fr *inputs_out) {
  cz_assignment as;
  assign(&as, c);
  if (inputs_out)
    for (size_t i = 1; i < as.n_inputs; i++) inputs_out[i - 1] = as.inputs[i];
  cz_prove_opts o = {2, r, s, &QUIET, NULL, 0};
  cz_err e = cz_groth16_prove(NULL, p, &as, 1, proof, &o);
  cz_assignment_free(&as);
  return e;
}

/* ---- known answer ---------------------------------------------------------- */

static void g1_of(cz_g1_affine *out, const cz_fr *k) {
  cz_g1 g;
  cz_g1_from_affine(&g, &CZ_G1_GENERATOR);
  cz_g1_mul_fr(&g, &g, k);
  cz_g1_to_affine(out, &g);
}
static void g2_of(cz_g2_affine *out, const cz_fr *k) {
  cz_g2 g;
  cz_g2_from_affine(&g, &CZ_G2_GENERATOR);
  cz_g2_mul_fr(&g, &g, k);
  cz_g2_to_affine(out, &g);
}

/* sum over column col of coeff * L[row]. */
static void col_at(cz_fr *out, const cz_spmat *m, size_t col, const cz_fr *L) {
  cz_fr acc = CZ_FR_ZERO, t;
  for (uint64_t e = m->ptr[col]; e < m->ptr[col + 1]; e++) {
    cz_fr_mul(&t, &m->val[e], &L[m->idx[e]]);
    cz_fr_add(&acc, &acc, &t);
  }
  *out = acc;
}

/* The Lagrange basis L_0..L_{m-1} at tau over the smallest power-of-two
 * domain that holds m constraints, by its closed form (no NTT). */
static cz_fr *lagrange_at_tau(const cz_fr *tau, size_t m) {
  size_t n = 1;
  unsigned logn = 0;
  while (n < m) {
    n <<= 1;
    logn++;
  }
  cz_fr omega, wj = CZ_FR_ONE, zt, ninv, tmp;
  cz_fr_root_of_unity(&omega, logn);
  uint64_t ne = n;
  cz_fr_pow(&zt, tau, &ne, 1);
  cz_fr_sub(&zt, &zt, &CZ_FR_ONE);
  cz_fr_from_u64(&ninv, n);
  cz_fr_inv(&ninv, &ninv);
  cz_fr *L = malloc(m * sizeof *L);
  for (size_t j = 0; j < m; j++) {
    cz_fr_sub(&tmp, tau, &wj);
    cz_fr_inv(&tmp, &tmp);
    cz_fr_mul(&tmp, &tmp, &wj);
    cz_fr_mul(&tmp, &tmp, &zt);
    cz_fr_mul(&L[j], &tmp, &ninv);
    cz_fr_mul(&wj, &wj, &omega);
  }
  return L;
}

/* The witness-weighted QAP sums at tau that the known answer is built from. */
typedef struct {
  cz_fr aw, bw, cw; /* A_w, B_w, C_w over all variables */
  cz_fr lsum;       /* the aux part of beta u + alpha v + w */
} qap_sums;

/* Fills q from the QAP columns of k evaluated at L, weighted by the witness as. */
static void qap_sums_at(qap_sums *q, const cz_keygen_cols *k, const cz_assignment *as,
                        const cz_fr *L, const cz_groth16_toxic *t) {
  cz_fr tmp;
  q->aw = q->bw = q->cw = q->lsum = CZ_FR_ZERO;
  for (size_t i = 0; i < k->n_inputs + k->n_aux; i++) {
    cz_fr wv;
    if (i < k->n_inputs) wv = as->inputs[i];
    else cz_fr_packed_get(&as->aux, i - k->n_inputs, &wv);
    const cz_fr *w = &wv;
    cz_fr u, v, ww, e;
    col_at(&u, &k->at, i, L);
    col_at(&v, &k->bt, i, L);
    col_at(&ww, &k->ct, i, L);
    cz_fr_mul(&tmp, &u, w);
    cz_fr_add(&q->aw, &q->aw, &tmp);
    cz_fr_mul(&tmp, &v, w);
    cz_fr_add(&q->bw, &q->bw, &tmp);
    cz_fr_mul(&tmp, &ww, w);
    cz_fr_add(&q->cw, &q->cw, &tmp);
    if (i >= k->n_inputs) {
      cz_fr_mul(&e, &u, &t->beta);
      cz_fr_mul(&tmp, &v, &t->alpha);
      cz_fr_add(&e, &e, &tmp);
      cz_fr_add(&e, &e, &ww);
      cz_fr_mul(&e, &e, w);
      cz_fr_add(&q->lsum, &q->lsum, &e);
    }
  }
}

/* The proof's A, B, C as scalars, from the toxic waste, the sums and r, s. */
static void expected_abc(cz_fr *A, cz_fr *B, cz_fr *C, const qap_sums *q, const cz_groth16_toxic *t,
                         const cz_fr *r, const cz_fr *s) {
  cz_fr tmp, dinv;
  cz_fr_mul(&tmp, r, &t->delta);
  cz_fr_add(A, &t->alpha, &q->aw);
  cz_fr_add(A, A, &tmp);
  cz_fr_mul(&tmp, s, &t->delta);
  cz_fr_add(B, &t->beta, &q->bw);
  cz_fr_add(B, B, &tmp);
  /* C = (lsum + A_w B_w - C_w) / delta + s A + r B - r s delta */
  cz_fr_mul(C, &q->aw, &q->bw);
  cz_fr_sub(C, C, &q->cw);
  cz_fr_add(C, C, &q->lsum);
  cz_fr_inv(&dinv, &t->delta);
  cz_fr_mul(C, C, &dinv);
  cz_fr_mul(&tmp, s, A);
  cz_fr_add(C, C, &tmp);
  cz_fr_mul(&tmp, r, B);
  cz_fr_add(C, C, &tmp);
  cz_fr_mul(&tmp, r, s);
  cz_fr_mul(&tmp, &tmp, &t->delta);
  cz_fr_sub(C, C, &tmp);
}

/* The proof for injected r, s (zero or random) equals A, B, C computed
 * directly from the toxic waste, and the vk's alpha_g1 is alpha times G1. */
static void known_answer(const circ_spec *c, bool zero_rs) {
  cz_groth16_params p;
  cz_groth16_toxic t;
  if (!setup(&p, &t, c)) return;
  cz_keygen_cols k;
  keygen(&k, c);
  cz_assignment as;
  assign(&as, c);

  cz_fr *L = lagrange_at_tau(&t.tau, k.n_constraints);
  qap_sums q;
  qap_sums_at(&q, &k, &as, L, &t);
  cz_fr r, s;
  if (zero_rs) r = s = CZ_FR_ZERO;
  else {
    rand_fr(&r);
    rand_fr(&s);
  }
  cz_fr A, B, C;
  expected_abc(&A, &B, &C, &q, &t, &r, &s);

  cz_groth16_proof got, want;
  CHECK_EQ_INT(prove(&p, c, &r, &s, &got, NULL), CZ_OK);
  g1_of(&want.a, &A);
  g2_of(&want.b, &B);
  g1_of(&want.c, &C);
  CHECK(cz_g1_affine_eq(&got.a, &want.a));
  CHECK(cz_g2_affine_eq(&got.b, &want.b));
  CHECK(cz_g1_affine_eq(&got.c, &want.c));
  /* The vk too: alpha_g1 etc. are the toxic waste times the generators. */
  cz_g1_affine ga;
  g1_of(&ga, &t.alpha);
  CHECK(cz_g1_affine_eq(&ga, &p.vk.alpha_g1));

  free(L);
  cz_assignment_free(&as);
  cz_keygen_cols_free(&k);
  cz_groth16_params_free(&p);
}

/* ---- prove / verify -------------------------------------------------------- */

static void test_cubic(void) {
  circ_spec c = {C_CUBIC, 0, 3, 35};
  cz_groth16_params p;
  cz_groth16_toxic t;
  if (!setup(&p, &t, &c)) return;
  /* bellperson's shape: 1 + 1 inputs, 4 aux, m = 4 + 2 -> n = 8, 7 h. */
  CHECK_EQ_INT(p.vk.n_ic, 2);
  CHECK_EQ_INT(p.n_h, 7);
  CHECK_EQ_INT(p.n_l, 4);
  cz_groth16_proof pr;
  cz_fr in[1];
  CHECK_EQ_INT(prove(&p, &c, NULL, NULL, &pr, in), CZ_OK);
  CHECK_EQ_INT(cz_groth16_verify(&p.vk, in, 1, &pr), CZ_OK);
  cz_fr wrong;
  cz_fr_from_u64(&wrong, 36);
  CHECK_EQ_INT(cz_groth16_verify(&p.vk, &wrong, 1, &pr), CZ_ERR_PROOF_INVALID);

  /* Round trip through the 192-byte form, then tamper with it. */
  uint8_t bytes[CZ_GROTH16_PROOF_BYTES];
  cz_groth16_proof_write(bytes, &pr);
  cz_groth16_proof back;
  CHECK_EQ_INT(cz_groth16_proof_read(&back, bytes), CZ_OK);
  CHECK_EQ_INT(cz_groth16_verify(&p.vk, in, 1, &back), CZ_OK);
  for (size_t pos = 0; pos < CZ_GROTH16_PROOF_BYTES; pos += 7) {
    uint8_t bad[CZ_GROTH16_PROOF_BYTES];
    memcpy(bad, bytes, sizeof bad);
    bad[pos] ^= 0x04;
    cz_groth16_proof q;
    cz_err e = cz_groth16_proof_read(&q, bad);
    if (e == CZ_OK) e = cz_groth16_verify(&p.vk, in, 1, &q);
    CHECK(e != CZ_OK);
  }
  /* Swapping in a valid point: A + G1. */
  cz_groth16_proof q = pr;
  cz_g1 a;
  cz_g1_from_affine(&a, &q.a);
  cz_g1_add_affine(&a, &a, &CZ_G1_GENERATOR);
  cz_g1_to_affine(&q.a, &a);
  CHECK_EQ_INT(cz_groth16_verify(&p.vk, in, 1, &q), CZ_ERR_PROOF_INVALID);
  /* A false statement (x = 4 with out = 35) has no satisfying witness: the
   * prover still runs but the proof must not verify. */
  circ_spec lie = {C_CUBIC, 0, 4, 35};
  CHECK_EQ_INT(prove(&p, &lie, NULL, NULL, &q, in), CZ_OK);
  CHECK_EQ_INT(cz_groth16_verify(&p.vk, in, 1, &q), CZ_ERR_PROOF_INVALID);
  cz_groth16_params_free(&p);
}

static void test_shapes(void) {
  for (int kind = C_CHAIN; kind <= C_SPARSE; kind++) {
    for (unsigned logn = 2; logn <= 7; logn += 5) {
      circ_spec c = {(circ)kind, ((size_t)1 << logn) - CZ_SYNTHETIC_INPUTS, 5, 0};
      cz_groth16_params p;
      cz_groth16_toxic t;
      if (!setup(&p, &t, &c)) continue;
      CHECK_EQ_INT(p.n_h, ((size_t)1 << logn) - 1);
      cz_groth16_proof pr;
      cz_fr in[1];
      CHECK_EQ_INT(prove(&p, &c, NULL, NULL, &pr, in), CZ_OK);
      CHECK_EQ_INT(cz_groth16_verify(&p.vk, in, 1, &pr), CZ_OK);
      cz_fr_add(&in[0], &in[0], &CZ_FR_ONE);
      CHECK_EQ_INT(cz_groth16_verify(&p.vk, in, 1, &pr), CZ_ERR_PROOF_INVALID);

      /* Record + witness gives the same proof as PROVE for the same r, s. */
      cz_cs *rec = synth(CZ_CS_RECORD, &c);
      cz_r1cs shape;
      CHECK_EQ_INT(cz_cs_take_r1cs(rec, &shape), CZ_OK);
      cz_cs_free(rec);
      cz_cs *wit = synth(CZ_CS_WITNESS, &c);
      cz_assignment w;
      CHECK_EQ_INT(cz_cs_take_assignment(wit, &w), CZ_OK);
      cz_cs_free(wit);
      cz_fr r, s;
      rand_fr(&r);
      rand_fr(&s);
      cz_prove_opts o = {2, &r, &s, &QUIET, NULL, 0};
      cz_groth16_proof p1, p2;
      CHECK_EQ_INT(cz_groth16_prove_recorded(NULL, &p, &shape, &w, &p1, &o), CZ_OK);
      CHECK_EQ_INT(prove(&p, &c, &r, &s, &p2, NULL), CZ_OK);
      CHECK(cz_g1_affine_eq(&p1.a, &p2.a) && cz_g2_affine_eq(&p1.b, &p2.b) &&
            cz_g1_affine_eq(&p1.c, &p2.c));
      cz_fr_sub(&in[0], &in[0], &CZ_FR_ONE);
      CHECK_EQ_INT(cz_groth16_verify(&p.vk, in, 1, &p1), CZ_OK);
      cz_assignment_free(&w);
      cz_r1cs_free(&shape);
      cz_groth16_params_free(&p);
    }
  }
}

static void timing_count(void *ctx, cz_prove_phase ph, uint64_t ns) {
  (void)ns;
  ((int *)ctx)[ph]++;
}

static void test_misuse(void) {
  circ_spec c = {C_CHAIN, 14, 3, 0}, other = {C_CHAIN, 30, 3, 0};
  cz_groth16_params p;
  cz_groth16_toxic t;
  if (!setup(&p, &t, &c)) return;
  /* Another circuit's assignment does not fit (H size), with a message. */
  cz_assignment as;
  assign(&as, &other);
  char msg[256] = "";
  cz_groth16_proof pr;
  cz_prove_opts o = {1, NULL, NULL, &QUIET, msg, sizeof msg};
  CHECK_EQ_INT(cz_groth16_prove(NULL, &p, &as, 1, &pr, &o), CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "does not fit") != NULL);
  cz_assignment_free(&as);
  /* Only one of r, s given. */
  assign(&as, &c);
  cz_fr r = CZ_FR_ONE;
  cz_prove_opts half = {1, &r, NULL, &QUIET, NULL, 0};
  CHECK_EQ_INT(cz_groth16_prove(NULL, &p, &as, 1, &pr, &half), CZ_ERR_INVALID_ARG);
  /* The timing hook sees every prover phase once (synthesis is the
   * caller's), and a/b/c are consumed. */
  int seen[CZ_PHASE_COUNT] = {0};
  cz_prove_timing hook = {timing_count, seen, true};
  cz_prove_opts ot = {1, NULL, NULL, &hook, NULL, 0};
  CHECK_EQ_INT(cz_groth16_prove(NULL, &p, &as, 1, &pr, &ot), CZ_OK);
  /* key_wait is a mapped key's only */
  for (int ph = 0; ph < CZ_PHASE_COUNT; ph++)
    CHECK_EQ_INT(seen[ph], ph == CZ_PHASE_SYNTHESIS || ph == CZ_PHASE_KEY_WAIT ? 0 : 1);
  CHECK(as.a == NULL && as.b == NULL && as.c == NULL);
  CHECK_EQ_INT(cz_groth16_prove(NULL, &p, &as, 1, &pr, &ot), CZ_ERR_INVALID_ARG);
  CHECK(strcmp(cz_prove_phase_name(CZ_PHASE_TAIL_MSM), "tail_msm") == 0);
  cz_assignment_free(&as);
  cz_groth16_params_free(&p);

  /* Setup refuses tau in the domain, zero delta, unconstrained aux. */
  cz_keygen_cols k;
  keygen(&k, &c);
  toxic(&t);
  t.tau = CZ_FR_ONE;
  CHECK_EQ_INT(cz_groth16_setup(&p, &k, &t, 1, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "domain") != NULL);
  toxic(&t);
  t.delta = CZ_FR_ZERO;
  CHECK_EQ_INT(cz_groth16_setup(&p, &k, &t, 1, NULL, 0), CZ_ERR_INVALID_ARG);
  cz_keygen_cols_free(&k);
  cz_cs *cs = cz_cs_new(CZ_CS_KEYGEN, NULL);
  cz_fr x = CZ_FR_ONE;
  CHECK_EQ_INT(cz_synthetic_chain(cs, 4, &x), CZ_OK);
  cz_var lone;
  CHECK_EQ_INT(cz_cs_alloc(cs, &lone, NULL), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_take_keygen(cs, &k), CZ_OK);
  cz_cs_free(cs);
  toxic(&t);
  CHECK_EQ_INT(cz_groth16_setup(&p, &k, &t, 1, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "unconstrained") != NULL);
  cz_keygen_cols_free(&k);
}

static void test_batch(void) {
  enum { N = 8 };
  circ_spec c = {C_CHAIN, 30, 0, 0};
  cz_groth16_params p;
  cz_groth16_toxic t;
  if (!setup(&p, &t, &c)) return;
  cz_groth16_proof pr[N];
  cz_fr in[N];
  for (int j = 0; j < N; j++) {
    c.x = 100 + (uint64_t)j;
    CHECK_EQ_INT(prove(&p, &c, NULL, NULL, &pr[j], &in[j]), CZ_OK);
  }
  CHECK_EQ_INT(cz_groth16_verify_batch(&p.vk, in, 1, pr, N), CZ_OK);
  CHECK_EQ_INT(cz_groth16_verify_batch(&p.vk, in, 1, pr, 1), CZ_OK);
  CHECK_EQ_INT(cz_groth16_verify_batch(&p.vk, in, 1, pr, 0), CZ_OK);
  CHECK_EQ_INT(cz_groth16_verify_batch(&p.vk, in, 2, pr, N), CZ_ERR_INVALID_ARG);
  /* One wrong input among many, at each position. */
  for (int bad = 0; bad < N; bad += 3) {
    cz_fr in2[N];
    memcpy(in2, in, sizeof in2);
    cz_fr_add(&in2[bad], &in2[bad], &CZ_FR_ONE);
    CHECK_EQ_INT(cz_groth16_verify_batch(&p.vk, in2, 1, pr, N), CZ_ERR_PROOF_INVALID);
  }
  /* Two proofs swapped: each is valid, but not for the other's input. */
  cz_groth16_proof sw[N];
  memcpy(sw, pr, sizeof sw);
  sw[2] = pr[5];
  sw[5] = pr[2];
  CHECK_EQ_INT(cz_groth16_verify_batch(&p.vk, in, 1, sw, N), CZ_ERR_PROOF_INVALID);
  /* A tampered C. */
  memcpy(sw, pr, sizeof sw);
  sw[N - 1].c = pr[0].c;
  CHECK_EQ_INT(cz_groth16_verify_batch(&p.vk, in, 1, sw, N), CZ_ERR_PROOF_INVALID);
  cz_groth16_params_free(&p);
}

/* ---- parameter files ------------------------------------------------------- */

static bool params_equal(const cz_groth16_params *a, const cz_groth16_params *b) {
  if (a->n_h != b->n_h || a->n_l != b->n_l || a->n_a != b->n_a || a->n_b_g1 != b->n_b_g1 ||
      a->n_b_g2 != b->n_b_g2 || a->vk.n_ic != b->vk.n_ic)
    return false;
  size_t nv = cz_groth16_vk_write(NULL, &a->vk, false);
  uint8_t *va = malloc(nv), *vb = malloc(nv);
  cz_groth16_vk_write(va, &a->vk, false);
  cz_groth16_vk_write(vb, &b->vk, false);
  bool ok = memcmp(va, vb, nv) == 0;
  free(va);
  free(vb);
  for (size_t i = 0; ok && i < a->n_h; i++) ok = cz_g1_affine_eq(&a->h[i], &b->h[i]);
  for (size_t i = 0; ok && i < a->n_l; i++) ok = cz_g1_affine_eq(&a->l[i], &b->l[i]);
  for (size_t i = 0; ok && i < a->n_a; i++) ok = cz_g1_affine_eq(&a->a[i], &b->a[i]);
  for (size_t i = 0; ok && i < a->n_b_g1; i++) ok = cz_g1_affine_eq(&a->b_g1[i], &b->b_g1[i]);
  for (size_t i = 0; ok && i < a->n_b_g2; i++) ok = cz_g2_affine_eq(&a->b_g2[i], &b->b_g2[i]);
  return ok;
}

static uint8_t *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *b = malloc((size_t)n);
  if (fread(b, 1, (size_t)n, f) != (size_t)n) {
    free(b);
    b = NULL;
  }
  fclose(f);
  *len = (size_t)n;
  return b;
}

static void spit(const char *path, const uint8_t *b, size_t n) {
  FILE *f = fopen(path, "wb");
  fwrite(b, 1, n, f);
  fclose(f);
}

/* An on-curve G1 point outside the order-r subgroup (the cofactor is not 1,
 * so almost every curve point is outside). */
static void non_subgroup_g1(cz_g1_affine *q) {
  cz_fp four, y2;
  cz_fp_from_u64(&four, 4);
  for (uint64_t x = 1;; x++) {
    cz_fp_from_u64(&q->x, x);
    cz_fp_sqr(&y2, &q->x);
    cz_fp_mul(&y2, &y2, &q->x);
    cz_fp_add(&y2, &y2, &four);
    if (cz_fp_sqrt(&q->y, &y2) && !cz_g1_affine_is_in_subgroup(q)) return;
  }
}

/* What the parameter-file checks share: the circuit and its parameters,
 * the saved file's path and bytes, and a second path for rewritten files. */
typedef struct {
  const circ_spec *c;
  const cz_groth16_params *p;
  char path[64], path2[64];
  uint8_t *file;
  size_t len;
} params_file;

/* cubic: the output input is not in B and several aux are in A only, so
 * the a and b vectors are filtered in their input and aux parts. */
static void files_filtered_vectors(const params_file *f) {
  cz_groth16_params p = *f->p;
  cz_assignment as;
  assign(&as, f->c);
  CHECK_EQ_INT(p.n_a, as.n_inputs + as.a_aux.count);
  CHECK_EQ_INT(p.n_b_g1, as.b_input.count + as.b_aux.count);
  CHECK(as.b_input.count < as.n_inputs);
  CHECK(as.b_aux.count < as.n_aux && as.a_aux.count == as.n_aux);
  cz_assignment_free(&as);
}

/* The saved file has the announced size, holds what params_write writes
 * and starts with the vk in cz_groth16_vk_write's layout. Fills in the
 * paths and the file's bytes; false when the file cannot be read back. */
static bool files_save(params_file *f) {
  cz_groth16_params p = *f->p;
  char *path = f->path, *path2 = f->path2;
  snprintf(path, sizeof f->path, "/tmp/cuzk-test-params-%d", (int)getpid());
  snprintf(path2, sizeof f->path2, "/tmp/cuzk-test-params-%d-b", (int)getpid());
  CHECK_EQ_INT(cz_groth16_params_save(&p, path), CZ_OK);
  size_t len;
  uint8_t *file = slurp(path, &len);
  CHECK(file != NULL);
  if (!file) return false;
  f->file = file;
  f->len = len;
  CHECK_EQ_INT(len, cz_groth16_params_file_size(&p));
  uint8_t *mem = malloc(len);
  CHECK_EQ_INT(cz_groth16_params_write(mem, &p), len);
  CHECK_MEM(mem, file, len);
  free(mem);
  /* The vk at the head is bellperson's (and cz_groth16_vk_write's) layout. */
  cz_groth16_vk vk;
  size_t used = 0;
  CHECK_EQ_INT(cz_groth16_vk_read(&vk, file, len, false, &used), CZ_OK);
  CHECK_EQ_INT(used, cz_groth16_vk_write(NULL, &p.vk, false));
  cz_groth16_vk_free(&vk);
  return true;
}

/* Loading, checked and unchecked, gives the same parameters, which save
 * to the same bytes and make proofs that verify. */
static void files_load_round_trips(const params_file *f) {
  circ_spec c = *f->c;
  cz_groth16_params p = *f->p;
  const char *path = f->path, *path2 = f->path2;
  const uint8_t *file = f->file;
  size_t len = f->len;
  char msg[256];
  for (int checked = 0; checked <= 1; checked++) {
    cz_groth16_params q;
    CHECK_EQ_INT(cz_groth16_params_load(&q, path, checked, 2, msg, sizeof msg), CZ_OK);
    CHECK(params_equal(&p, &q));
    /* Saving what was loaded gives the same bytes. */
    CHECK_EQ_INT(cz_groth16_params_save(&q, path2), CZ_OK);
    size_t len2;
    uint8_t *f2 = slurp(path2, &len2);
    CHECK(f2 && len2 == len && memcmp(f2, file, len) == 0);
    free(f2);
    /* Proofs made with loaded parameters verify. */
    cz_groth16_proof pr;
    cz_fr in[1];
    CHECK_EQ_INT(prove(&q, &c, NULL, NULL, &pr, in), CZ_OK);
    CHECK_EQ_INT(cz_groth16_verify(&q.vk, in, 1, &pr), CZ_OK);
    cz_groth16_params_free(&q);
  }
}

/* Every truncation fails cleanly, in memory; some through files; a missing
 * file is an I/O error. */
static void files_truncations(const params_file *f) {
  const char *path2 = f->path2;
  const uint8_t *file = f->file;
  size_t len = f->len;
  char msg[256];
  cz_groth16_params q;
  int bad = 0;
  for (size_t l = 0; l < len; l++) {
    uint8_t *cut = malloc(l ? l : 1); /* its own allocation, so ASan sees overreads */
    memcpy(cut, file, l);
    cz_err e = cz_groth16_params_read(&q, cut, l, l & 1, 1, msg, sizeof msg);
    if (e == CZ_OK || q.h || q.vk.ic || q.n_h) bad++;
    free(cut);
  }
  CHECK_EQ_INT(bad, 0);
  size_t cuts[] = {0, 5, 1000, len - 96 * 3, len - 1};
  for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
    spit(path2, file, cuts[i]);
    CHECK_EQ_INT(cz_groth16_params_load(&q, path2, true, 1, msg, sizeof msg) != CZ_OK, 1);
  }
  CHECK(strstr(msg, "b_g2") != NULL && strstr(msg, "offset") != NULL);
  CHECK_EQ_INT(cz_groth16_params_load(&q, "/nonexistent/cuzk.params", true, 1, msg, sizeof msg),
               CZ_ERR_IO);
}

/* A trailing byte is refused, and a forged huge count is a truncation,
 * found before any allocation. */
static void files_trailing_and_huge_count(const params_file *f) {
  cz_groth16_params p = *f->p;
  const uint8_t *file = f->file;
  size_t len = f->len;
  cz_groth16_params q;
  /* A trailing byte. */
  uint8_t *more = malloc(len + 1);
  memcpy(more, file, len);
  more[len] = 0;
  CHECK_EQ_INT(cz_groth16_params_read(&q, more, len + 1, true, 1, NULL, 0), CZ_ERR_TRAILING);
  /* A forged huge count is a truncation, found before any allocation. */
  size_t vkn = cz_groth16_vk_write(NULL, &p.vk, false);
  memcpy(more, file, len);
  more[vkn] = 0xff;
  CHECK_EQ_INT(cz_groth16_params_read(&q, more, len, true, 1, NULL, 0), CZ_ERR_TRUNCATED);
  free(more);
}

/* Corrupt points: off the curve (both modes refuse), outside the subgroup
 * (only checked refuses), the point at infinity (both refuse). */
static void files_corrupt_points(const params_file *f) {
  cz_groth16_params p = *f->p;
  const uint8_t *file = f->file;
  size_t len = f->len;
  char msg[256];
  cz_groth16_params q;
  /* Offsets of the first point of each vector: */
  size_t vkn = cz_groth16_vk_write(NULL, &p.vk, false);
  size_t off_h = vkn + 4, off_l = off_h + p.n_h * 96 + 4, off_a = off_l + p.n_l * 96 + 4;
  size_t off_b2 = off_a + p.n_a * 96 + 4 + p.n_b_g1 * 96 + 4;
  uint8_t *cor = malloc(len);
  /* Off the curve (a flipped bit of x of l[2]): both modes refuse. */
  memcpy(cor, file, len);
  cor[off_l + 2 * 96 + 40] ^= 1;
  CHECK_EQ_INT(cz_groth16_params_read(&q, cor, len, true, 2, msg, sizeof msg), CZ_ERR_NOT_ON_CURVE);
  CHECK(strstr(msg, "l point 2") != NULL);
  CHECK_EQ_INT(cz_groth16_params_read(&q, cor, len, false, 2, NULL, 0), CZ_ERR_NOT_ON_CURVE);
  /* On the curve but outside the subgroup (a[1]): only checked refuses. */
  cz_g1_affine ns;
  non_subgroup_g1(&ns);
  memcpy(cor, file, len);
  cz_g1_affine_serialize(cor + off_a + 96, &ns);
  CHECK_EQ_INT(cz_groth16_params_read(&q, cor, len, true, 2, msg, sizeof msg),
               CZ_ERR_NOT_IN_SUBGROUP);
  CHECK(strstr(msg, "a point 1") != NULL);
  CHECK_EQ_INT(cz_groth16_params_read(&q, cor, len, false, 2, NULL, 0), CZ_OK);
  cz_groth16_params_free(&q);
  /* The point at infinity (h[0], b_g2[0]) is refused in both modes. */
  cz_g1_affine inf1 = {0};
  cz_g2_affine inf2;
  memset(&inf2, 0, sizeof inf2);
  for (int checked = 0; checked <= 1; checked++) {
    memcpy(cor, file, len);
    cz_g1_affine_serialize(cor + off_h, &inf1);
    CHECK_EQ_INT(cz_groth16_params_read(&q, cor, len, checked, 2, NULL, 0), CZ_ERR_BAD_FLAGS);
    memcpy(cor, file, len);
    cz_g2_affine_serialize(cor + off_b2, &inf2);
    CHECK_EQ_INT(cz_groth16_params_read(&q, cor, len, checked, 2, NULL, 0), CZ_ERR_BAD_FLAGS);
  }
  free(cor);
}

/* Parameter files of the cubic circuit: the filtered a and b vectors, the
 * saved bytes, load round trips, and truncated, padded and corrupt files. */
static void test_files(void) {
  circ_spec c = {C_CUBIC, 0, 3, 35};
  cz_groth16_params p;
  cz_groth16_toxic t;
  if (!setup(&p, &t, &c)) return;
  params_file f = {.c = &c, .p = &p};
  files_filtered_vectors(&f);
  if (!files_save(&f)) return;
  files_load_round_trips(&f);
  files_truncations(&f);
  files_trailing_and_huge_count(&f);
  files_corrupt_points(&f);
  free(f.file);
  unlink(f.path);
  unlink(f.path2);
  cz_groth16_params_free(&p);
}

int main(void) {
  circ_spec cub = {C_CUBIC, 0, 3, 35};
  known_answer(&cub, true);
  known_answer(&cub, false);
  circ_spec ch = {C_CHAIN, 62, 7, 0}, sp = {C_SPARSE, 40, 7, 0};
  known_answer(&ch, true);
  known_answer(&ch, false);
  known_answer(&sp, false);
  test_cubic();
  test_shapes();
  test_misuse();
  test_batch();
  test_files();
  return check_report("test_prover");
}
