/* Lock-free fixed-bucket histograms (cuzk/histogram.h). */
#include "cuzk/histogram.h"
#include <string.h>

/* Whole proofs: a WinningPoSt takes well under a second on a GPU, a 32 GiB
 * PoRep C2 minutes on a CPU; 1 h bounds a stuck job. */
const double cz_hist_bounds_proof[] = {0.1, 0.25, 0.5, 1,   2.5,  5,    10,  30,
                                       60,  120,  300, 600, 1200, 1800, 3600};
const size_t cz_hist_bounds_proof_n = sizeof cz_hist_bounds_proof / sizeof *cz_hist_bounds_proof;
/* Phases: a test-circuit MSM takes about a millisecond, a 32 GiB
 * partition's synthesis minutes. */
const double cz_hist_bounds_phase[] = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                                       1,     2.5,   5,    10,    30,   60,  120,  600};
const size_t cz_hist_bounds_phase_n = sizeof cz_hist_bounds_phase / sizeof *cz_hist_bounds_phase;

void cz_histogram_init(cz_histogram *h, const double *le, size_t n) {
  memset(h, 0, sizeof *h);
  h->le = le;
  h->n = n < CZ_HIST_MAX_BUCKETS ? n : CZ_HIST_MAX_BUCKETS;
}

void cz_histogram_observe(cz_histogram *h, uint64_t ns) {
  double s = (double)ns / 1e9;
  size_t i = 0;
  while (i < h->n && s > h->le[i]) i++;
  atomic_fetch_add_explicit(&h->counts[i], 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&h->sum_ns, ns, memory_order_relaxed);
}

void cz_histogram_snapshot(const cz_histogram *h, cz_histogram_snap *out) {
  memset(out, 0, sizeof *out);
  out->le = h->le;
  out->n = h->n;
  uint64_t c = 0;
  for (size_t i = 0; i <= h->n; i++) {
    c += atomic_load_explicit(&h->counts[i], memory_order_relaxed);
    out->cum[i] = c;
  }
  out->count = c;
  out->sum = (double)atomic_load_explicit(&h->sum_ns, memory_order_relaxed) / 1e9;
}
