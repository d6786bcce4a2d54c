/* Layer: util */
/* Progress of long work (src/util/progress.c): parameter generation and
 * loading, sealing, client batches.
 *
 * Two halves, so that library code never prints:
 *  - the library side, cz_progress: an optional callback a long operation
 *    takes (NULL = no reports). The operation calls it with a phase name,
 *    a unit, the work done so far and the phase's total (0 = unknown).
 *    cz_progress_counter adds up the work of parallel workers.
 *  - the tool side, cz_progress_meter: a callback that prints to a FILE
 *    (stderr). On a terminal it rewrites one line (`\r`, at most every
 *    0.2 s); otherwise it prints a plain line when a phase starts, every
 *    interval_s seconds (also from a ticker thread, so a phase with no
 *    reports, or a slow one, is never silent) and when a phase completes.
 *
 * A line reads
 *   progress setup: 1.21M/6.90M points 17.5% 212k points/s eta 26.8s elapsed 5.7s
 * (the fraction, rate and ETA only where the total is known; an optional
 * detail in parentheses at the end). A new phase starts at a new name, or
 * at a report of 0 done after progress (the same operation again); its
 * rate and ETA count from its first report. */
#ifndef CUZK_PROGRESS_H
#define CUZK_PROGRESS_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- The library side ---------------------------------------------------- */

/* update(ctx, phase, unit, done, total): done <= total unless total is 0
 * (unknown). phase and unit are short static strings ("setup", "points").
 * An operation may call it from several threads at once: implementations
 * must be thread-safe, and cheap (they are called every few thousand work
 * items). */
typedef struct {
  void (*update)(void *ctx, const char *phase, const char *unit, uint64_t done, uint64_t total);
  void *ctx;
} cz_progress;

/* p->update(...) when p and p->update are set; nothing otherwise. */
void cz_progress_report(const cz_progress *p, const char *phase, const char *unit, uint64_t done,
                        uint64_t total);

/* Work of parallel workers added up: cz_progress_add from any thread. */
typedef struct {
  const cz_progress *p; /* NULL: adds are counted, nothing reported */
  const char *phase, *unit;
  uint64_t total;
  uint64_t done; /* only through cz_progress_add (atomic builtins), so
                    that C++ translation units can include this header */
} cz_progress_counter;

/* Start a phase of `total` units at 0 done (reported once at 0). */
void cz_progress_counter_init(cz_progress_counter *c, const cz_progress *p, const char *phase,
                              const char *unit, uint64_t total);
/* Add n units (atomically) and report the new sum. */
void cz_progress_add(cz_progress_counter *c, uint64_t n);

/* ---- The tool side: a meter that prints ------------------------------------ */

typedef enum {
  CZ_PROGRESS_OFF = 0, /* prints nothing (--quiet) */
  CZ_PROGRESS_LINES,   /* plain lines (stderr is a file or a pipe) */
  CZ_PROGRESS_TTY      /* one self-rewriting line */
} cz_progress_mode;

/* OFF when quiet, TTY when f is a terminal, else LINES. */
cz_progress_mode cz_progress_mode_for(FILE *f, bool quiet);

typedef struct {
  cz_progress sink; /* hand &meter.sink to the library */
  FILE *out;
  cz_progress_mode mode;
  double interval_s;                /* LINES: seconds between lines */
  double (*clock)(void *clock_ctx); /* seconds, monotonic; tests inject one */
  void *clock_ctx;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  pthread_t ticker;
  bool has_ticker, stopping;
  /* the current phase */
  char phase[48], unit[16], detail[96];
  uint64_t done, total;
  double t0, last_print;
  bool active, completed, line_open;
  unsigned lines; /* lines (or TTY redraws) printed so far */
} cz_progress_meter;

/* A meter printing to out in mode; interval_s <= 0 means 5 s. clock NULL:
 * CLOCK_MONOTONIC. ticker: start a thread that reprints the current phase
 * when nothing was printed for interval_s (0.5 s on a TTY); tests pass
 * false and drive the clock. Returns false (the meter then is OFF and
 * usable) only when the mutex cannot be made. Destroy with
 * cz_progress_meter_end. */
bool cz_progress_meter_init(cz_progress_meter *m, FILE *out, cz_progress_mode mode,
                            double interval_s, double (*clock)(void *), void *clock_ctx,
                            bool ticker);

/* What the sink's update does, with an optional detail (NULL or a short
 * text, printed in parentheses). Thread-safe. */
void cz_progress_meter_update(cz_progress_meter *m, const char *phase, const char *unit,
                              uint64_t done, uint64_t total, const char *detail);

/* Stop the ticker, close an open TTY line with a newline, free the lock. */
void cz_progress_meter_end(cz_progress_meter *m);

/* The line (without "\r" or "\n") for a phase at elapsed_s seconds, into
 * buf (always NUL-terminated); returns its length. detail may be NULL. */
size_t cz_progress_format(char *buf, size_t cap, const char *phase, const char *unit, uint64_t done,
                          uint64_t total, double elapsed_s, const char *detail);

#endif
