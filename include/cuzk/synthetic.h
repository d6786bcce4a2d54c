/* Layer: groth16 */
/* Synthetic circuits for tests and benchmarks (cuzk-bench prove;
 * src/groth16/synthetic.c). Both run on every constraint-system backend;
 * values are computed only when the backend needs them (then x must not be
 * NULL: CZ_ERR_INVALID_ARG, not sticky, nothing done).
 *
 *  chain:  public input x; aux x_1 .. x_n with x_1 = x * x and
 *          x_{i+1} = x_i * x_i: n constraints, a dense witness.
 *  sparse: public input x; aux y = x * x, then n - 1 aux bits b_i with
 *          b_i * (1 - b_i) = 0, each 1 with probability 1/4 (from seed):
 *          n constraints, a witness of mostly 0/1 values.
 * Either adds 1 input (2 with ONE), so after cz_cs_finish the system has
 * n + 2 constraints; pass n = 2^k - 2 for a domain of exactly 2^k. (sparse
 * with n = 0 adds nothing at all, not even x.)
 * Returns the constraint system's sticky error. */
#ifndef CUZK_SYNTHETIC_H
#define CUZK_SYNTHETIC_H
#include <stdint.h>
#include "cuzk/cs.h"

#define CZ_SYNTHETIC_INPUTS 2 /* ONE and x */

CZ_MUST_CHECK cz_err cz_synthetic_chain(cz_cs *cs, size_t n, const cz_fr *x);
CZ_MUST_CHECK cz_err cz_synthetic_sparse(cz_cs *cs, size_t n, const cz_fr *x, uint64_t seed);

/* By name: "chain" or "sparse" (CZ_ERR_INVALID_ARG otherwise). */
CZ_MUST_CHECK cz_err cz_synthetic_by_name(const char *shape, cz_cs *cs, size_t n, const cz_fr *x,
                                          uint64_t seed);

#endif
