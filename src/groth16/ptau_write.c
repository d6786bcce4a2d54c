/* A minimal prepared powers of tau of known toxic waste (cuzk/zkey.h), in
 * snarkjs's .ptau layout: what `snarkjs groth16 setup` reads for a circuit
 * whose domain is exactly 2^P, as bench/snarkjs/fast_ptau.mjs writes it
 * (seconds here where that takes minutes): tests compare the key snarkjs
 * makes from it with cz_zkey_setup's.
 *
 * Layout (powersoftau_new.js, preparephase2.js): "ptau", u32 version 1,
 * u32 11 sections. 1: u32 n8q, q, u32 power, u32 ceremony power; 2: tau^i
 * G1 (2^(P+1) - 1 points); 3: tau^i G2 (2^P); 4, 5: alpha, beta tau^i G1
 * (2^P); 6: beta G2; 7: u32 contributions (0); 12 to 15: the Lagrange
 * forms of 2 to 5 for p = 0 .. P one after the other (12 also p = P + 1).
 * Filled here: the first points of 2 to 5 (G1, G2 and tau G2, alpha G1,
 * beta G1), section 6, the blocks of power P of 12 to 15, and the odd
 * points of block P + 1 of 12 (H); every other point is infinity (zeros),
 * so the file suits no other domain and `powersoftau verify` refuses it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "groth16/binfile.h"
#include "groth16/g16_internal.h"
#include "groth16/zkey_internal.h"
#include "util/bigbuf.h"
#include "util/msg.h"

/* A section of `total` points whose first `n` are k_i G (G1 or G2), after
 * `skip` infinity points. */
static cz_err pw_points(cz_binwriter *w, const cz_fr *k, size_t n, size_t skip, size_t total,
                        bool g2, unsigned th) {
  size_t item = g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine);
  void *pts = cz_huge_alloc(n ? n * item : 1);
  if (!pts) return CZ_ERR_NOMEM;
  cz_err e = g2 ? cz_g16_fixed_base_g2(pts, &CZ_G2_GENERATOR, k, n, th)
                : cz_g16_fixed_base_g1(pts, &CZ_G1_GENERATOR, k, n, th);
  if (e == CZ_OK) {
    cz_binw_zeros(w, skip * item);
    cz_binw_bytes(w, pts, n * item);
    cz_binw_zeros(w, (total - skip - n) * item);
  }
  free(pts);
  return e;
}

/* Sections 12 to 15: k L_c(tau) in block P (after the blocks 0 .. P - 1),
 * and for 12 the odd points of block P + 1. */
static cz_err pw_lagrange(cz_binwriter *w, unsigned P, const cz_fr *L, const cz_fr *Lodd,
                          cz_fr *tmp, unsigned th, const cz_zkey_toxic *t) {
  const size_t n = (size_t)1 << P, sg1 = sizeof(cz_g1_affine), sg2 = sizeof(cz_g2_affine);
  cz_err e = CZ_OK;
  cz_binw_section(w, 12, (4 * n - 1) * sg1);
  e = pw_points(w, L, n, n - 1, n - 1 + n, false, th);
  cz_g1_affine *odd = e == CZ_OK ? cz_huge_alloc(n * sg1) : NULL;
  if (e == CZ_OK && !odd) e = CZ_ERR_NOMEM;
  if (e == CZ_OK) e = cz_g16_fixed_base_g1(odd, &CZ_G1_GENERATOR, Lodd, n, th);
  for (size_t j = 0; j < n && e == CZ_OK; j++) { /* block P + 1: odd points only */
    cz_binw_zeros(w, sg1);
    cz_binw_bytes(w, &odd[j], sg1);
  }
  free(odd);
  if (e == CZ_OK) {
    cz_binw_section(w, 13, (2 * n - 1) * sg2);
    e = pw_points(w, L, n, n - 1, 2 * n - 1, true, th);
  }
  const cz_fr *scale[2] = {&t->alpha, &t->beta};
  for (int s = 0; s < 2 && e == CZ_OK; s++) {
    for (size_t c = 0; c < n; c++) cz_fr_mul(&tmp[c], &L[c], scale[s]);
    cz_binw_section(w, 14 + (uint32_t)s, (2 * n - 1) * sg1);
    e = pw_points(w, tmp, n, n - 1, 2 * n - 1, false, th);
  }
  return e;
}

/* Sections 1 to 7. */
static cz_err pw_head(cz_binwriter *w, unsigned P, const cz_zkey_toxic *t, unsigned th) {
  const size_t n = (size_t)1 << P, sg1 = sizeof(cz_g1_affine), sg2 = sizeof(cz_g2_affine);
  const cz_fr g2k[2] = {CZ_FR_ONE, t->tau};
  cz_binw_bytes(w, "ptau", 4);
  cz_binw_u32(w, 1);
  cz_binw_u32(w, 11);
  cz_binw_section(w, 1, 4 + 48 + 8);
  cz_binw_u32(w, 48);
  cz_binw_bytes(w, CZ_FP_MODULUS, 48);
  cz_binw_u32(w, P);
  cz_binw_u32(w, P);
  cz_binw_section(w, 2, (2 * n - 1) * sg1);
  cz_err e = pw_points(w, &CZ_FR_ONE, 1, 0, 2 * n - 1, false, th);
  if (e == CZ_OK) cz_binw_section(w, 3, n * sg2), e = pw_points(w, g2k, 2, 0, n, true, th);
  if (e == CZ_OK) cz_binw_section(w, 4, n * sg1), e = pw_points(w, &t->alpha, 1, 0, n, false, th);
  if (e == CZ_OK) cz_binw_section(w, 5, n * sg1), e = pw_points(w, &t->beta, 1, 0, n, false, th);
  if (e == CZ_OK) cz_binw_section(w, 6, sg2), e = pw_points(w, &t->beta, 1, 0, 1, true, th);
  cz_binw_section(w, 7, 4);
  cz_binw_u32(w, 0);
  return e;
}

cz_err cz_ptau_write(unsigned power, const cz_zkey_toxic *t, const char *path, unsigned n_threads,
                     char *msg, size_t msg_len) {
  if (!t || !path || power < 1 || power > 27)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "ptau: power must be 1..27");
  const size_t n = (size_t)1 << power;
  cz_fr *L = cz_huge_alloc(3 * n * sizeof *L);
  FILE *f = fopen(path, "wb");
  cz_err e = !L ? CZ_ERR_NOMEM : !f ? CZ_ERR_IO : CZ_OK;
  if (e == CZ_OK && (cz_zkey_lagrange(L, power, &t->tau, 0, 1, n) != CZ_OK ||
                     cz_zkey_lagrange(L + n, power + 1, &t->tau, 1, 2, n) != CZ_OK))
    e = CZ_ERR_INVALID_ARG;
  cz_binwriter w = {f, f != NULL};
  if (e == CZ_OK) e = pw_head(&w, power, t, n_threads);
  if (e == CZ_OK) e = pw_lagrange(&w, power, L, L + n, L + 2 * n, n_threads, t);
  free(L);
  return cz_binw_close(&w, e, "ptau", "tau is a root of unity", msg, msg_len);
}
