/* Layer: util */
/* Hardware performance counters through perf_event_open(2)
 * (src/util/perf_counters.c): cycles, instructions, L1d read misses, LLC
 * misses and branch misses of the calling thread and of the threads it
 * creates after cz_perf_open (inherit; cz_parallel_for starts its workers
 * per call, so they are counted).
 * User space only (exclude_kernel), so kernel.perf_event_paranoid = 2 is
 * enough. Each counter is opened on its own: a kernel or VM that lacks one
 * event still gives the others. When the kernel offers none (no PMU in the
 * VM, perf_event_paranoid 3, seccomp), cz_perf_open says why in one line
 * and every other call is a harmless no-op. Values are scaled by
 * time_enabled / time_running when the kernel multiplexed a counter.
 * A cz_perf is used by one thread at a time. */
#ifndef CUZK_PERF_COUNTERS_H
#define CUZK_PERF_COUNTERS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/err.h"

typedef enum {
  CZ_PERF_CYCLES = 0,
  CZ_PERF_INSTRUCTIONS,
  CZ_PERF_L1D_READ_MISSES,
  CZ_PERF_LLC_MISSES,
  CZ_PERF_BRANCH_MISSES,
  CZ_PERF_N_EVENTS
} cz_perf_event;

typedef struct {
  int fd[CZ_PERF_N_EVENTS]; /* -1: that counter is not open */
  int n_open;
  char reason[192];                   /* why a counter (or all) is missing; "" if none */
  uint64_t base[CZ_PERF_N_EVENTS][3]; /* private: value, enabled, running at start */
} cz_perf;

typedef struct {
  uint64_t value[CZ_PERF_N_EVENTS];
  bool valid[CZ_PERF_N_EVENTS]; /* open, and counted for a non-zero time */
} cz_perf_counts;

/* The short name of an event ("cycles", "instructions", "l1d_read_misses",
 * "llc_misses", "branch_misses"); "?" for an unknown value. */
const char *cz_perf_event_name(cz_perf_event e);

/* Open the counters, disabled. CZ_OK when at least one opened (p->reason
 * then names the first missing one, if any); CZ_ERR_IO when none did:
 * p->reason (and why, when not NULL) is one line built from errno, e.g.
 * "perf_event_open(cycles): No such file or directory (no hardware PMU
 * for this kernel or VM)". p is always initialised: close it either way. */
CZ_MUST_CHECK cz_err cz_perf_open(cz_perf *p, char *why, size_t why_len);
bool cz_perf_available(const cz_perf *p); /* at least one counter open */

/* Start counting from zero (a new baseline: counts of earlier, exited
 * workers are not included) / stop counting. No-ops when closed. */
void cz_perf_start(cz_perf *p);
void cz_perf_stop(cz_perf *p);

/* The counts since the last start, also while still counting (all invalid
 * when unavailable). */
void cz_perf_read(const cz_perf *p, cz_perf_counts *out);

/* instructions / cycles; a negative value when either is invalid or
 * cycles is zero. */
double cz_perf_ipc(const cz_perf_counts *c);

/* One line without newline: "cycles=N instructions=N ipc=X.XX
 * l1d_read_misses=N llc_misses=N branch_misses=N", "n/a" for a missing
 * value. Returns the length (snprintf's), writes at most cap bytes. */
size_t cz_perf_format(const cz_perf_counts *c, char *out, size_t cap);

void cz_perf_close(cz_perf *p); /* idempotent; a zeroed struct is fine */

#endif
