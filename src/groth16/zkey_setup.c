/* A snarkjs .zkey made from known toxic waste (cuzk/zkey.h), for tests and
 * benchmarks: what `snarkjs groth16 setup` makes from a powers of tau of
 * tau, alpha, beta, followed by one contribution of delta, computed
 * directly from the scalars instead of from the ceremony's points.
 *
 * For the circuit's m = nConstraints + nPublic rows and the domain
 * n = 2^(floor(log2 m) + 1) of snarkjs's root w (zkey_new.js), with the
 * input constraints (row nConstraints + s has A coefficient 1 on signal
 * s <= nPublic) and L_c(tau) = (tau^n - 1) / n * w^c / (tau - w^c):
 *   u_s, v_s, w_s = the A, B, C columns of signal s times L(tau)
 *   A_s = u_s G1, B1_s = v_s G1, B2_s = v_s G2
 *   IC_s = (beta u_s + alpha v_s + w_s) G1                  s <= nPublic
 *   C_s  = (beta u_s + alpha v_s + w_s) / delta G1          s > nPublic
 *   H_j  = L'_(2j+1)(tau) / delta G1   (L' on the 2n-th roots w', w'^2 = w)
 * Sections are written in zkey_new.js's order (1, 2, 4, 3, 9, 8, 5, 6, 7,
 * 10); with delta = 1 sections 1 to 9 are byte for byte what snarkjs makes
 * from cz_ptau_write's file (tests/groth16/test_circom.sh compares them).
 * Section 10 holds a zero circuit hash and no contribution. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/parallel.h"
#include "groth16/binfile.h"
#include "groth16/g16_internal.h"
#include "groth16/zkey_internal.h"
#include "util/bigbuf.h"
#include "util/msg.h"

/* ---- scalars ----------------------------------------------------------------- */

cz_err cz_zkey_lagrange(cz_fr *out, unsigned log_m, const cz_fr *tau, size_t first, size_t step,
                        size_t count) {
  const size_t m = (size_t)1 << log_m;
  cz_fr w, wstep, wi, z, mf, *den = malloc((count ? count : 1) * sizeof *den);
  if (!den) return CZ_ERR_NOMEM;
  cz_zkey_snarkjs_root(&w, log_m);
  uint64_t e = first, es = step;
  cz_fr_pow(&wi, &w, &e, 1);
  cz_fr_pow(&wstep, &w, &es, 1);
  /* z = (tau^m - 1) / m */
  uint64_t em = m;
  cz_fr_pow(&z, tau, &em, 1);
  cz_fr_sub(&z, &z, &CZ_FR_ONE);
  cz_fr_from_u64(&mf, m);
  cz_fr_inv(&mf, &mf);
  cz_fr_mul(&z, &z, &mf);
  for (size_t i = 0; i < count; i++) {
    cz_fr_sub(&den[i], tau, &wi);
    if (cz_fr_is_zero(&den[i])) {
      free(den);
      return CZ_ERR_INVALID_ARG; /* tau is a root of unity */
    }
    cz_fr_mul(&out[i], &z, &wi);
    cz_fr_mul(&wi, &wi, &wstep);
  }
  cz_fr_batch_inv(den, den, count);
  for (size_t i = 0; i < count; i++) cz_fr_mul(&out[i], &out[i], &den[i]);
  free(den);
  return CZ_OK;
}

cz_err cz_zkey_toxic_random(cz_zkey_toxic *t) {
  cz_err e = cz_g16_random_fr(&t->tau);
  if (e == CZ_OK) e = cz_g16_random_fr(&t->alpha);
  if (e == CZ_OK) e = cz_g16_random_fr(&t->beta);
  if (e == CZ_OK) e = cz_g16_random_fr(&t->delta);
  return e;
}

unsigned cz_zkey_domain_power(size_t rows) {
  unsigned p = 0;
  while (((size_t)2 << p) <= rows) p++; /* floor(log2 rows) */
  return p + 1;
}

/* u, v, w (n_wires each) from the r1cs and the Lagrange values L. */
static void qap_columns(const cz_circom_r1cs *r, const cz_fr *L, cz_fr *u, cz_fr *v, cz_fr *w) {
  cz_fr *col[3] = {u, v, w};
  memset(u, 0, r->n_wires * sizeof *u);
  memset(v, 0, r->n_wires * sizeof *v);
  memset(w, 0, r->n_wires * sizeof *w);
  for (size_t k = 0; k < 3 * r->n_constraints; k++)
    for (uint32_t t = r->lc[k]; t < r->lc[k + 1]; t++) {
      cz_fr x;
      cz_fr_mul(&x, &r->coef[t], &L[k / 3]);
      cz_fr_add(&col[k % 3][r->wire[t]], &col[k % 3][r->wire[t]], &x);
    }
  for (size_t s = 0; s <= r->n_outputs + r->n_pub_inputs; s++)
    cz_fr_add(&u[s], &u[s], &L[r->n_constraints + s]);
}

/* ---- points --------------------------------------------------------------------- */

/* k_i G for i < n into out (affine = the zkey's encoding), zero scalars
 * left as infinity without a multiplication. */
static cz_err mul_g1(cz_g1_affine *out, const cz_fr *k, size_t n, unsigned th) {
  return cz_g16_fixed_base_g1(out, &CZ_G1_GENERATOR, k, n, th);
}

static cz_err mul_g2(cz_g2_affine *out, const cz_fr *k, size_t n, unsigned th) {
  return cz_g16_fixed_base_g2(out, &CZ_G2_GENERATOR, k, n, th);
}

/* A point section of n G1 points k_i G1 (or G2). */
static cz_err put_points(cz_binwriter *w, uint32_t id, const cz_fr *k, size_t n, bool g2,
                         unsigned th) {
  size_t item = g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine);
  void *pts = cz_huge_alloc(n ? n * item : 1);
  if (!pts) return CZ_ERR_NOMEM;
  cz_err e = g2 ? mul_g2(pts, k, n, th) : mul_g1(pts, k, n, th);
  if (e == CZ_OK) {
    cz_binw_section(w, id, (uint64_t)n * item);
    cz_binw_bytes(w, pts, n * item);
  }
  free(pts);
  return e;
}

/* ---- the file --------------------------------------------------------------- */

static void put_header(cz_binwriter *w, const cz_circom_r1cs *r, size_t n, const cz_zkey_toxic *t) {
  cz_g1_affine g1[3];
  cz_g2_affine g2[3];
  const cz_fr k1[3] = {t->alpha, t->beta, t->delta}, k2[3] = {t->beta, CZ_FR_ONE, t->delta};
  cz_g16_fixed_base_g1(g1, &CZ_G1_GENERATOR, k1, 3, 1);
  cz_g16_fixed_base_g2(g2, &CZ_G2_GENERATOR, k2, 3, 1);
  cz_binw_bytes(w, "zkey", 4);
  cz_binw_u32(w, 1);
  cz_binw_u32(w, 10);
  cz_binw_section(w, 1, 4);
  cz_binw_u32(w, 1); /* Groth16 */
  cz_binw_section(w, 2, 4 + 48 + 4 + 32 + 12 + 3 * 96 + 3 * 192);
  cz_binw_u32(w, 48);
  cz_binw_bytes(w, CZ_FP_MODULUS, 48);
  cz_binw_u32(w, 32);
  cz_binw_bytes(w, CZ_FR_MODULUS, 32);
  cz_binw_u32(w, (uint32_t)r->n_wires);
  cz_binw_u32(w, (uint32_t)(r->n_outputs + r->n_pub_inputs));
  cz_binw_u32(w, (uint32_t)n);
  cz_binw_bytes(w, &g1[0], 96);  /* alpha1 */
  cz_binw_bytes(w, &g1[1], 96);  /* beta1 */
  cz_binw_bytes(w, &g2[0], 192); /* beta2 */
  cz_binw_bytes(w, &g2[1], 192); /* gamma2 = G2 */
  cz_binw_bytes(w, &g1[2], 96);  /* delta1 */
  cz_binw_bytes(w, &g2[2], 192); /* delta2 */
}

/* One term of section 4: matrix, row, signal, coefficient * R^2 (stored
 * canonical). r2: the cz_fr whose words are R^2 mod r (the element 2^256). */
static void put_term(cz_binwriter *w, uint32_t m, uint32_t row, uint32_t sig, const cz_fr *coef,
                     const cz_fr *r2) {
  cz_fr x;
  cz_fr_mul(&x, coef, r2); /* words: coef R * R^2 / R */
  cz_binw_u32(w, m);
  cz_binw_u32(w, row);
  cz_binw_u32(w, sig);
  cz_binw_bytes(w, x.l, 32);
}

static void put_terms(cz_binwriter *w, const cz_circom_r1cs *r) {
  cz_fr r2;
  uint64_t e = 256;
  cz_fr_from_u64(&r2, 2);
  cz_fr_pow(&r2, &r2, &e, 1);
  size_t n_pub = r->n_outputs + r->n_pub_inputs, count = n_pub + 1;
  for (size_t k = 0; k < 3 * r->n_constraints; k++)
    if (k % 3 < 2) count += r->lc[k + 1] - r->lc[k];
  cz_binw_section(w, 4, 4 + 44 * (uint64_t)count);
  cz_binw_u32(w, (uint32_t)count);
  for (size_t k = 0; k < 3 * r->n_constraints; k++)
    for (uint32_t t = r->lc[k]; t < r->lc[k + 1] && k % 3 < 2; t++)
      put_term(w, (uint32_t)(k % 3), (uint32_t)(k / 3), r->wire[t], &r->coef[t], &r2);
  for (size_t s = 0; s <= n_pub; s++)
    put_term(w, 0, (uint32_t)(r->n_constraints + s), (uint32_t)s, &CZ_FR_ONE, &r2);
}

/* k_s = beta u_s + alpha v_s + w_s, over delta past the public signals. */
static void ic_c_scalars(const cz_circom_r1cs *r, const cz_zkey_toxic *t, const cz_fr *u,
                         const cz_fr *v, const cz_fr *w, cz_fr *k) {
  cz_fr dinv;
  cz_fr_inv(&dinv, &t->delta);
  size_t n_pub = r->n_outputs + r->n_pub_inputs;
  for (size_t s = 0; s < r->n_wires; s++) {
    cz_fr x;
    cz_fr_mul(&k[s], &t->beta, &u[s]);
    cz_fr_mul(&x, &t->alpha, &v[s]);
    cz_fr_add(&k[s], &k[s], &x);
    cz_fr_add(&k[s], &k[s], &w[s]);
    if (s > n_pub) cz_fr_mul(&k[s], &k[s], &dinv);
  }
}

/* The point sections, in zkey_new.js's order: IC, H, C, A, B1, B2. */
static cz_err put_all_points(cz_binwriter *zw, const cz_circom_r1cs *r, const cz_zkey_toxic *t,
                             unsigned power, cz_fr *L, cz_fr *cols, unsigned th) {
  const size_t nw = r->n_wires, n_pub = r->n_outputs + r->n_pub_inputs, n = (size_t)1 << power;
  cz_fr *u = cols, *v = cols + nw, *w = cols + 2 * nw, *k = cols + 3 * nw;
  qap_columns(r, L, u, v, w);
  ic_c_scalars(r, t, u, v, w, k);
  cz_err e = put_points(zw, 3, k, n_pub + 1, false, th);
  /* H: the odd Lagrange values of the 2n-th roots, over delta (into L) */
  if (e == CZ_OK) e = cz_zkey_lagrange(L, power + 1, &t->tau, 1, 2, n);
  if (e == CZ_OK) {
    cz_fr dinv;
    cz_fr_inv(&dinv, &t->delta);
    for (size_t j = 0; j < n; j++) cz_fr_mul(&L[j], &L[j], &dinv);
    e = put_points(zw, 9, L, n, false, th);
  }
  if (e == CZ_OK) e = put_points(zw, 8, k + n_pub + 1, nw - n_pub - 1, false, th);
  if (e == CZ_OK) e = put_points(zw, 5, u, nw, false, th);
  if (e == CZ_OK) e = put_points(zw, 6, v, nw, false, th);
  if (e == CZ_OK) e = put_points(zw, 7, v, nw, true, th);
  return e;
}

cz_err cz_zkey_setup(const cz_circom_r1cs *r, const cz_zkey_toxic *t, const char *path,
                     unsigned n_threads, char *msg, size_t msg_len) {
  if (!r || !t || !path) return CZ_ERR_INVALID_ARG;
  const size_t n_pub = r->n_outputs + r->n_pub_inputs;
  const unsigned power = cz_zkey_domain_power(r->n_constraints + n_pub);
  if (power > 31)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "zkey setup: domain 2^%u is too large",
                      power);
  if (cz_fr_is_zero(&t->delta))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "zkey setup: delta is zero");
  const size_t n = (size_t)1 << power;
  cz_fr *L = cz_huge_alloc(n * sizeof *L), *cols = cz_huge_alloc(4 * r->n_wires * sizeof *cols);
  FILE *f = fopen(path, "wb");
  cz_err e = !L || !cols ? CZ_ERR_NOMEM : !f ? CZ_ERR_IO : CZ_OK;
  if (e == CZ_OK && cz_zkey_lagrange(L, power, &t->tau, 0, 1, n) != CZ_OK) e = CZ_ERR_INVALID_ARG;
  cz_binwriter zw = {f, f != NULL};
  if (e == CZ_OK) {
    put_header(&zw, r, n, t);
    put_terms(&zw, r);
    e = put_all_points(&zw, r, t, power, L, cols, n_threads);
  }
  if (e == CZ_OK) {
    const uint8_t no_hash[64] = {0};
    cz_binw_section(&zw, 10, 68);
    cz_binw_bytes(&zw, no_hash, 64);
    cz_binw_u32(&zw, 0);
  }
  free(L);
  free(cols);
  return cz_binw_close(&zw, e, "zkey setup", "tau is a root of unity", msg, msg_len);
}
