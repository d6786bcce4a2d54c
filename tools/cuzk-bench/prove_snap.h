/* The SnapDeals side of `cuzk-bench prove` (--request with a snap-prove
 * request.json). */
#ifndef CUZK_BENCH_PROVE_SNAP_H
#define CUZK_BENCH_PROVE_SNAP_H
#include <stdbool.h>

#include "prove_common.h"

typedef struct {
  const char *request;   /* request.json as gen-vanilla snap-prove writes it */
  cz_bench_prove_opts o; /* o.out gets partitions x 192 proof bytes */
} cz_bench_snap_args;

/* Every partition of an update in process: parse and verify each partition
 * proof, parameters from the store (official, else test ones, said on
 * stderr), synthesis, proof, verification. Prints `name value unit` lines
 * (per partition synthesis and prove). Exit status: 0 proved and
 * verified, 1 a vanilla proof or a proof does not verify, 2 unusable input
 * or parameters (one line on stderr). */
int cz_bench_prove_snap(const cz_bench_snap_args *a);

/* True when path is a JSON object whose proof_kind names an update (so
 * that prove --request can tell it from a PoSt request). */
bool cz_bench_is_snap_request(const char *path);

#endif
