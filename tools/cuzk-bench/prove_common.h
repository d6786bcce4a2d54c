/* What the PoRep, PoSt and SnapDeals paths of `cuzk-bench prove` share:
 * their options, the timing hook and the shape and proof output. */
#ifndef CUZK_BENCH_PROVE_COMMON_H
#define CUZK_BENCH_PROVE_COMMON_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "cuzk/groth16_prove.h"

struct cz_prover_backend;

typedef struct {
  const char *out;       /* raw proof bytes here; NULL: hex on stdout */
  const char *vk_out;    /* also write the verifying key used (bellperson layout) */
  const char *cache_dir; /* test-parameter cache; NULL: the store's default */
  bool official_only, checked;
  bool decoded_key; /* decode the key into memory instead of mapping it */
  unsigned threads;
  bool pce;                                /* record the circuit once, synthesize through it */
  const struct cz_prover_backend *backend; /* NULL: the CPU backend */
} cz_bench_prove_opts;

/* Milliseconds since t0 (cz_now_ns). */
double cz_bench_ms_since(uint64_t t0);

/* A cz_prove_timing hook (ctx: a cz_bench_phase_sums) that adds up the
 * synthesis and the prover's total over the proofs it sees. */
typedef struct {
  uint64_t synthesis_ns, prove_ns;
} cz_bench_phase_sums;
void cz_bench_sum_phase(void *ctx, cz_prove_phase phase, uint64_t ns);

/* After --pce's recording of the circuit (started at t0, e its result, msg
 * its reason): "record_shape" and "pce_shape_bytes" lines, 0; or 2 after
 * "prove: <msg>" on stderr. */
int cz_bench_prove_shape_report(cz_err e, const cz_pce *shape, uint64_t t0, const char *msg);

/* The proof bytes to out (atomically), or as one hex line on stdout when
 * out is NULL. 0, or 2 after one line on stderr. */
int cz_bench_prove_output(const char *out, const uint8_t *proof, size_t len);

#endif
