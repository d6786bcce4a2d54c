/* The prover front end (timing hook, dispatch) and the CPU backend.
 *
 * The CPU backend follows bellperson's native prover step for step: H by
 * NTT (cz_ntt_h_poly, keeping n - 1 coefficients), then the MSMs h, l, a,
 * b_g1 (skipped when r = 0, as bellperson skips it without randomization),
 * b_g2, then A, B, C assembled as
 *   A = alpha + a + r delta,  B = beta + b2 + s delta,
 *   C = s a + r b1 + r s delta + s alpha + r beta + h + l
 * which is s A + r B1 - r s delta + h + l with the r s delta terms folded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cuzk/clock.h"
#include "cuzk/ntt.h"
#include "cuzk/parallel.h"
#include "cuzk/groth16_prove.h"
#include "groth16/g16_internal.h"
#include "util/bigbuf.h"
#include "util/msg.h"

static const char *const PHASE_NAMES[CZ_PHASE_COUNT] = {
    "synthesis", "ntt_h",     "msm_h",    "msm_l", "msm_a",    "msm_b_g1",
    "msm_b_g2",  "batch_add", "tail_msm", "total", "key_wait",
};

const char *cz_prove_phase_name(cz_prove_phase p) {
  return (unsigned)p < CZ_PHASE_COUNT ? PHASE_NAMES[p] : NULL;
}

void cz_prove_timing_emit(const cz_prove_timing *hook, cz_prove_phase phase, uint64_t ns) {
  const char *name = cz_prove_phase_name(phase);
  if (!name) return;
  if (!hook || !hook->quiet) {
    fprintf(stderr, "CUZK_TIMING: %s_ms=%llu\n", name,
            (unsigned long long)((ns + 500000) / 1000000));
    fflush(stderr);
  }
  if (hook && hook->on_phase) hook->on_phase(hook->ctx, phase, ns);
}

/* ---- CPU backend ---------------------------------------------------------- */

/* The checks bellperson's ParameterSource getters and asserts make, with a
 * message saying which count disagrees. */
cz_err cz_g16_check_fit(const cz_groth16_params *p, const cz_assignment *as, size_t n_dom,
                        char *msg, size_t msg_len) {
  const char *what = NULL;
  size_t got = 0, want = 0;
#define FIT(cond, w, g, x) \
  if (!what && !(cond)) { \
    what = (w); \
    got = (g); \
    want = (x); \
  }
  FIT(as->a && as->b, "a/b evaluations present (not consumed)", 0, 1);
  FIT(as->aux.n == as->n_aux, "packed aux values", as->aux.n, as->n_aux);
  FIT(as->n_inputs == p->vk.n_ic, "inputs vs vk IC points", as->n_inputs, p->vk.n_ic);
  FIT(as->n_aux == p->n_l, "aux vs l points", as->n_aux, p->n_l);
  FIT(n_dom - 1 == p->n_h, "H coefficients vs h points", n_dom - 1, p->n_h);
  FIT(as->a_aux.n == as->n_aux && as->b_aux.n == as->n_aux && as->b_input.n == as->n_inputs,
      "density lengths", as->a_aux.n, as->n_aux);
  FIT(as->n_inputs + as->a_aux.count == p->n_a, "inputs + a_aux density vs a points",
      as->n_inputs + as->a_aux.count, p->n_a);
  FIT(as->b_input.count + as->b_aux.count == p->n_b_g1, "b densities vs b_g1 points",
      as->b_input.count + as->b_aux.count, p->n_b_g1);
  FIT(p->n_b_g1 == p->n_b_g2, "b_g1 vs b_g2 points", p->n_b_g1, p->n_b_g2);
#undef FIT
  if (!what) return CZ_OK;
  return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                    "assignment does not fit the parameters: %s (%zu, expected %zu)", what, got,
                    want);
}

/* c_i = a_i * b_i on a thread budget (cz_assignment: synthesis leaves c
 * to the prover). */
typedef struct {
  const cz_fr *a, *b;
  cz_fr *c;
} hadamard_ctx;

static void hadamard(void *p, size_t begin, size_t end, unsigned worker) {
  (void)worker;
  const hadamard_ctx *h = p;
  for (size_t i = begin; i < end; i++) cz_fr_mul(&h->c[i], &h->a[i], &h->b[i]);
}

/* as->c from a and b, when synthesis left it out: a block with the H
 * domain's room, like a and b. */
static cz_err compute_c(cz_assignment *as, size_t n, unsigned threads) {
  if (as->c) return CZ_OK;
  if (!(as->c = cz_pool_take(n * sizeof(cz_fr)))) return CZ_ERR_NOMEM;
  hadamard_ctx h = {as->a, as->b, as->c};
  cz_parallel_for(as->n_constraints, threads, hadamard, &h);
  return CZ_OK;
}

/* H coefficients in as->a[0 .. n-2]; b and c are released (c, which the
 * next synthesis does not take, unmapped where it is large against the
 * machine: see cz_pool_give_transient). */
static cz_err compute_h(const cz_ntt_domain *d, cz_assignment *as, unsigned threads) {
  size_t n = cz_ntt_domain_size(d), m = as->n_constraints;
  if (compute_c(as, n, threads) != CZ_OK) return CZ_ERR_NOMEM;
  cz_fr **v[3] = {&as->a, &as->b, &as->c};
  for (int i = 0; i < 3; i++) {
    if (n == m) continue;
    /* In place when the producer left room (see cz_abc_room), else moved
     * onto fresh huge pages: a moving realloc would split them. */
    size_t cap = m;
    if (cz_buf_usable(*v[i]) < n * sizeof(cz_fr) &&
        !cz_reserve((void **)v[i], &cap, n, sizeof(cz_fr)))
      return CZ_ERR_NOMEM;
    memset(*v[i] + m, 0, (n - m) * sizeof(cz_fr));
  }
  cz_ntt_h_poly(d, as->a, as->b, as->c, threads);
  cz_pool_give(as->b);
  cz_pool_give_transient(as->c);
  as->b = as->c = NULL;
  return CZ_OK;
}

/* Where p's bases are encoded (g16_msm_seg.key): NULL when decoded. */
static const cz_params_mapping *g16_key_of(const cz_groth16_params *p) {
  return cz_groth16_params_is_mapped(p) ? &p->map : NULL;
}

const void *cz_g16_point_at(const cz_groth16_params *p, g16_vec v, size_t i) {
  if (cz_groth16_params_is_mapped(p)) {
    const uint8_t *enc[5] = {p->map.h, p->map.l, p->map.a, p->map.b_g1, p->map.b_g2};
    return enc[v] + i * (v == G16_B_G2 ? CZ_G2_UNCOMPRESSED_BYTES : CZ_G1_UNCOMPRESSED_BYTES);
  }
  const cz_g1_affine *g1[4] = {p->h, p->l, p->a, p->b_g1};
  return v == G16_B_G2 ? (const void *)(p->b_g2 + i) : (const void *)(g1[v] + i);
}

void cz_g16_b_segments(g16_msm_seg seg[2], const cz_groth16_params *p, g16_vec v,
                       const cz_assignment *as) {
  const size_t bi = as->b_input.count, n_b = v == G16_B_G2 ? p->n_b_g2 : p->n_b_g1;
  const cz_params_mapping *enc = g16_key_of(p);
  seg[0] = (g16_msm_seg){cz_g16_point_at(p, v, 0), bi,   as->inputs, as->n_inputs,
                         as->b_input.bits,         NULL, enc};
  seg[1] = (g16_msm_seg){
      cz_g16_point_at(p, v, bi), n_b - bi, NULL, as->n_aux, as->b_aux.bits, &as->aux, enc};
}

/* A, B, C from the MSM results (see the top of this file). */
void cz_g16_assemble(const cz_groth16_vk *vk, const cz_fr *r, const cz_fr *s, const cz_g1 *h,
                     const cz_g1 *l, const cz_g1 *a, const cz_g1 *b1, const cz_g2 *b2,
                     cz_groth16_proof *proof) {
  cz_g1 ga, gc, x;
  cz_g2 gb, y;
  cz_fr rs;
  cz_fr_mul(&rs, r, s);
  /* A = alpha + a + r delta */
  cz_g1_from_affine(&x, &vk->delta_g1);
  cz_g1_mul_fr(&ga, &x, r);
  cz_g1_add_affine(&ga, &ga, &vk->alpha_g1);
  cz_g1_add(&ga, &ga, a);
  /* B = beta + b2 + s delta */
  cz_g2_from_affine(&y, &vk->delta_g2);
  cz_g2_mul_fr(&gb, &y, s);
  cz_g2_add_affine(&gb, &gb, &vk->beta_g2);
  cz_g2_add(&gb, &gb, b2);
  /* C = s a + r b1 + r s delta + s alpha + r beta + h + l
   *   = s (a + alpha) + r (b1 + beta + s delta) + h + l */
  cz_g1_add_affine(&gc, a, &vk->alpha_g1);
  cz_g1_mul_fr(&gc, &gc, s);
  cz_g1_mul_fr(&x, &x, s);
  cz_g1_add(&x, &x, b1);
  cz_g1_add_affine(&x, &x, &vk->beta_g1);
  cz_g1_mul_fr(&x, &x, r);
  cz_g1_add(&gc, &gc, &x);
  cz_g1_add(&gc, &gc, h);
  cz_g1_add(&gc, &gc, l);
  cz_g1_to_affine(&proof->a, &ga);
  cz_g2_to_affine(&proof->b, &gb);
  cz_g1_to_affine(&proof->c, &gc);
}

static cz_err prove_one(const cz_groth16_params *p, const cz_ntt_domain *d, cz_assignment *as,
                        const cz_fr *r, const cz_fr *s, cz_groth16_proof *proof, unsigned th,
                        uint64_t *t) {
  uint64_t t0 = cz_now_ns(), t1, wait0 = cz_g16_key_wait_ns();
  cz_err e = compute_h(d, as, th);
  if (e != CZ_OK) return e;
  t1 = cz_now_ns();
  t[CZ_PHASE_NTT_H] += t1 - t0;
  t0 = t1;

  const size_t n_in = as->n_inputs, n_aux = as->n_aux;
  const cz_params_mapping *enc = g16_key_of(p);
  cz_g1 h, l, a, b1;
  cz_g2 b2;
  g16_msm_seg seg[2];
  seg[0] = (g16_msm_seg){cz_g16_point_at(p, G16_H, 0), p->n_h, as->a, p->n_h, NULL, NULL, enc};
  if ((e = cz_g16_msm_g1(&h, seg, 1, th)) != CZ_OK) return e;
  cz_pool_give(as->a);
  as->a = NULL;
  t1 = cz_now_ns();
  t[CZ_PHASE_MSM_H] += t1 - t0;
  t0 = t1;

  seg[0] = (g16_msm_seg){cz_g16_point_at(p, G16_L, 0), p->n_l, NULL, n_aux, NULL, &as->aux, enc};
  if ((e = cz_g16_msm_g1(&l, seg, 1, th)) != CZ_OK) return e;
  t1 = cz_now_ns();
  t[CZ_PHASE_MSM_L] += t1 - t0;
  t0 = t1;

  /* a: the input part of the a query is dense (every input has its input
   * constraint in A), aux follow the a_aux density. */
  seg[0] = (g16_msm_seg){cz_g16_point_at(p, G16_A, 0), n_in, as->inputs, n_in, NULL, NULL, enc};
  seg[1] = (g16_msm_seg){
      cz_g16_point_at(p, G16_A, n_in), p->n_a - n_in, NULL, n_aux, as->a_aux.bits, &as->aux, enc};
  if ((e = cz_g16_msm_g1(&a, seg, 2, th)) != CZ_OK) return e;
  t1 = cz_now_ns();
  t[CZ_PHASE_MSM_A] += t1 - t0;
  t0 = t1;

  cz_g16_b_segments(seg, p, G16_B_G1, as);
  cz_g1_set_identity(&b1);
  if (!cz_fr_is_zero(r) && (e = cz_g16_msm_g1(&b1, seg, 2, th)) != CZ_OK) return e;
  t1 = cz_now_ns();
  t[CZ_PHASE_MSM_B_G1] += t1 - t0;
  t0 = t1;

  cz_g16_b_segments(seg, p, G16_B_G2, as);
  if ((e = cz_g16_msm_g2(&b2, seg, 2, th)) != CZ_OK) return e;
  t1 = cz_now_ns();
  t[CZ_PHASE_MSM_B_G2] += t1 - t0;
  t0 = t1;

  cz_g16_assemble(&p->vk, r, s, &h, &l, &a, &b1, &b2, proof);
  t1 = cz_now_ns();
  t[CZ_PHASE_BATCH_ADD] += t1 - t0;
  t[CZ_PHASE_KEY_WAIT] += cz_g16_key_wait_ns() - wait0;
  return CZ_OK;
}

static cz_err cpu_prove(const cz_prover_backend *self, const cz_groth16_params *params,
                        cz_assignment *as, size_t n, cz_groth16_proof *proofs,
                        const cz_prove_opts *opts) {
  (void)self;
  const cz_prove_opts def = {0};
  if (!opts) opts = &def;
  if ((opts->r == NULL) != (opts->s == NULL)) return CZ_ERR_INVALID_ARG;
  if (!n) return CZ_OK;
  if (!params || !as || !proofs) return CZ_ERR_INVALID_ARG;
  uint64_t t[CZ_PHASE_COUNT] = {0};
  uint64_t start = cz_now_ns();
  cz_ntt_domain *d = NULL;
  cz_err e = cz_ntt_domain_for_size(&d, as[0].n_constraints);
  if (e != CZ_OK) {
    cz_msg(opts->msg, opts->msg_len, "no domain for %zu constraints", as[0].n_constraints);
    return e;
  }
  for (size_t i = 0; i < n && e == CZ_OK; i++) {
    if (as[i].n_constraints != as[0].n_constraints) {
      cz_msg(opts->msg, opts->msg_len, "assignment %zu has another constraint count", i);
      e = CZ_ERR_INVALID_ARG;
      break;
    }
    if ((e = cz_g16_check_fit(params, &as[i], cz_ntt_domain_size(d), opts->msg, opts->msg_len)) !=
        CZ_OK)
      break;
    cz_fr r, s;
    if ((e = cz_g16_blinding(opts, i, &r, &s)) != CZ_OK) break;
    e = prove_one(params, d, &as[i], &r, &s, &proofs[i], opts->n_threads, t);
    memset(&r, 0, sizeof r);
    memset(&s, 0, sizeof s);
    if (e == CZ_ERR_NOMEM) cz_msg(opts->msg, opts->msg_len, "out of memory");
    else if (e != CZ_OK) cz_msg(opts->msg, opts->msg_len, "MSM refused its input");
  }
  cz_ntt_domain_free(d);
  if (e != CZ_OK) return e;
  t[CZ_PHASE_TOTAL] = cz_now_ns() - start;
  for (int ph = CZ_PHASE_NTT_H; ph < CZ_PHASE_COUNT; ph++)
    if (ph != CZ_PHASE_KEY_WAIT || cz_groth16_params_is_mapped(params))
      cz_prove_timing_emit(opts->timing, (cz_prove_phase)ph, t[ph]);
  return CZ_OK;
}

static const cz_prover_backend CPU_BACKEND = {"cpu", cpu_prove, NULL};

const cz_prover_backend *cz_prover_cpu(void) { return &CPU_BACKEND; }

cz_err cz_groth16_prove(const cz_prover_backend *backend, const cz_groth16_params *params,
                        cz_assignment *as, size_t n, cz_groth16_proof *proofs,
                        const cz_prove_opts *opts) {
  if (!backend) backend = cz_prover_cpu();
  return backend->prove(backend, params, as, n, proofs, opts);
}

cz_err cz_groth16_prove_recorded(const cz_prover_backend *backend, const cz_groth16_params *params,
                                 const cz_r1cs *shape, cz_assignment *w, cz_groth16_proof *proof,
                                 const cz_prove_opts *opts) {
  cz_err e = cz_r1cs_eval(shape, w);
  if (e != CZ_OK) return e;
  return cz_groth16_prove(backend, params, w, 1, proof, opts);
}

cz_err cz_groth16_prove_verified(const cz_prove_ctx *pc, cz_assignment *as, const cz_fr *inputs,
                                 size_t n_inputs, const char *what,
                                 uint8_t out[CZ_GROTH16_PROOF_BYTES], char *msg, size_t msg_len) {
  cz_err e = CZ_OK;
  const cz_groth16_params *params = pc ? pc->params : NULL;
  const cz_groth16_pvk *pvk = params ? pc->pvk : NULL;
  cz_groth16_pvk *own = NULL;
  if (!params || !as || !out || (n_inputs && !inputs))
    e = cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "%s: missing parameters, assignment or output",
                   what);
  else if (params->vk.n_ic != n_inputs + 1)
    e = cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                   "parameters take %zu public inputs, %s has %zu", params->vk.n_ic - 1, what,
                   n_inputs);
  else if (!pvk && !(pvk = own = cz_groth16_prepare(&params->vk)))
    e = cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  cz_groth16_proof proof;
  if (e == CZ_OK) {
    cz_prove_opts po = {pc->n_threads, NULL, NULL, pc->timing, msg, msg_len};
    e = cz_groth16_prove(pc->backend, params, as, 1, &proof, &po);
  }
  if (e == CZ_OK && cz_groth16_verify_prepared(pvk, inputs, n_inputs, &proof) != CZ_OK)
    e = cz_msg_err(msg, msg_len, CZ_ERR_PROOF_INVALID,
                   "%s: the proof made does not verify (parameters not of this circuit?)", what);
  if (e == CZ_OK) cz_groth16_proof_write(out, &proof);
  if (as) cz_assignment_free(as);
  cz_groth16_pvk_free(own);
  return e;
}
