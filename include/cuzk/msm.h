/* Layer: msm */
/* Multi-scalar multiplication: out = sum_i k_i P_i over G1 or G2, the hot
 * kernel of the Groth16 prover.
 *
 * Algorithm (src/msm/msm_impl.h, one source for both groups): scalars equal
 * to 0 are dropped, scalars equal to 1 are summed by batched affine addition,
 * the rest go through Pippenger's bucket method with signed c-bit digits.
 * Where many of those are equal (PoSt witnesses repeat values across sector
 * slots), the bases of each equal scalar are first summed by batched affine
 * addition and the sum takes its place: one addition per base instead of
 * one per window (src/msm/msm_group.c; tried on 2^10..2^22 such scalars).
 * Buckets are affine and filled by batched affine additions sharing one field
 * inversion (Montgomery's trick) when the window is large, or XYZZ points when
 * batching does not pay. The window width c, the bucket representation and
 * the split of the points into chunks are chosen per call by a cost model
 * from the number of non-trivial scalars and the thread budget. Where the
 * CPU has AVX-512 IFMA (cz_cpu_use_ifma), the batched affine additions run 8
 * at a time on the 8-lane field (src/msm/msm_vec_impl.h); the window choice
 * does not depend on it, and the result is the same bits either way.
 *
 * Bases are affine, the identity written (0, 0); they are read in place, never
 * copied, and may be any points on the curve. Scalars are any 256-bit
 * integers (cz_scalar, reduced mod r here) or Montgomery-form cz_fr (converted
 * once, in parallel). The result is Jacobian. Every call is independent:
 * nothing is cached between calls. Variable time (public data or blinded
 * secrets only, as elsewhere in cuzk).
 *
 * Thread budget: n_threads workers at most, 0 = one per online core.
 * Working memory: 2 (floor(255/c) + 1) + 8 bytes per non-trivial scalar plus
 * 8 bytes per scalar equal to 1, and one bucket array per worker; where
 * equal scalars are looked for, 44 more bytes per non-trivial scalar while
 * planning, and a copy of every base whose scalar is repeated. */
#ifndef CUZK_MSM_H
#define CUZK_MSM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/err.h"
#include "cuzk/fr.h"
#include "cuzk/fr_packed.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"

/* A run of scalars and the bases that pair with them, in bellperson's
 * parameter layout. With density == NULL, scalar i pairs with bases[i] and
 * n_bases must equal n_scalars. Otherwise density is a bitmap over the
 * scalars (bit i is (density[i / 64] >> (i % 64)) & 1; bits at or past
 * n_scalars are ignored): bases holds only the entries whose bit is set, and
 * the j-th set bit pairs scalar i with bases[j], so n_bases must equal the
 * number of set bits. Exactly one of scalars (canonical integers), frs
 * (Montgomery form) and packed (a witness's packed values, whose n must
 * be at least n_scalars) is non-NULL, unless n_scalars is 0. Packed 0s and
 * 1s are sorted by their bits, without reading a value.
 *
 * A call takes several segments so that one MSM can span inputs and aux
 * (bellperson's b_g1/b_g2: the input density and its bases first, then the
 * aux density and its bases) without copying either. */
typedef struct {
  const cz_g1_affine *bases;
  size_t n_bases;
  const cz_scalar *scalars;
  const cz_fr *frs;
  size_t n_scalars;
  const uint64_t *density;
  const cz_fr_packed *packed;
} cz_msm_g1_segment;

typedef struct {
  const cz_g2_affine *bases;
  size_t n_bases;
  const cz_scalar *scalars;
  const cz_fr *frs;
  size_t n_scalars;
  const uint64_t *density;
  const cz_fr_packed *packed;
} cz_msm_g2_segment;

typedef enum {
  CZ_MSM_ACC_AUTO = 0,     /* cost model decides */
  CZ_MSM_ACC_XYZZ,         /* XYZZ buckets, mixed additions */
  CZ_MSM_ACC_BATCH_AFFINE, /* affine buckets, batched affine additions */
} cz_msm_accumulate;

/* Optional knobs (for tests and benchmarks) and a report of what was done.
 * Zero-initialise for automatic choices. */
typedef struct {
  /* in */
  unsigned window_bits; /* 1..16, 0 = choose */
  cz_msm_accumulate accumulate;
  unsigned point_chunks; /* split of the non-trivial scalars, 0 = choose */
  /* Keep to the scalar field code even where the 8-lane AVX-512 IFMA path
   * is available (for tests and benchmarks; the result is the same). */
  bool no_ifma;
  /* Never group equal scalars (for tests and benchmarks; same result). */
  bool no_grouping;
  /* out, set on success */
  unsigned used_window_bits;
  unsigned used_point_chunks;
  bool used_batch_affine;
  /* The 8-lane IFMA path was on for this call: its batched affine additions
   * (batches of 16 or more) ran 8 at a time. */
  bool used_ifma;
  size_t n_zero, n_one, n_other; /* scalars by class (after density selection) */
  /* Distinct non-trivial scalars bucketed (n_other when not grouped) and how
   * many of them stand for several bases. */
  size_t n_distinct, n_multi;
  /* The call's critical path in thread CPU time: the caller's own CPU time
   * plus, for each parallel phase, how much longer its busiest worker ran.
   * About the wall time on otherwise idle cores, so thread scaling can be
   * judged on a shared machine. */
  double cpu_critical_ms;
} cz_msm_opts;

/* out = sum over all segments of the paired k_i P_i (identity when empty).
 * opts may be NULL. Returns CZ_ERR_INVALID_ARG when a segment's n_bases does
 * not match its scalars and density, or its pointers are NULL where needed, or
 * window_bits > 16; CZ_ERR_NOMEM when working memory cannot be allocated. On
 * error *out is the identity. */
CZ_MUST_CHECK cz_err cz_msm_g1_segments(cz_g1 *out, const cz_msm_g1_segment *segs, size_t n_segs,
                                        unsigned n_threads, cz_msm_opts *opts);
CZ_MUST_CHECK cz_err cz_msm_g2_segments(cz_g2 *out, const cz_msm_g2_segment *segs, size_t n_segs,
                                        unsigned n_threads, cz_msm_opts *opts);

/* The one-segment forms without density: out = sum_{i < n} k_i P_i. */
CZ_MUST_CHECK cz_err cz_msm_g1(cz_g1 *out, const cz_g1_affine *bases, const cz_scalar *scalars,
                               size_t n, unsigned n_threads);
CZ_MUST_CHECK cz_err cz_msm_g1_fr(cz_g1 *out, const cz_g1_affine *bases, const cz_fr *scalars,
                                  size_t n, unsigned n_threads);
CZ_MUST_CHECK cz_err cz_msm_g2(cz_g2 *out, const cz_g2_affine *bases, const cz_scalar *scalars,
                               size_t n, unsigned n_threads);
CZ_MUST_CHECK cz_err cz_msm_g2_fr(cz_g2 *out, const cz_g2_affine *bases, const cz_fr *scalars,
                                  size_t n, unsigned n_threads);

#endif
