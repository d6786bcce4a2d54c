/* Layer: groth16 */
/* Groth16 parameters (proving keys) in bellperson's file layout, and the
 * setup that makes them for our own and test circuits.
 *
 * File layout (bellperson's Parameters::write, all points uncompressed):
 *   vk (cz_groth16_vk_write, uncompressed)
 *   u32 BE count | count x G1   h     (tau^i Z(tau) / delta, i < n - 1)
 *   u32 BE count | count x G1   l     ((beta u + alpha v + w)(tau) / delta, aux)
 *   u32 BE count | count x G1   a     (u(tau), non-zero ones only: all inputs,
 *                                       then the aux of the prover's a_aux density)
 *   u32 BE count | count x G1   b_g1  (v(tau), non-zero ones only: inputs of the
 *                                       b_input density, then aux of b_aux)
 *   u32 BE count | count x G2   b_g2  (same entries as b_g1, in G2)
 * where n = 2^k >= m is the domain of the m constraints (input constraints
 * included). Like bellperson's readers, no vector may hold the point at
 * infinity: the generator filters zero evaluations out of a/b and refuses
 * unconstrained aux (l), and a real h never holds it.
 *
 * Vectors are allocated with mmap (page aligned, released with the params).
 * Sources: src/groth16/params_io.c (files), setup.c and fixed_base.c
 * (setup). A loaded cz_groth16_params is read-only to the provers: any
 * number of proofs may use one at the same time. */
#ifndef CUZK_PARAMS_H
#define CUZK_PARAMS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/cs.h"
#include "cuzk/groth16.h"
#include "cuzk/progress.h"

/* A mapped key's file: its bytes (mapped read-only, or a caller's buffer)
 * and, per vector, where its first encoded point is. The points stay in
 * the file's encoding; the prover decodes them slice by slice as its MSMs
 * reach them (src/groth16/prover_msm_mapped.c), so the key costs page
 * cache, not process memory. */
typedef struct {
  const uint8_t *file; /* NULL: the key is decoded */
  size_t len;
  const uint8_t *h, *l, *a, *b_g1, *b_g2;
  bool owned; /* mapped by cz_groth16_params_map: unmapped, fd closed, on free */
  /* -1, or a descriptor of the mapped file, open as long as the mapping.
   * With it, the prover reads the file ahead of its MSMs, copies the slices
   * of a key the page cache can keep (pread: cheaper than re-reading it
   * through the mapping) and drops a larger key's pages from the process
   * after each slice (src/groth16/prover_msm_mapped.c); without it, the
   * key is read in place like any buffer. Set by cz_groth16_params_map; a
   * caller of cz_groth16_params_view over a file mapping may set it (the
   * descriptor stays the caller's to close). */
  int fd;
} cz_params_mapping;

/* Decoded (h .. b_g2 set, map.file NULL) or mapped (h .. b_g2 NULL,
 * map.file set); the counts and vk are set either way. */
typedef struct {
  cz_groth16_vk vk;
  size_t n_h, n_l, n_a, n_b_g1, n_b_g2;
  cz_g1_affine *h, *l, *a, *b_g1;
  cz_g2_affine *b_g2;
  cz_params_mapping map;
} cz_groth16_params;

static inline bool cz_groth16_params_is_mapped(const cz_groth16_params *p) {
  return p->map.file != NULL;
}

/* Toxic waste. Setup uses the standard generators of G1 and G2 (bellperson
 * draws random ones; any generator gives an equally valid key). */
typedef struct {
  cz_fr tau, alpha, beta, gamma, delta;
} cz_groth16_toxic;

/* Fill t with non-zero uniform values from getrandom (CZ_ERR_IO if the OS
 * generator fails). */
CZ_MUST_CHECK cz_err cz_groth16_toxic_random(cz_groth16_toxic *t);

/* Parameters for the circuit whose KEYGEN columns are cols (cz_cs_take_keygen
 * after cz_cs_finish, input constraints included), exactly as bellperson's
 * generate_parameters computes them: evaluations at tau through the Lagrange
 * basis of the domain, points by fixed-base windowed multiplication of the
 * generators, zero a/b evaluations filtered out.
 * Errors (CZ_ERR_INVALID_ARG, with a message in msg when msg != NULL):
 * gamma or delta zero; tau in the domain (Z(tau) = 0); an aux variable that
 * no constraint uses (bellperson's UnconstrainedVariable: its l point would
 * be the identity); an input whose IC point is the identity; toxic waste so
 * unlucky that a column with a non-zero coefficient evaluates to zero at tau
 * (the prover's densities would then not match the filtered vectors);
 * alpha or beta zero; malformed columns (no input or constraint, offsets
 * not ascending, an entry past the constraint count); no evaluation domain
 * (more than 2^31 constraints). CZ_ERR_NOMEM when memory runs out. On
 * error *out is zeroed. The caller owns *out and frees it with
 * cz_groth16_params_free. n_threads: 0 = all online cores. */
CZ_MUST_CHECK cz_err cz_groth16_setup(cz_groth16_params *out, const cz_keygen_cols *cols,
                                      const cz_groth16_toxic *t, unsigned n_threads, char *msg,
                                      size_t msg_len);
/* The same, reporting phase "setup" in "points" (fixed-base
 * multiplications, a G2 one counted as 3) to progress (NULL: none), from
 * the worker threads. The total is an upper bound until the a/b counts are
 * known, then exact. */
CZ_MUST_CHECK cz_err cz_groth16_setup_progress(cz_groth16_params *out, const cz_keygen_cols *cols,
                                               const cz_groth16_toxic *t, unsigned n_threads,
                                               const cz_progress *progress, char *msg,
                                               size_t msg_len);

/* ---- Streaming setup (src/groth16/setup_stream.c) ------------------------
 * The parameters cz_groth16_setup + cz_groth16_params_save would write,
 * byte for byte, made from the circuit's evaluations at tau (cz_qap_evals:
 * a KEYGEN run at a point, cuzk/cs.h, or cz_groth16_qap_from_cols) and
 * written straight to disk vector by vector in chunks of up to 2^18 points, so
 * memory holds the evaluations (96 bytes per variable) and a few chunks,
 * never the key.
 *  - path's file system must have the file's size plus keep_free bytes
 *    free (statvfs), else CZ_ERR_IO and msg says both figures.
 *  - The file is written as <path>.tmp.<pid> and renamed over path once
 *    whole and fsynced: a killed run leaves only a temporary no reader
 *    opens. Temporaries of path left by processes that no longer run are
 *    removed first. A run is not resumed: that would need the toxic waste
 *    kept on disk, which a setup must discard.
 *  - A failed write (CZ_ERR_IO) removes the temporary; msg names it, the
 *    reason (strerror) and the bytes the file needs.
 * ev must be evaluated at t->tau (checked only as far as Z(tau) != 0);
 * its w is overwritten (the IC / L scalars). Other errors as
 * cz_groth16_setup's (degenerate toxic waste, unconstrained aux),
 * CZ_ERR_NOMEM. Progress: phase "setup" in "points" as cz_groth16_setup. */
typedef struct {
  unsigned n_threads;          /* 0 = all cores */
  const cz_progress *progress; /* NULL: none */
  uint64_t keep_free;          /* bytes that must stay free besides the file */
  size_t chunk;                /* points per chunk; 0 = 2^18 (the same bytes
                                  for any value) */
} cz_groth16_stream_opts;

CZ_MUST_CHECK cz_err cz_groth16_setup_stream(const char *path, cz_qap_evals *ev,
                                             const cz_groth16_toxic *t,
                                             const cz_groth16_stream_opts *o, char *msg,
                                             size_t msg_len);

/* The evaluations of a circuit's KEYGEN columns at tau, computed as
 * cz_groth16_setup does (powers of tau, inverse FFT): for callers that
 * have the columns. CZ_ERR_INVALID_ARG (msg says why: malformed columns,
 * no domain, tau in the domain), CZ_ERR_NOMEM. Free with cz_qap_evals_free. */
CZ_MUST_CHECK cz_err cz_groth16_qap_from_cols(cz_qap_evals *out, const cz_keygen_cols *cols,
                                              const cz_fr *tau, unsigned n_threads, char *msg,
                                              size_t msg_len);

/* Bytes of the file layout above. */
size_t cz_groth16_params_file_size(const cz_groth16_params *p);

/* Encode p into out (cz_groth16_params_file_size(p) bytes) in the layout
 * above; returns the byte count (the size needed when out is NULL). For
 * small parameter sets: large ones go to disk through cz_groth16_params_save. */
size_t cz_groth16_params_write(uint8_t *out, const cz_groth16_params *p);

/* Write p to path in the layout above (CZ_ERR_IO when it cannot be written
 * or a count exceeds the u32 field, CZ_ERR_NOMEM for the 64 KiB buffer; a
 * partial file may be left: callers that need atomicity write to a
 * temporary name and rename). */
CZ_MUST_CHECK cz_err cz_groth16_params_save(const cz_groth16_params *p, const char *path);
/* The same, reporting phase "write params" in bytes of the file to
 * progress (NULL: none), from the calling thread. */
CZ_MUST_CHECK cz_err cz_groth16_params_save_progress(const cz_groth16_params *p, const char *path,
                                                     const cz_progress *progress);

/* Decode parameters from buf (len bytes, exactly one parameter set).
 * checked: every point is fully validated (flags, canonical coordinates,
 * curve equation, subgroup). Unchecked (trusted local files): the same
 * except the subgroup test, the only costly part; note bellperson's
 * unchecked read also skips the curve equation, we keep it because it is
 * cheap and keeps off-curve garbage out of the MSM. Both refuse the point at
 * infinity (CZ_ERR_BAD_FLAGS), as bellperson does in every vector.
 * Vectors are decoded in parallel chunks with n_threads workers (0 = all).
 * Errors: CZ_ERR_TRUNCATED (a count or the points it announces run past the
 * end), CZ_ERR_TRAILING (bytes after b_g2: bellperson's readers ignore them,
 * we refuse them, since neither writer produces them and a longer file is
 * not the one its digest was computed for), or the point decoder's error;
 * msg (when not NULL) names the vector, the point index and its byte offset
 * ("" on success); CZ_ERR_NOMEM; CZ_ERR_INVALID_ARG for buf NULL with len
 * > 0. On error *p is zeroed and owns nothing; on success the caller frees
 * it with cz_groth16_params_free. buf is not referenced afterwards. */
CZ_MUST_CHECK cz_err cz_groth16_params_read(cz_groth16_params *p, const uint8_t *buf, size_t len,
                                            bool checked, unsigned n_threads, char *msg,
                                            size_t msg_len);

/* Same, from a file read through mmap (CZ_ERR_IO when it cannot be opened or
 * mapped; msg then says why). The mapping is released before returning. */
CZ_MUST_CHECK cz_err cz_groth16_params_load(cz_groth16_params *p, const char *path, bool checked,
                                            unsigned n_threads, char *msg, size_t msg_len);
/* The same, reporting phase "load params" in bytes of the file decoded to
 * progress (NULL: none), from the decoding workers. */
CZ_MUST_CHECK cz_err cz_groth16_params_load_progress(cz_groth16_params *p, const char *path,
                                                     bool checked, unsigned n_threads,
                                                     const cz_progress *progress, char *msg,
                                                     size_t msg_len);

/* A mapped key over buf (len bytes, exactly one parameter set), which
 * must stay readable and unchanged until p is freed: the vk is decoded
 * and checked, the counts and lengths are checked as
 * cz_groth16_params_read checks them, and the first and last point of
 * every vector are decoded (a file of another layout fails here, not in
 * a proof). checked: every point is decoded and subgroup-checked now, on
 * n_threads workers, into no memory (as slow as a checked load). Other
 * points are decoded by the prover when it reads them, their encodings
 * checked but not the curve equation: a bad encoding fails that proof, an
 * off-curve point makes it fail verification. map.fd is -1. Errors and
 * messages as cz_groth16_params_read. On error *p is zeroed. */
CZ_MUST_CHECK cz_err cz_groth16_params_view(cz_groth16_params *p, const uint8_t *buf, size_t len,
                                            bool checked, unsigned n_threads, char *msg,
                                            size_t msg_len);

/* cz_groth16_params_view over the file at path, mapped read-only (shared
 * with every process that maps it, backed by the page cache), with map.fd
 * open on it; both are released by cz_groth16_params_free. CZ_ERR_IO when it cannot be opened or
 * mapped (msg says why); msg names the path on every error. */
CZ_MUST_CHECK cz_err cz_groth16_params_map(cz_groth16_params *p, const char *path, bool checked,
                                           unsigned n_threads, char *msg, size_t msg_len);

/* Bytes p holds in process memory: the decoded vectors and the vk (a
 * mapped key: the vk alone; its points are page cache). */
size_t cz_groth16_params_resident_bytes(const cz_groth16_params *p);

/* Release every vector (or the mapping) and the vk; p is zeroed. NULL is
 * allowed. */
void cz_groth16_params_free(cz_groth16_params *p);

#endif
