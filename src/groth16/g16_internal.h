/* Helpers shared by the Groth16 setup, parameter files and prover. */
#ifndef CUZK_GROTH16_INTERNAL_H
#define CUZK_GROTH16_INTERNAL_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/fr.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"
#include "util/msg.h"
#include "cuzk/cs.h"
#include "cuzk/groth16.h"
#include "cuzk/params.h"
#include "cuzk/groth16_prove.h"
#include "cuzk/progress.h"

/* printf into msg when msg is not NULL (always NUL-terminated). */

/* n bytes from getrandom; CZ_ERR_IO when the OS generator fails. */
cz_err cz_g16_random_bytes(void *out, size_t n);
/* A uniform non-zero field element from getrandom. */
cz_err cz_g16_random_fr(cz_fr *out);
/* r and s of proof i of a batch: opts->r/s when injected, else getrandom
 * (CZ_ERR_IO with opts->msg said). Both backends draw them here. */
cz_err cz_g16_blinding(const cz_prove_opts *opts, size_t i, cz_fr *r, cz_fr *s);

/* Big vectors: anonymous mmap, page aligned; NULL when n == 0 or on
 * failure (check n first). cz_g16_big_free takes the same n. */
void *cz_g16_big_alloc(size_t n);
void cz_g16_big_free(void *p, size_t n);

/* Parameter files (params_io.c). The vk of buf into p->vk and the counts
 * into p's counts, start[v] the offset of vector v's first point (h, l,
 * a, b_g1, b_g2: file order); every length checked against len. On
 * error *p is zeroed and msg says where. */
cz_err cz_g16_params_head(cz_groth16_params *p, const uint8_t *buf, size_t len, size_t start[5],
                          char *msg, size_t msg_len);
/* Decodes and subgroup-checks every point of a mapped p (into no memory),
 * on n_threads workers; msg names the first bad point. */
cz_err cz_g16_params_check_points(cz_groth16_params *p, const uint8_t *buf, const size_t start[5],
                                  unsigned n_threads, char *msg, size_t msg_len);
/* n points from their file encoding src into dst (cz_g1_affine, or
 * cz_g2_affine when g2), with the checks named by check; the point at
 * infinity is refused (CZ_ERR_BAD_FLAGS), as in every parameter vector.
 * *bad = the first failing index. */
cz_err cz_g16_decode_points(void *dst, const uint8_t *src, size_t n, bool g2, cz_point_check check,
                            size_t *bad);

/* Fixed-base scalar multiplication of many scalars by one base, as
 * bellperson's generator does with its wNAF tables: out[i] = k[i] * base
 * (k Montgomery), affine, computed by n_threads workers. CZ_ERR_NOMEM when
 * the table or scratch cannot be allocated. */
cz_err cz_g16_fixed_base_g1(cz_g1_affine *out, const cz_g1_affine *base, const cz_fr *k, size_t n,
                            unsigned n_threads);
cz_err cz_g16_fixed_base_g2(cz_g2_affine *out, const cz_g2_affine *base, const cz_fr *k, size_t n,
                            unsigned n_threads);
/* The same with the signed-digit window width w (1..16) given instead of
 * chosen (for tests of every width); CZ_ERR_INVALID_ARG for other w. */
cz_err cz_g16_fixed_base_g1_window(cz_g1_affine *out, const cz_g1_affine *base, const cz_fr *k,
                                   size_t n, unsigned w, unsigned n_threads);
cz_err cz_g16_fixed_base_g2_window(cz_g2_affine *out, const cz_g2_affine *base, const cz_fr *k,
                                   size_t n, unsigned w, unsigned n_threads);
/* cz_g16_fixed_base_g1/g2 adding weight units to *pc (may be NULL) per
 * scalar done, a chunk of scalars at a time, from the workers. */
cz_err cz_g16_fixed_base_g1_progress(cz_g1_affine *out, const cz_g1_affine *base, const cz_fr *k,
                                     size_t n, unsigned n_threads, cz_progress_counter *pc,
                                     unsigned weight);
cz_err cz_g16_fixed_base_g2_progress(cz_g2_affine *out, const cz_g2_affine *base, const cz_fr *k,
                                     size_t n, unsigned n_threads, cz_progress_counter *pc,
                                     unsigned weight);

/* Setup's shared steps (setup.c): gamma and delta inverted, the toxic
 * waste refused (CZ_ERR_INVALID_ARG, msg says why) when gamma, delta, alpha
 * or beta is zero; the vk's fixed points (alpha, beta, gamma, delta; IC is
 * the caller's). */
cz_err cz_g16_toxic_check(const cz_groth16_toxic *t, cz_fr *gamma_inv, cz_fr *delta_inv, char *msg,
                          size_t msg_len);
void cz_g16_setup_vk(cz_groth16_vk *vk, const cz_groth16_toxic *t);

/* A fixed-base table kept for many calls (the streaming setup multiplies
 * chunk after chunk by one base): built once for window w (1..16), then
 * g16_fixed_base_*_tab_mul works as g16_fixed_base_*_progress with it
 * (keeping its workers' scratch in t: one call at a time per table).
 * tab_new: CZ_ERR_INVALID_ARG for another w, CZ_ERR_NOMEM; tab_free
 * releases it (also after a failed tab_new). */
typedef struct {
  cz_g1_affine *table;
  unsigned w, nwin;
  uint8_t *scratch; /* the workers', kept from call to call */
  size_t scratch_cap;
} cz_g16_fixed_base_g1_tab;
typedef struct {
  cz_g2_affine *table;
  unsigned w, nwin;
  uint8_t *scratch;
  size_t scratch_cap;
} cz_g16_fixed_base_g2_tab;
cz_err cz_g16_fixed_base_g1_tab_new(cz_g16_fixed_base_g1_tab *t, const cz_g1_affine *base,
                                    unsigned w);
cz_err cz_g16_fixed_base_g2_tab_new(cz_g16_fixed_base_g2_tab *t, const cz_g2_affine *base,
                                    unsigned w);
void cz_g16_fixed_base_g1_tab_free(cz_g16_fixed_base_g1_tab *t);
void cz_g16_fixed_base_g2_tab_free(cz_g16_fixed_base_g2_tab *t);
cz_err cz_g16_fixed_base_g1_tab_mul(cz_g16_fixed_base_g1_tab *t, cz_g1_affine *out, const cz_fr *k,
                                    size_t n, unsigned n_threads, cz_progress_counter *pc,
                                    unsigned weight);
cz_err cz_g16_fixed_base_g2_tab_mul(cz_g16_fixed_base_g2_tab *t, cz_g2_affine *out, const cz_fr *k,
                                    size_t n, unsigned n_threads, cz_progress_counter *pc,
                                    unsigned weight);
/* The window the automatic choice takes for n scalars. */
unsigned cz_g16_fixed_base_pick_window(size_t n);

/* One MSM term run, in bellperson's layout: scalars frs[0..n_scalars)
 * (or the packed aux values, when packed is set) and, with density !=
 * NULL, bases only for the scalars whose bit is set (the j-th set bit pairs
 * with bases[j]); without density bases[i] pairs frs[i]. */
typedef struct {
  const void *bases; /* cz_g1_affine or cz_g2_affine */
  size_t n_bases;
  const cz_fr *frs;
  size_t n_scalars;
  const uint64_t *density;
  const cz_fr_packed *packed;
  /* NULL: bases are decoded points. Else they are encodings inside
   * key->file, decoded a slice at a time (prover_msm_mapped.c). */
  const cz_params_mapping *key;
} g16_msm_seg;

/* The parameter vectors, in file order. */
typedef enum { G16_H, G16_L, G16_A, G16_B_G1, G16_B_G2 } g16_vec;

/* Point i of vector v of p: a cz_g1_affine / cz_g2_affine of a decoded
 * key, or the first byte of its encoding in a mapped one. */
const void *cz_g16_point_at(const cz_groth16_params *p, g16_vec v, size_t i);
/* The two segments of the b query of vector v (G16_B_G1 or G16_B_G2):
 * the inputs of the b_input density, then the aux of b_aux. */
void cz_g16_b_segments(g16_msm_seg seg[2], const cz_groth16_params *p, g16_vec v,
                       const cz_assignment *as);

/* out = sum over the segments, through cz_msm (prover_msm.c): the one
 * place the prover calls the MSM. Encoded segments are decoded a slice
 * at a time (prover_msm_mapped.c); a point that does not decode fails
 * the call with the decoder's error. */
cz_err cz_g16_msm_g1(cz_g1 *out, const g16_msm_seg *segs, size_t n_segs, unsigned n_threads);
cz_err cz_g16_msm_g2(cz_g2 *out, const g16_msm_seg *segs, size_t n_segs, unsigned n_threads);

/* Adds the MSM of one decoded segment into acc (a cz_g1 or cz_g2). */
typedef cz_err (*g16_slice_msm)(void *acc, const g16_msm_seg *seg, unsigned n_threads);
/* The MSM of encoded segments (prover_msm_mapped.c), slice by slice
 * through msm into acc (which the caller set to the identity).
 * CZ_ERR_INVALID_ARG when a segment's bases do not match its scalars,
 * the decoder's error for a bad point, CZ_ERR_NOMEM, or msm's. */
cz_err cz_g16_msm_mapped(const g16_msm_seg *segs, size_t n_segs, bool g2, g16_slice_msm msm,
                         void *acc, unsigned n_threads);
/* Decoded bytes per slice (0: the default, 256 MiB); for tests. */
void cz_g16_set_slice_bytes(size_t bytes);
/* Mapped keys with a descriptor and at most this many bytes have their
 * slices copied, larger ones are read in place (0: the default, half the
 * memory; 1: none copied); for tests. */
void cz_g16_set_key_copy_limit(size_t bytes);
/* Nanoseconds the decoders have waited for the disk, process-wide. */
uint64_t cz_g16_key_wait_ns(void);

/* The prover's pieces every backend shares (prover.c). */
/* CZ_ERR_INVALID_ARG, with msg saying which count disagrees, when as does
 * not fit p for a domain of n_dom points. */
cz_err cz_g16_check_fit(const cz_groth16_params *p, const cz_assignment *as, size_t n_dom,
                        char *msg, size_t msg_len);
/* The proof from the MSM results h, l, a, b1 (G1) and b2 (G2) and r, s. */
void cz_g16_assemble(const cz_groth16_vk *vk, const cz_fr *r, const cz_fr *s, const cz_g1 *h,
                     const cz_g1 *l, const cz_g1 *a, const cz_g1 *b1, const cz_g2 *b2,
                     cz_groth16_proof *proof);

#endif
