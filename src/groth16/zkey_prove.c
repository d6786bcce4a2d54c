/* Proving with a snarkjs key (cuzk/zkey.h): snarkjs's equations on cuzk's
 * NTT and MSMs.
 *
 * Steps (the phase each is timed as):
 *   synthesis  a, b from the A/B terms (section 4) and the witness
 *   ntt_h      H's scalars: c = a o b, A B - C on the odd coset (zkey_hpoly.c)
 *   msm_h      H points;  msm_l: C points over the private signals
 *   msm_a, msm_b_g1, msm_b_g2: A, B1, B2 points over the whole witness
 *   batch_add  the proof from those sums, alpha, beta, delta, r and s
 * then the proof is verified against the key's verifying key (in total).
 * The MSMs drop zero scalars and add the bases of scalars equal to one
 * without multiplying (cz_msm); infinity bases cost nothing more. */
#include <string.h>
#include "cuzk/clock.h"
#include "cuzk/msm.h"
#include "cuzk/parallel.h"
#include "groth16/g16_internal.h"
#include "groth16/zkey_internal.h"
#include "util/bigbuf.h"
#include "util/msg.h"

/* ---- a and b from the terms ------------------------------------------------ */

typedef struct {
  const cz_zkey *z;
  const cz_fr *w;
  cz_fr *a, *b;
  size_t bounds[CZ_PARALLEL_MAX_THREADS + 1];
} build_ctx;

static void zero_worker(void *p, size_t begin, size_t end, unsigned w) {
  (void)w;
  build_ctx *k = p;
  memset(k->a + begin, 0, (end - begin) * sizeof(cz_fr));
  memset(k->b + begin, 0, (end - begin) * sizeof(cz_fr));
}

static void build_worker(void *p, size_t begin, size_t end, unsigned w) {
  (void)begin, (void)end;
  build_ctx *k = p;
  const zkey_term *t = k->z->terms;
  const cz_fr *coef = k->z->coefs;
  for (size_t i = k->bounds[w]; i < k->bounds[w + 1]; i++) {
    cz_fr *dst = (t[i].row & ZKEY_ROW_B) ? k->b : k->a;
    cz_fr v;
    cz_fr_mul(&v, &coef[i], &k->w[t[i].signal]);
    size_t r = t[i].row & ~ZKEY_ROW_B;
    cz_fr_add(&dst[r], &dst[r], &v);
  }
}

/* Splits the terms into one run per worker, each ending where a constraint
 * ends (terms are sorted by constraint), so that no two workers write the
 * same row. Unsorted terms go to one worker. */
static unsigned split_terms(build_ctx *k, unsigned threads) {
  const cz_zkey *z = k->z;
  unsigned parts = z->sorted ? cz_parallel_workers(z->n_terms, threads) : 1;
  if (!parts) parts = 1;
  k->bounds[0] = 0;
  for (unsigned i = 1; i < parts; i++) {
    size_t b = z->n_terms * i / parts;
    if (b < k->bounds[i - 1]) b = k->bounds[i - 1];
    while (b > 0 && b < z->n_terms &&
           (z->terms[b].row & ~ZKEY_ROW_B) == (z->terms[b - 1].row & ~ZKEY_ROW_B))
      b++;
    k->bounds[i] = b;
  }
  k->bounds[parts] = z->n_terms;
  return parts;
}

static void build_ab(const cz_zkey *z, const cz_fr *w, cz_fr *a, cz_fr *b, unsigned threads) {
  build_ctx ctx = {z, w, a, b, {0}};
  cz_parallel_for(z->domain_size, threads, zero_worker, &ctx);
  unsigned parts = split_terms(&ctx, threads);
  /* One item per part: cz_parallel_for gives worker w the item w. */
  cz_parallel_for(parts, parts, build_worker, &ctx);
}

/* ---- the MSMs ------------------------------------------------------------ */

/* w with zeros where the section's base is infinity (the MSM drops zero
 * scalars), or w itself when no base is; NULL: out of memory. */
static const cz_fr *masked(const cz_zkey *z, int sec, const cz_fr *w, cz_fr **own) {
  const uint64_t *inf = z->inf[sec];
  *own = NULL;
  if (!inf) return w;
  cz_fr *m = cz_pool_take(z->n_vars * sizeof *m);
  if (!m) return NULL;
  for (size_t i = 0; i < z->n_vars; i++) m[i] = (inf[i / 64] >> (i % 64)) & 1 ? CZ_FR_ZERO : w[i];
  return *own = m;
}

/* sum w_i P_i over a whole point section (A, B1: G1), or over the private
 * signals (C). */
static cz_err msm_g1(cz_g1 *out, const cz_zkey *z, int sec, const cz_fr *w, unsigned threads) {
  size_t skip = sec == ZK_C ? z->n_public + 1 : 0;
  cz_fr *own;
  const cz_fr *k = sec == ZK_C ? w : masked(z, sec, w, &own);
  if (!k) return CZ_ERR_NOMEM;
  cz_msm_g1_segment seg = {z->pts[sec], z->n_pts[sec], NULL, k + skip, z->n_pts[sec], NULL, NULL};
  cz_err e = cz_msm_g1_segments(out, &seg, 1, threads, NULL);
  if (sec != ZK_C) cz_pool_give(own);
  return e;
}

static cz_err msm_b2(cz_g2 *out, const cz_zkey *z, const cz_fr *w, unsigned threads) {
  cz_fr *own;
  const cz_fr *k = masked(z, ZK_B2, w, &own);
  if (!k) return CZ_ERR_NOMEM;
  cz_msm_g2_segment seg = {z->pts[ZK_B2], z->n_pts[ZK_B2], NULL, k, z->n_pts[ZK_B2], NULL, NULL};
  cz_err e = cz_msm_g2_segments(out, &seg, 1, threads, NULL);
  cz_pool_give(own);
  return e;
}

typedef struct {
  cz_g1 h, l, a, b1;
  cz_g2 b2;
} msm_sums;

/* The five sums, each timed as its phase; h_scalars is released early. */
static cz_err run_msms(const cz_zkey *z, const cz_fr *w, cz_fr *h_scalars, msm_sums *m, unsigned th,
                       uint64_t *t) {
  uint64_t t0 = cz_now_ns(), t1;
  cz_msm_g1_segment seg = {z->pts[ZK_H],   z->n_pts[ZK_H], NULL, h_scalars,
                           z->domain_size, NULL,           NULL};
  cz_err e = cz_msm_g1_segments(&m->h, &seg, 1, th, NULL);
  cz_pool_give(h_scalars);
  t1 = cz_now_ns();
  t[CZ_PHASE_MSM_H] += t1 - t0;
  t0 = t1;
  if (e == CZ_OK) e = msm_g1(&m->l, z, ZK_C, w, th);
  t1 = cz_now_ns();
  t[CZ_PHASE_MSM_L] += t1 - t0;
  t0 = t1;
  if (e == CZ_OK) e = msm_g1(&m->a, z, ZK_A, w, th);
  t1 = cz_now_ns();
  t[CZ_PHASE_MSM_A] += t1 - t0;
  t0 = t1;
  if (e == CZ_OK) e = msm_g1(&m->b1, z, ZK_B1, w, th);
  t1 = cz_now_ns();
  t[CZ_PHASE_MSM_B_G1] += t1 - t0;
  t0 = t1;
  if (e == CZ_OK) e = msm_b2(&m->b2, z, w, th);
  t1 = cz_now_ns();
  t[CZ_PHASE_MSM_B_G2] += t1 - t0;
  return e;
}

/* ---- the proof ----------------------------------------------------------- */

static cz_err check_args(const cz_zkey *z, const cz_fr *w, size_t n_w,
                         const cz_groth16_proof *proof, const cz_zkey_prove_opts *o) {
  if (!z || !w || !proof)
    return cz_msg_err(o->msg, o->msg_len, CZ_ERR_INVALID_ARG, "no key, witness or proof");
  if ((o->r == NULL) != (o->s == NULL))
    return cz_msg_err(o->msg, o->msg_len, CZ_ERR_INVALID_ARG, "r and s: both or neither");
  if (n_w != z->n_vars)
    return cz_msg_err(o->msg, o->msg_len, CZ_ERR_INVALID_ARG,
                      "the witness has %zu values, the key's circuit %zu", n_w, z->n_vars);
  if (!cz_fr_is_one(&w[0]))
    return cz_msg_err(o->msg, o->msg_len, CZ_ERR_INVALID_ARG,
                      "witness value 0 is not 1 (the constant signal)");
  return CZ_OK;
}

/* H's scalars (a pool block of n) from the witness, timed as synthesis
 * (a, b) and ntt_h. */
static cz_err h_scalars(const cz_zkey *z, const cz_fr *w, unsigned th, uint64_t *t, cz_fr **out) {
  const size_t bytes = z->domain_size * sizeof(cz_fr);
  uint64_t t0 = cz_now_ns();
  cz_fr *a = cz_pool_take(bytes), *b = cz_pool_take(bytes), *c = cz_pool_take(bytes);
  if (!a || !b || !c) {
    cz_pool_give(a), cz_pool_give(b), cz_pool_give(c);
    return CZ_ERR_NOMEM;
  }
  build_ab(z, w, a, b, th);
  uint64_t t1 = cz_now_ns();
  t[CZ_PHASE_SYNTHESIS] += t1 - t0;
  cz_zkey_hpoly(z, a, b, c, th);
  cz_pool_give(a);
  cz_pool_give(c);
  t[CZ_PHASE_NTT_H] += cz_now_ns() - t1;
  *out = b;
  return CZ_OK;
}

static cz_err blinding(const cz_zkey_prove_opts *o, cz_fr *r, cz_fr *s) {
  if (o->r) {
    *r = *o->r;
    *s = *o->s;
    return CZ_OK;
  }
  cz_err e = cz_g16_random_fr(r);
  if (e == CZ_OK) e = cz_g16_random_fr(s);
  return e;
}

/* The proof checked as a verifier would: points in the subgroup, and the
 * pairing equation with the public signals w[1 .. n_public]. */
static cz_err self_verify(const cz_zkey *z, const cz_fr *w, const cz_groth16_proof *p) {
  if (!cz_g1_affine_is_in_subgroup(&p->a) || !cz_g2_affine_is_in_subgroup(&p->b) ||
      !cz_g1_affine_is_in_subgroup(&p->c))
    return CZ_ERR_PROOF_INVALID;
  return cz_groth16_verify(&z->vk, w + 1, z->n_public, p);
}

cz_err cz_zkey_prove(const cz_zkey *z, const cz_fr *w, size_t n_w, cz_groth16_proof *proof,
                     const cz_zkey_prove_opts *opts) {
  const cz_zkey_prove_opts def = {0};
  const cz_zkey_prove_opts *o = opts ? opts : &def;
  cz_err e = check_args(z, w, n_w, proof, o);
  if (e != CZ_OK) return e;
  uint64_t t[CZ_PHASE_COUNT] = {0};
  uint64_t start = cz_now_ns();
  cz_fr r, s, *hs = NULL;
  msm_sums m;
  if ((e = blinding(o, &r, &s)) != CZ_OK)
    return cz_msg_err(o->msg, o->msg_len, e, "getrandom failed");
  if ((e = h_scalars(z, w, o->n_threads, t, &hs)) != CZ_OK ||
      (e = run_msms(z, w, hs, &m, o->n_threads, t)) != CZ_OK) {
    memset(&r, 0, sizeof r), memset(&s, 0, sizeof s);
    return cz_msg_err(o->msg, o->msg_len, e,
                      e == CZ_ERR_NOMEM ? "out of memory" : "MSM refused its input");
  }
  uint64_t t0 = cz_now_ns();
  cz_g16_assemble(&z->vk, &r, &s, &m.h, &m.l, &m.a, &m.b1, &m.b2, proof);
  memset(&r, 0, sizeof r), memset(&s, 0, sizeof s);
  t[CZ_PHASE_BATCH_ADD] = cz_now_ns() - t0;
  if (!o->no_verify && (e = self_verify(z, w, proof)) != CZ_OK) {
    memset(proof, 0, sizeof *proof);
    if (e == CZ_ERR_PROOF_INVALID)
      return cz_msg_err(o->msg, o->msg_len, e,
                        "the witness does not satisfy the circuit: its proof does not verify");
    return cz_msg_err(o->msg, o->msg_len, e, "verifying the proof failed (%s)", cz_err_str(e));
  }
  t[CZ_PHASE_TOTAL] = cz_now_ns() - start - t[CZ_PHASE_SYNTHESIS];
  for (int ph = CZ_PHASE_SYNTHESIS; ph <= CZ_PHASE_TOTAL; ph++)
    if (ph != CZ_PHASE_TAIL_MSM) cz_prove_timing_emit(o->timing, (cz_prove_phase)ph, t[ph]);
  return CZ_OK;
}
