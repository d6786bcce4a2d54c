/* Layer: groth16 */
/* The Groth16 prover: one backend interface, phase timing through one hook.
 *
 * A backend turns synthesized assignments (cz_assignment from the PROVE
 * backend, or WITNESS + cz_r1cs_eval) and parameters into proofs. The CPU
 * backend is built in; a CUDA backend plugs in later by filling the same
 * struct. Per proof, with r and s random:
 *   A = alpha + sum_i w_i a_i + r delta                      (G1)
 *   B = beta + sum_i w_i b_i + s delta                       (G2; B1 in G1)
 *   C = s A + r B1 - r s delta + sum_j h_j H_j + sum_aux w_i L_i
 * where the h_j are the n - 1 coefficients of bellperson's H polynomial
 * (cz_ntt_h_poly) and the a/b sums follow the densities (bellperson's
 * prover: a over all inputs then the a_aux aux, b over b_input inputs then
 * b_aux aux). Source: src/groth16/prover.c, prover_msm.c. The CPU backend
 * keeps no state: several threads may prove at once with the same params
 * (each with its own assignments and proofs). */
#ifndef CUZK_GROTH16_PROVE_H
#define CUZK_GROTH16_PROVE_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/cs.h"
#include "cuzk/groth16.h"
#include "cuzk/params.h"

/* Prover phases, in the order they run. Times are reported per call (summed
 * over the proofs of a batch). synthesis is measured by whoever synthesizes
 * (the prover never does) and reported through cz_prove_timing_emit.
 * batch_add: assembling A, B and C from the MSM results (the r, s multiples
 * and additions). tail_msm: a backend that splits MSMs into a batch addition
 * of the 0/1 scalars and a tail MSM of the rest reports the tail here; the
 * CPU MSM does that split inside each msm_* phase and reports 0. */
typedef enum {
  CZ_PHASE_SYNTHESIS = 0,
  CZ_PHASE_NTT_H,
  CZ_PHASE_MSM_H,
  CZ_PHASE_MSM_L,
  CZ_PHASE_MSM_A,
  CZ_PHASE_MSM_B_G1,
  CZ_PHASE_MSM_B_G2,
  CZ_PHASE_BATCH_ADD,
  CZ_PHASE_TAIL_MSM,
  CZ_PHASE_TOTAL,
  CZ_PHASE_KEY_WAIT, /* a mapped key's MSMs waiting for the disk (within the msm_* phases) */
  CZ_PHASE_COUNT
} cz_prove_phase;

/* "synthesis", "ntt_h", ..., "total" (NULL out of range). */
const char *cz_prove_phase_name(cz_prove_phase p);

/* The timing hook: every reported phase is printed on stderr as
 *   CUZK_TIMING: <phase>_ms=<integer milliseconds>
 * and flushed at once (unless quiet), then passed to on_phase (when not
 * NULL) with its exact duration in nanoseconds, for metrics. */
typedef struct {
  void (*on_phase)(void *ctx, cz_prove_phase phase, uint64_t ns);
  void *ctx;
  bool quiet;
} cz_prove_timing;

/* Report one phase through hook (hook NULL: print only); a phase out of
 * range is ignored. on_phase runs on the calling thread. */
void cz_prove_timing_emit(const cz_prove_timing *hook, cz_prove_phase phase, uint64_t ns);

typedef struct {
  unsigned n_threads; /* thread budget, 0 = all online cores */
  /* r[i], s[i] for proof i; NULL draws them from getrandom. Tests inject
   * them (r = s = 0 gives the unblinded proof). Both or neither. */
  const cz_fr *r, *s;
  const cz_prove_timing *timing; /* NULL: print CUZK_TIMING lines only */
  char *msg;                     /* optional detail of an error */
  size_t msg_len;
} cz_prove_opts;

typedef struct cz_prover_backend cz_prover_backend;
struct cz_prover_backend {
  const char *name; /* "cpu", "cuda" */
  /* Prove n assignments of the same circuit against params, writing
   * proofs[0..n). The backend may consume each assignment's a, b and c
   * (they are freed and set to NULL); values and densities are left as
   * they were. Errors: CZ_ERR_INVALID_ARG when an assignment does not fit
   * params (counts, densities, H size, a/b/c already consumed: opts->msg
   * says which), when the assignments differ in constraint count, when
   * only one of r and s is given, or params, as or proofs is NULL with
   * n > 0; CZ_ERR_NOMEM; CZ_ERR_IO when getrandom fails. Proofs are made in
   * order: on error proofs[0..i) before the failing one are written and
   * their assignments consumed, and no timing is reported. */
  cz_err (*prove)(const cz_prover_backend *self, const cz_groth16_params *params, cz_assignment *as,
                  size_t n, cz_groth16_proof *proofs, const cz_prove_opts *opts);
  void *state; /* the backend's own data (NULL for the CPU one) */
};

/* The CPU backend (static; never freed). */
const cz_prover_backend *cz_prover_cpu(void);

/* backend->prove, with backend NULL meaning the CPU one and opts NULL the
 * defaults (all cores, random r and s, print timings). */
CZ_MUST_CHECK cz_err cz_groth16_prove(const cz_prover_backend *backend,
                                      const cz_groth16_params *params, cz_assignment *as, size_t n,
                                      cz_groth16_proof *proofs, const cz_prove_opts *opts);

/* What every proof of one circuit is made with: the parameters, their
 * prepared verifying key, the backend and its budget, the timing hook. The
 * proving functions of the Filecoin kinds (porep.h, post.h, snap.h) take it
 * as it is; every member is only read. */
typedef struct {
  const cz_prover_backend *backend; /* NULL: the CPU one */
  const cz_groth16_params *params;
  const cz_groth16_pvk *pvk;     /* NULL: prepared from params->vk where needed */
  unsigned n_threads;            /* the prover's thread budget, 0 = all cores */
  const cz_prove_timing *timing; /* NULL: print CUZK_TIMING lines only */
} cz_prove_ctx;

/* One proof that is kept only when it verifies: proves as (consumed and
 * freed, whatever happens) with pc, verifies the proof against pc->pvk
 * (NULL: prepared here from pc->params->vk) with the n_inputs public inputs
 * (ONE excluded), and writes its 192 bytes to out only then. Errors:
 * CZ_ERR_INVALID_ARG when the parameters take another number of inputs
 * (msg names what, e.g. the circuit), the prover's errors, CZ_ERR_NOMEM,
 * CZ_ERR_PROOF_INVALID when the proof made does not verify ("<what>: the
 * proof made does not verify"). Every proof the daemon returns goes
 * through here: Curio uses PoSt and update proofs unverified. */
CZ_MUST_CHECK cz_err cz_groth16_prove_verified(const cz_prove_ctx *pc, cz_assignment *as,
                                               const cz_fr *inputs, size_t n_inputs,
                                               const char *what,
                                               uint8_t out[CZ_GROTH16_PROOF_BYTES], char *msg,
                                               size_t msg_len);

/* Prove one circuit from a recorded shape and a WITNESS assignment: completes
 * w with cz_r1cs_eval (its errors pass through), then proves. Note that
 * the evaluation runs on one thread whatever opts->n_threads says (use
 * cz_r1cs_eval_threads or cz_pce_eval, then cz_groth16_prove, to spread
 * it). */
CZ_MUST_CHECK cz_err cz_groth16_prove_recorded(const cz_prover_backend *backend,
                                               const cz_groth16_params *params,
                                               const cz_r1cs *shape, cz_assignment *w,
                                               cz_groth16_proof *proof, const cz_prove_opts *opts);

#endif
