/* cuzk-bench's progress meter (progress_out.h). */
#include "common/progress_out.h"

#include <stdio.h>
#include <stdlib.h>

static bool quiet;
static bool started;
static cz_progress_meter meter;

void cz_bench_set_quiet(bool q) { quiet = q; }
bool cz_bench_quiet(void) { return quiet; }

static void end_meter(void) { cz_progress_meter_end(&meter); }

const cz_progress *cz_bench_progress(void) {
  if (quiet) return NULL;
  if (!started) {
    started = true;
    cz_progress_meter_init(&meter, stderr, cz_progress_mode_for(stderr, false), 5.0, NULL, NULL,
                           true);
    atexit(end_meter);
  }
  return &meter.sink;
}
