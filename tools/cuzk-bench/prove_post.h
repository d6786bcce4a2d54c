/* The PoSt side of `cuzk-bench prove` (--request / --vanilla). */
#ifndef CUZK_BENCH_PROVE_POST_H
#define CUZK_BENCH_PROVE_POST_H
#include "post_request.h"
#include "prove_common.h"

typedef struct {
  const char *request;       /* request.json, or a bare vanilla.json */
  cz_bench_post_options opt; /* registered proof, randomness, prover id, partition for a bare one */
  unsigned repeat;           /* prove the same partition this many times (>= 1) */
  cz_bench_prove_opts o;
} cz_bench_post_args;

/* WinningPoSt or one WindowPoSt partition in process: parse and verify the
 * vanilla proofs, parameters from the store (official, else test ones,
 * said on stderr), synthesis, proof, verification. Prints `name value
 * unit` lines (load, params, verify_vanilla, synthesis, prove per proof,
 * latency of the last) and CUZK_TIMING lines on stderr. Exit status: 0
 * proved and verified, 1 the vanilla proofs or the proof do not verify, 2
 * unusable input or parameters (one line on stderr). */
int cz_bench_prove_post(const cz_bench_post_args *a);

#endif
