/* cuzk-bench's progress on stderr: one meter (cuzk/progress.h) that every
 * long subcommand hands to the library (parameter setup, loading and
 * writing, sealing). A self-rewriting line when stderr is a terminal, a
 * plain line at each phase's start and end and every 5 s otherwise;
 * nothing under the global --quiet. Not for threads of their own: call
 * these from the main thread (the meter itself is thread-safe). */
#ifndef CUZK_BENCH_PROGRESS_OUT_H
#define CUZK_BENCH_PROGRESS_OUT_H
#include <stdbool.h>
#include "cuzk/progress.h"

/* --quiet (main.c, before any subcommand runs). */
void cz_bench_set_quiet(bool quiet);
bool cz_bench_quiet(void);

/* The sink to pass to the library; NULL under --quiet. The meter starts
 * on first use (with its ticker) and is ended at exit, which closes an
 * open terminal line. */
const cz_progress *cz_bench_progress(void);

#endif
