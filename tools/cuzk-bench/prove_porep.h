/* The PoRep side of `cuzk-bench prove` (--c1). */
#ifndef CUZK_BENCH_PROVE_POREP_H
#define CUZK_BENCH_PROVE_POREP_H
#include <stdbool.h>

typedef struct {
  const char *c1_path;     /* C1 JSON or Curio's wrapper */
  const char *out;         /* raw proof bytes here; NULL: hex on stdout */
  const char *vk_out;      /* also write the verifying key used (bellperson layout) */
  const char *cache_dir;   /* test-parameter cache; NULL: the store's default */
  bool official_only, checked;
  unsigned threads;
  bool pce;                /* record the circuit once, synthesize through it */
  const struct cz_prover_backend *backend; /* NULL: the CPU backend */
} cz_bench_porep_args;

/* Exit status: 0 proved and verified, 1 a proof did not verify (or the
 * vanilla proofs), 2 unusable input or parameters (one line on stderr). */
int cz_bench_prove_porep(const cz_bench_porep_args *a);

#endif
