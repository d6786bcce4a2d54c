/* The circom side of `cuzk-bench prove` (--zkey, --wtns): a snarkjs key
 * and witness proved in process, with the prover's phase times. */
#ifndef CUZK_BENCH_PROVE_ZKEY_H
#define CUZK_BENCH_PROVE_ZKEY_H
#include <stdbool.h>

typedef struct {
  const char *zkey, *wtns;
  unsigned threads, repeat;
  bool check_key;
} cz_bench_zkey_args;

/* Loads the key once, then proves the witness `repeat` times (each proof
 * verified by the prover). Output: CUZK_TIMING lines on stderr per proof;
 * on stdout load_zkey, zkey_bytes, load_wtns, n_vars, domain_size,
 * prove (per proof, and the median), peak_rss, valid. Exit status 0 when
 * every proof verified, 1 when one did not, 2 on an unusable input. */
int cz_bench_prove_zkey(const cz_bench_zkey_args *a);

#endif
