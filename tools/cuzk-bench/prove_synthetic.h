/* The synthetic side of `cuzk-bench prove` (--synthetic chain|sparse). */
#ifndef CUZK_BENCH_PROVE_SYNTHETIC_H
#define CUZK_BENCH_PROVE_SYNTHETIC_H
#include "prove_common.h"

typedef struct {
  const char *shape;        /* "chain" or "sparse" */
  unsigned log_constraints; /* 2^K constraints, input constraints included */
  unsigned count;           /* proofs made and verified together */
  bool no_cache;            /* always run setup; read and write no file */
  cz_bench_prove_opts o;    /* cache_dir, checked, threads, backend */
} cz_bench_synthetic_args;

/* Setup (or the cached test parameters), synthesis of count instances,
 * one prover call for them all, verification one by one and as a batch;
 * phase times on stdout. Exit status: 0 every proof verified, 1 one did
 * not, 2 parameters, synthesis or proving failed (one line on stderr). */
int cz_bench_prove_synthetic(const cz_bench_synthetic_args *a);

#endif
