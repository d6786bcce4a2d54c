/* Layer: ec */
/* The optimal ate pairing on BLS12-381, e: G1 x G2 -> GT (a subgroup of Fp12*),
 * x = -0xd201000000010000. Results match zkcrypto/blst/noble bit for bit.
 * Source: src/ec/pairing.c. Only cz_g2_prepare allocates; the loops keep
 * their state on the stack (pairs in chunks of 16), so nothing else can
 * fail. Any thread; a prepared point is read-only and may be shared. */
#ifndef CUZK_PAIRING_H
#define CUZK_PAIRING_H
#include "cuzk/fp12.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"

/* A G2 point with its Miller-loop line coefficients precomputed, for points
 * that take part in many pairings (verifying keys). */
typedef struct cz_g2_prepared cz_g2_prepared;

/* Allocates and fills a prepared form of q (NULL on allocation failure);
 * an identity q is allowed and contributes 1 to the loops below. q is
 * copied. The caller frees the result with cz_g2_prepared_free (NULL is
 * allowed there). */
cz_g2_prepared *cz_g2_prepare(const cz_g2_affine *q);
void cz_g2_prepared_free(cz_g2_prepared *pq);

/* f = prod_i MillerLoop(p[i], q[i]) for n pairs (sharing the squarings);
 * pairs with an identity (affine (0, 0)) are skipped; n = 0 gives f = 1.
 * Points must be on their curves and in the order-r subgroups (not checked). */
void cz_miller_loop(cz_fp12 *f, const cz_g1_affine *p, const cz_g2_affine *q, size_t n);
void cz_miller_loop_prepared(cz_fp12 *f, const cz_g1_affine *p, const cz_g2_prepared *const *q,
                             size_t n);
/* r = f^(3 (p^12 - 1) / r): like zkcrypto and noble (whose GT value
 * test_pairing reproduces bit for bit) the fast hard part computes the cube of the
 * textbook f^((p^12 - 1) / r); cubing is an automorphism of GT since 3 does
 * not divide r, so the pairing stays bilinear and non-degenerate. */
void cz_final_exponentiation(cz_fp12 *r, const cz_fp12 *f);
/* r = e(p, q). */
void cz_pairing(cz_fp12 *r, const cz_g1_affine *p, const cz_g2_affine *q);
/* True when prod_i e(p[i], q[i]) == 1. */
bool cz_pairing_product_is_one(const cz_g1_affine *p, const cz_g2_affine *q, size_t n);

#endif
