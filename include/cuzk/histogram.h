/* Layer: util */
/* A Prometheus-style histogram that any thread may feed: fixed upper
 * bounds (seconds, ascending), one atomic counter per bucket, the sum in
 * nanoseconds. Observing is two relaxed atomic adds and a search of at most
 * CZ_HIST_MAX_BUCKETS bounds: no lock, no allocation, so a prover may call
 * it from its hot threads. A snapshot taken while others observe may see a
 * sum and counts a few observations apart (each counter is exact on its
 * own), which Prometheus tolerates. Source: src/util/histogram.c. */
#ifndef CUZK_HISTOGRAM_H
#define CUZK_HISTOGRAM_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define CZ_HIST_MAX_BUCKETS 24

typedef struct {
  const double *le; /* n ascending upper bounds in seconds (the caller's, static) */
  size_t n;         /* <= CZ_HIST_MAX_BUCKETS; an observation above le[n-1] goes to +Inf */
  _Atomic uint64_t counts[CZ_HIST_MAX_BUCKETS + 1]; /* per bucket, not cumulative; [n] = +Inf */
  _Atomic uint64_t sum_ns;
} cz_histogram;

/* A copy for exposition: cumulative counts, cum[n] == count (+Inf). */
typedef struct {
  const double *le;
  size_t n;
  uint64_t cum[CZ_HIST_MAX_BUCKETS + 1];
  uint64_t count;
  double sum; /* seconds */
} cz_histogram_snap;

/* Bounds suited to whole proofs (0.1 s .. 1 h, 15 bounds) and to prover
 * phases (1 ms .. 10 min, 16 bounds). */
extern const double cz_hist_bounds_proof[];
extern const size_t cz_hist_bounds_proof_n;
extern const double cz_hist_bounds_phase[];
extern const size_t cz_hist_bounds_phase_n;

/* Zero h and give it bounds (n is capped at CZ_HIST_MAX_BUCKETS). A static
 * cz_histogram with le and n set in its initializer needs no init. */
void cz_histogram_init(cz_histogram *h, const double *le, size_t n);
/* Count one observation of ns nanoseconds (any thread). A value equal to a
 * bound falls in that bound's bucket (le is "less or equal"). */
void cz_histogram_observe(cz_histogram *h, uint64_t ns);
/* Copy h into out (any thread). */
void cz_histogram_snapshot(const cz_histogram *h, cz_histogram_snap *out);

#endif
