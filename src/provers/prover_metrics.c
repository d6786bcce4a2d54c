/* Prover phase histograms (cuzk/provers.h), fed through cz_prove_timing. */
#include <pthread.h>
#include "cuzk/provers.h"

static cz_histogram phases[CZ_PHASE_COUNT];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init(void) {
  for (int p = 0; p < CZ_PHASE_COUNT; p++)
    cz_histogram_init(&phases[p], cz_hist_bounds_phase, cz_hist_bounds_phase_n);
}

void cz_provers_phase_observe(cz_prove_phase phase, uint64_t ns) {
  if ((unsigned)phase >= CZ_PHASE_COUNT) return;
  pthread_once(&once, init);
  cz_histogram_observe(&phases[phase], ns);
}

static void on_phase(void *ctx, cz_prove_phase phase, uint64_t ns) {
  (void)ctx;
  cz_provers_phase_observe(phase, ns);
}

static const cz_prove_timing hook = {on_phase, NULL, false};

const cz_prove_timing *cz_provers_timing(void) { return &hook; }

void cz_provers_phase_snapshot(cz_histogram_snap out[CZ_PHASE_COUNT]) {
  pthread_once(&once, init);
  for (int p = 0; p < CZ_PHASE_COUNT; p++) cz_histogram_snapshot(&phases[p], &out[p]);
}
