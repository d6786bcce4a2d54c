/* The parts of `cuzk-bench prove` its three proof paths share
 * (prove_common.h). */
#include "prove_common.h"

#include <stdio.h>

#include "cuzk/clock.h"
#include "input.h"

double cz_bench_ms_since(uint64_t t0) { return (double)(cz_now_ns() - t0) / 1e6; }

void cz_bench_sum_phase(void *ctx, cz_prove_phase phase, uint64_t ns) {
  cz_bench_phase_sums *s = ctx;
  if (phase == CZ_PHASE_SYNTHESIS) s->synthesis_ns += ns;
  else if (phase == CZ_PHASE_TOTAL) s->prove_ns += ns;
}

int cz_bench_prove_shape_report(cz_err e, const cz_pce *shape, uint64_t t0, const char *msg) {
  if (e != CZ_OK) {
    fprintf(stderr, "prove: %s\n", msg);
    return 2;
  }
  cz_pce_info info;
  cz_pce_get_info(shape, &info);
  printf("record_shape %.1f ms\npce_shape_bytes %zu bytes\n", cz_bench_ms_since(t0), info.bytes);
  return 0;
}

int cz_bench_prove_output(const char *out, const uint8_t *proof, size_t len) {
  if (out) return cz_bench_write_file("prove", out, proof, len);
  for (size_t i = 0; i < len; i++) printf("%02x", proof[i]);
  printf("\n");
  return 0;
}
