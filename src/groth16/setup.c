/* Groth16 setup from toxic waste, as bellperson's generate_parameters.
 *
 * For the m constraints (input constraints included) on the domain of
 * n = 2^k >= m points, the QAP polynomials u_i, v_i, w_i of variable i are
 * the sums over its A, B, C column of coeff * L_j, L_j the Lagrange basis.
 * L_j(tau) for all j is the inverse FFT of the powers of tau (bellperson's
 * method). Then:
 *   h_i  = tau^i Z(tau) / delta            i < n - 1, Z(X) = X^n - 1
 *   ic_i = (beta u_i + alpha v_i + w_i) / gamma     inputs
 *   l_i  = (beta u_i + alpha v_i + w_i) / delta     aux
 *   a_i  = u_i, b_i = v_i                  only where non-zero
 * all times the G1 (G2 for b_g2) generator. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/ntt.h"
#include "cuzk/params.h"
#include "cuzk/parallel.h"
#include "groth16/g16_internal.h"
#include "util/msg.h"

cz_err cz_groth16_toxic_random(cz_groth16_toxic *t) {
  cz_err e;
  if ((e = cz_g16_random_fr(&t->tau)) != CZ_OK) return e;
  if ((e = cz_g16_random_fr(&t->alpha)) != CZ_OK) return e;
  if ((e = cz_g16_random_fr(&t->beta)) != CZ_OK) return e;
  if ((e = cz_g16_random_fr(&t->gamma)) != CZ_OK) return e;
  return cz_g16_random_fr(&t->delta);
}

/* ---- powers of tau -------------------------------------------------------- */

typedef struct {
  cz_fr *out;
  const cz_fr *x, *scale;
} powers_ctx;

/* out[i] = scale * x^i, each worker starting from x^begin. */
static void powers_worker(void *vctx, size_t begin, size_t end, unsigned worker) {
  (void)worker;
  powers_ctx *c = vctx;
  uint64_t e = begin;
  cz_fr cur;
  cz_fr_pow(&cur, c->x, &e, 1);
  if (c->scale) cz_fr_mul(&cur, &cur, c->scale);
  for (size_t i = begin; i < end; i++) {
    c->out[i] = cur;
    cz_fr_mul(&cur, &cur, c->x);
  }
}

/* ---- column evaluation ---------------------------------------------------- */

typedef struct {
  const cz_keygen_cols *cols;
  const cz_fr *lagrange;
  const cz_fr *alpha, *beta, *gamma_inv, *delta_inv;
  cz_fr *at, *bt, *ext; /* per variable */
  uint8_t *a_nz, *b_nz; /* column has a non-zero coefficient */
} eval_ctx;

static void col_eval(cz_fr *out, uint8_t *nz, const cz_spmat *m, size_t col, const cz_fr *lag) {
  cz_fr acc = CZ_FR_ZERO, t;
  uint8_t any = 0;
  for (uint64_t k = m->ptr[col]; k < m->ptr[col + 1]; k++) {
    if (cz_fr_is_zero(&m->val[k])) continue;
    any = 1;
    cz_fr_mul(&t, &m->val[k], &lag[m->idx[k]]);
    cz_fr_add(&acc, &acc, &t);
  }
  *out = acc;
  if (nz) *nz = any;
}

static void eval_worker(void *vctx, size_t begin, size_t end, unsigned worker) {
  (void)worker;
  eval_ctx *c = vctx;
  for (size_t i = begin; i < end; i++) {
    cz_fr ct, t, e;
    col_eval(&c->at[i], &c->a_nz[i], &c->cols->at, i, c->lagrange);
    col_eval(&c->bt[i], &c->b_nz[i], &c->cols->bt, i, c->lagrange);
    col_eval(&ct, NULL, &c->cols->ct, i, c->lagrange);
    cz_fr_mul(&e, &c->at[i], c->beta);
    cz_fr_mul(&t, &c->bt[i], c->alpha);
    cz_fr_add(&e, &e, &t);
    cz_fr_add(&e, &e, &ct);
    cz_fr_mul(&c->ext[i], &e, i < c->cols->n_inputs ? c->gamma_inv : c->delta_inv);
  }
}

static bool cols_valid(const cz_keygen_cols *k) {
  size_t nv = k->n_inputs + k->n_aux;
  const cz_spmat *ms[3] = {&k->at, &k->bt, &k->ct};
  if (k->n_inputs == 0 || k->n_constraints == 0) return false;
  for (int j = 0; j < 3; j++) {
    const cz_spmat *m = ms[j];
    if (m->n_major != nv || !m->ptr) return false;
    for (size_t c = 0; c < nv; c++) {
      if (m->ptr[c] > m->ptr[c + 1]) return false;
      for (uint64_t e = m->ptr[c]; e < m->ptr[c + 1]; e++)
        if (m->idx[e] >= k->n_constraints) return false;
    }
  }
  return true;
}

/* ---- setup ---------------------------------------------------------------- */

cz_err cz_groth16_setup(cz_groth16_params *out, const cz_keygen_cols *cols,
                        const cz_groth16_toxic *t, unsigned n_threads, char *msg, size_t msg_len) {
  return cz_groth16_setup_progress(out, cols, t, n_threads, NULL, msg, msg_len);
}

/* A G2 multiplication costs about three G1 ones (Fp2 against Fp
 * arithmetic): the progress units weigh them so. */
#define G2_WEIGHT 3

/* The scratch of one setup: powers of tau, the A, B and IC/L evaluations,
 * the non-zero A and B exponents, the density marks and the IC/L points. */
typedef struct {
  cz_fr *pw, *at, *bt, *ext, *a_exp, *b_exp;
  uint8_t *a_nz, *b_nz;
  cz_g1_affine *ext_pts;
} setup_scratch;

static bool scratch_alloc(setup_scratch *s, size_t n, size_t nv) {
  s->pw = malloc(n * sizeof *s->pw);
  s->at = malloc(nv * sizeof *s->at), s->bt = malloc(nv * sizeof *s->bt);
  s->ext = malloc(nv * sizeof *s->ext);
  s->a_exp = malloc(nv * sizeof *s->a_exp), s->b_exp = malloc(nv * sizeof *s->b_exp);
  s->a_nz = malloc(nv), s->b_nz = malloc(nv);
  s->ext_pts = malloc(nv * sizeof *s->ext_pts);
  return s->pw && s->at && s->bt && s->ext && s->a_exp && s->b_exp && s->a_nz && s->b_nz &&
         s->ext_pts;
}

static void scratch_free(setup_scratch *s) {
  free(s->pw), free(s->at), free(s->bt), free(s->ext), free(s->a_exp), free(s->b_exp);
  free(s->a_nz), free(s->b_nz), free(s->ext_pts);
}

/* gamma and delta inverted; the toxic waste refused when a secret is zero. */
cz_err cz_g16_toxic_check(const cz_groth16_toxic *t, cz_fr *gamma_inv, cz_fr *delta_inv, char *msg,
                          size_t msg_len) {
  if (!cz_fr_inv(gamma_inv, &t->gamma) || !cz_fr_inv(delta_inv, &t->delta))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "gamma and delta must be non-zero");
  if (cz_fr_is_zero(&t->alpha) || cz_fr_is_zero(&t->beta)) {
    /* alpha_g1 / beta_g2 would be the identity, which no reader accepts. */
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "alpha and beta must be non-zero");
  }
  return CZ_OK;
}

/* Filter a/b to non-zero evaluations (bellperson) into a_exp[0..*na) and
 * b_exp[0..*nb), and insist that this is exactly the prover's density
 * (non-zero coefficients), with inputs always present in a. */
static cz_err filter_ab(setup_scratch *s, size_t n_in, size_t nv, size_t *na, size_t *nb, char *msg,
                        size_t msg_len) {
  *na = *nb = 0;
  for (size_t i = 0; i < nv; i++) {
    bool az = cz_fr_is_zero(&s->at[i]), bz = cz_fr_is_zero(&s->bt[i]);
    if ((i < n_in && az) || (s->a_nz[i] && az) || (s->b_nz[i] && bz))
      return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                        "%s %zu: its %s column evaluates to zero at tau (degenerate toxic waste)",
                        i < n_in ? "input" : "aux", i < n_in ? i : i - n_in, az ? "A" : "B");
    if (!az) s->a_exp[(*na)++] = s->at[i];
    if (!bz) s->b_exp[(*nb)++] = s->bt[i];
  }
  return CZ_OK;
}

/* No IC or L point may be the identity. */
static cz_err check_ext(const cz_g1_affine *ext_pts, size_t n_in, size_t nv, char *msg,
                        size_t msg_len) {
  for (size_t i = 0; i < nv; i++)
    if (cz_g1_affine_is_identity(&ext_pts[i]))
      return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                        i < n_in ? "input %zu has an identity IC point"
                                 : "aux %zu is unconstrained (its L point is the identity)",
                        i < n_in ? i : i - n_in);
  return CZ_OK;
}

/* The verifying key's fixed points (IC is set by the caller). */
void cz_g16_setup_vk(cz_groth16_vk *vk, const cz_groth16_toxic *t) {
  const cz_fr *k1[3] = {&t->alpha, &t->beta, &t->delta}, *k2[3] = {&t->beta, &t->gamma, &t->delta};
  cz_g1_affine *p1[3] = {&vk->alpha_g1, &vk->beta_g1, &vk->delta_g1};
  cz_g2_affine *p2[3] = {&vk->beta_g2, &vk->gamma_g2, &vk->delta_g2};
  cz_g1 g1, j1;
  cz_g2 g2, j2;
  cz_g1_from_affine(&g1, &CZ_G1_GENERATOR);
  cz_g2_from_affine(&g2, &CZ_G2_GENERATOR);
  for (int i = 0; i < 3; i++) {
    cz_g1_mul_fr(&j1, &g1, k1[i]), cz_g1_to_affine(p1[i], &j1);
    cz_g2_mul_fr(&j2, &g2, k2[i]), cz_g2_to_affine(p2[i], &j2);
  }
}

/* The h points: tau^i Z(tau) / delta, i < p->n_h (pw is scratch). */
static cz_err setup_h(cz_groth16_params *p, cz_fr *pw, const cz_fr *tau, const cz_fr *coeff,
                      unsigned n_threads, cz_progress_counter *work) {
  if (!p->n_h) return CZ_OK;
  powers_ctx pc = {pw, tau, coeff};
  cz_parallel_for(p->n_h, n_threads, powers_worker, &pc);
  if (!(p->h = cz_g16_big_alloc(p->n_h * sizeof *p->h))) return CZ_ERR_NOMEM;
  return cz_g16_fixed_base_g1_progress(p->h, &CZ_G1_GENERATOR, pw, p->n_h, n_threads, work, 1);
}

/* The IC, L, A and B points from the scratch's exponents. */
static cz_err setup_points(cz_groth16_params *p, const setup_scratch *s, size_t n_in, size_t n_aux,
                           size_t na, size_t nb, unsigned n_threads, cz_progress_counter *work) {
  p->n_l = n_aux;
  p->n_a = na;
  p->n_b_g1 = p->n_b_g2 = nb;
  if ((n_aux && !(p->l = cz_g16_big_alloc(n_aux * sizeof *p->l))) ||
      (na && !(p->a = cz_g16_big_alloc(na * sizeof *p->a))) ||
      (nb && !(p->b_g1 = cz_g16_big_alloc(nb * sizeof *p->b_g1))) ||
      (nb && !(p->b_g2 = cz_g16_big_alloc(nb * sizeof *p->b_g2))) ||
      !(p->vk.ic = malloc(n_in * sizeof *p->vk.ic)))
    return CZ_ERR_NOMEM;
  p->vk.n_ic = n_in;
  memcpy(p->vk.ic, s->ext_pts, n_in * sizeof *p->vk.ic);
  if (n_aux) memcpy(p->l, s->ext_pts + n_in, n_aux * sizeof *p->l);
  cz_err e =
      cz_g16_fixed_base_g1_progress(p->a, &CZ_G1_GENERATOR, s->a_exp, na, n_threads, work, 1);
  if (e == CZ_OK)
    e = cz_g16_fixed_base_g1_progress(p->b_g1, &CZ_G1_GENERATOR, s->b_exp, nb, n_threads, work, 1);
  if (e == CZ_OK)
    e = cz_g16_fixed_base_g2_progress(p->b_g2, &CZ_G2_GENERATOR, s->b_exp, nb, n_threads, work,
                                      G2_WEIGHT);
  return e;
}

cz_err cz_groth16_setup_progress(cz_groth16_params *out, const cz_keygen_cols *cols,
                                 const cz_groth16_toxic *t, unsigned n_threads,
                                 const cz_progress *progress, char *msg, size_t msg_len) {
  memset(out, 0, sizeof *out);
  cz_msg(msg, msg_len, "%s", "");
  if (!cols_valid(cols))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "keygen columns are malformed");
  cz_fr gamma_inv, delta_inv;
  cz_err e = cz_g16_toxic_check(t, &gamma_inv, &delta_inv, msg, msg_len);
  if (e != CZ_OK) return e;
  const size_t n_in = cols->n_inputs, n_aux = cols->n_aux, nv = n_in + n_aux;
  cz_ntt_domain *dom = NULL;
  if ((e = cz_ntt_domain_for_size(&dom, cols->n_constraints)) != CZ_OK)
    return cz_msg_err(msg, msg_len, e, "no evaluation domain for %zu constraints",
                      cols->n_constraints);
  const size_t n = cz_ntt_domain_size(dom);

  /* Z(tau) = tau^n - 1; zero means tau is in the domain. */
  cz_fr zt;
  uint64_t nn = n;
  cz_fr_pow(&zt, &t->tau, &nn, 1);
  cz_fr_sub(&zt, &zt, &CZ_FR_ONE);
  if (cz_fr_is_zero(&zt)) {
    cz_ntt_domain_free(dom);
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "tau lies in the evaluation domain (Z(tau) = 0)");
  }

  setup_scratch s;
  cz_groth16_params p;
  memset(&p, 0, sizeof p);
  e = scratch_alloc(&s, n, nv) ? CZ_OK : CZ_ERR_NOMEM;

  /* The work: h, the IC and l points, a, b_g1, b_g2; a and b are at most
   * one point per variable, and their real counts replace the bound once
   * they are known. */
  cz_fr coeff;
  cz_fr_mul(&coeff, &zt, &delta_inv);
  p.n_h = n - 1;
  cz_progress_counter work;
  cz_progress_counter_init(&work, progress, "setup", "points",
                           (uint64_t)p.n_h + (uint64_t)nv * (3 + G2_WEIGHT));
  if (e == CZ_OK) e = setup_h(&p, s.pw, &t->tau, &coeff, n_threads, &work);
  size_t na = 0, nb = 0;
  if (e == CZ_OK) {
    /* Lagrange coefficients at tau: ifft of the powers of tau. */
    powers_ctx pc = {s.pw, &t->tau, NULL};
    cz_parallel_for(n, n_threads, powers_worker, &pc);
    cz_ntt_ifft(dom, s.pw, n_threads);
    eval_ctx ec = {cols, s.pw, &t->alpha, &t->beta, &gamma_inv, &delta_inv,
                   s.at, s.bt, s.ext,     s.a_nz,   s.b_nz};
    cz_parallel_for(nv, n_threads, eval_worker, &ec);
    e = filter_ab(&s, n_in, nv, &na, &nb, msg, msg_len);
  }
  work.total = (uint64_t)p.n_h + nv + na + (uint64_t)nb * (1 + G2_WEIGHT); /* before the workers */
  if (e == CZ_OK)
    e = cz_g16_fixed_base_g1_progress(s.ext_pts, &CZ_G1_GENERATOR, s.ext, nv, n_threads, &work, 1);
  if (e == CZ_OK) e = check_ext(s.ext_pts, n_in, nv, msg, msg_len);
  if (e == CZ_OK) e = setup_points(&p, &s, n_in, n_aux, na, nb, n_threads, &work);
  if (e == CZ_OK) cz_g16_setup_vk(&p.vk, t);
  scratch_free(&s);
  cz_ntt_domain_free(dom);
  if (e == CZ_OK) *out = p;
  else cz_groth16_params_free(&p);
  if (e == CZ_ERR_NOMEM) cz_msg(msg, msg_len, "out of memory");
  return e;
}

/* ---- evaluations for the streaming setup ---------------------------------- */

typedef struct {
  const cz_keygen_cols *cols;
  const cz_fr *lagrange;
  cz_qap_evals *ev;
  uint8_t *a_nz, *b_nz;
} qap_ctx;

static void qap_worker(void *vctx, size_t begin, size_t end, unsigned worker) {
  (void)worker;
  qap_ctx *c = vctx;
  for (size_t i = begin; i < end; i++) {
    col_eval(&c->ev->u[i], &c->a_nz[i], &c->cols->at, i, c->lagrange);
    col_eval(&c->ev->v[i], &c->b_nz[i], &c->cols->bt, i, c->lagrange);
    col_eval(&c->ev->w[i], NULL, &c->cols->ct, i, c->lagrange);
  }
}

/* The byte marks nz[0..n) as the bitmap d (its count set). */
static void marks_to_bits(cz_density *d, const uint8_t *nz, size_t n) {
  d->n = n;
  d->count = 0;
  for (size_t i = 0; i < n; i++)
    if (nz[i]) d->bits[i / 64] |= 1ull << (i % 64), d->count++;
}

cz_err cz_groth16_qap_from_cols(cz_qap_evals *out, const cz_keygen_cols *cols, const cz_fr *tau,
                                unsigned n_threads, char *msg, size_t msg_len) {
  memset(out, 0, sizeof *out);
  if (!cols_valid(cols))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "keygen columns are malformed");
  cz_ntt_domain *dom = NULL;
  cz_err e = cz_ntt_domain_for_size(&dom, cols->n_constraints);
  if (e != CZ_OK)
    return cz_msg_err(msg, msg_len, e, "no evaluation domain for %zu constraints",
                      cols->n_constraints);
  const size_t n = cz_ntt_domain_size(dom), nv = cols->n_inputs + cols->n_aux;
  cz_fr zt;
  uint64_t nn = n;
  cz_fr_pow(&zt, tau, &nn, 1);
  cz_fr_sub(&zt, &zt, &CZ_FR_ONE);
  cz_fr *pw = malloc(n * sizeof *pw);
  uint8_t *nz = malloc(2 * nv + 1);
  out->u = malloc(nv * sizeof(cz_fr)), out->v = malloc(nv * sizeof(cz_fr));
  out->w = malloc(nv * sizeof(cz_fr));
  out->a_nz.bits = calloc(nv / 64 + 1, 8), out->b_nz.bits = calloc(nv / 64 + 1, 8);
  if (cz_fr_is_zero(&zt)) {
    e = cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                   "tau lies in the evaluation domain (Z(tau) = 0)");
  } else if (!pw || !nz || !out->u || !out->v || !out->w || !out->a_nz.bits || !out->b_nz.bits) {
    e = cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  } else {
    powers_ctx pc = {pw, tau, NULL};
    cz_parallel_for(n, n_threads, powers_worker, &pc);
    cz_ntt_ifft(dom, pw, n_threads);
    qap_ctx qc = {cols, pw, out, nz, nz + nv};
    cz_parallel_for(nv, n_threads, qap_worker, &qc);
    marks_to_bits(&out->a_nz, nz, nv);
    marks_to_bits(&out->b_nz, nz + nv, nv);
    out->n_inputs = cols->n_inputs, out->n_aux = cols->n_aux;
    out->n_constraints = cols->n_constraints, out->domain = n;
  }
  free(pw);
  free(nz);
  cz_ntt_domain_free(dom);
  if (e != CZ_OK) cz_qap_evals_free(out);
  return e;
}
