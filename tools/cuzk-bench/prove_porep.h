/* The PoRep side of `cuzk-bench prove` (--c1). */
#ifndef CUZK_BENCH_PROVE_POREP_H
#define CUZK_BENCH_PROVE_POREP_H
#include "prove_common.h"

typedef struct {
  const char *c1_path; /* C1 JSON or Curio's wrapper */
  cz_bench_prove_opts o;
  unsigned long partition; /* prove this partition alone; ~0ul: all of them */
  unsigned repeat;         /* prove them this many times in one process (>= 1) */
} cz_bench_porep_args;

/* Proves the C1's partitions a->repeat times with the parameters loaded
 * once (a `c2` line per round: the later rounds are warm). Exit status: 0
 * proved and verified, 1 a proof did not verify (or the
 * vanilla proofs), 2 unusable input or parameters (one line on stderr). */
int cz_bench_prove_porep(const cz_bench_porep_args *a);

#endif
