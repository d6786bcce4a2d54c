/* Progress reports and the meter that prints them (cuzk/progress.h). */
#include "cuzk/progress.h"

#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- The library side ---------------------------------------------------- */

void cz_progress_report(const cz_progress *p, const char *phase, const char *unit, uint64_t done,
                        uint64_t total) {
  if (p && p->update) p->update(p->ctx, phase, unit, done, total);
}

void cz_progress_counter_init(cz_progress_counter *c, const cz_progress *p, const char *phase,
                              const char *unit, uint64_t total) {
  c->p = p;
  c->phase = phase;
  c->unit = unit;
  c->total = total;
  __atomic_store_n(&c->done, 0, __ATOMIC_RELAXED);
  cz_progress_report(p, phase, unit, 0, total);
}

void cz_progress_add(cz_progress_counter *c, uint64_t n) {
  uint64_t now = __atomic_add_fetch(&c->done, n, __ATOMIC_RELAXED);
  cz_progress_report(c->p, c->phase, c->unit, now, c->total);
}

/* ---- Formatting ------------------------------------------------------------ */

/* 999, 1.21k, 12.1M, 121G: three significant digits past a thousand. */
static void fmt_count(char *out, size_t cap, double v) {
  static const char suffix[] = "kMGTP";
  if (v < 1000) {
    snprintf(out, cap, v == (double)(uint64_t)v ? "%.0f" : "%.3g", v);
    return;
  }
  int i = -1;
  while (v >= 1000 && i < 4) v /= 1000, i++;
  snprintf(out, cap, "%.3g%c", v, suffix[i]);
}

/* 5.7s, 3m05s, 2h07m. */
static void fmt_duration(char *out, size_t cap, double s) {
  if (s < 60) {
    snprintf(out, cap, "%.1fs", s);
  } else if (s < 3600) {
    unsigned t = (unsigned)s;
    snprintf(out, cap, "%um%02us", t / 60, t % 60);
  } else {
    unsigned long t = (unsigned long)(s / 60);
    snprintf(out, cap, "%luh%02lum", t / 60, t % 60);
  }
}

size_t cz_progress_format(char *buf, size_t cap, const char *phase, const char *unit, uint64_t done,
                          uint64_t total, double elapsed_s, const char *detail) {
  if (!cap) return 0;
  char a[32], b[32], r[32], t[32];
  size_t n = (size_t)snprintf(buf, cap, "progress %s:", phase);
  if (elapsed_s < 0) elapsed_s = 0;
  if (n < cap && total) {
    fmt_count(a, sizeof a, (double)done);
    fmt_count(b, sizeof b, (double)total);
    n += (size_t)snprintf(buf + n, cap - n, " %s/%s %s %.1f%%", a, b, unit,
                          100.0 * (double)done / (double)total);
  } else if (n < cap && done) {
    fmt_count(a, sizeof a, (double)done);
    n += (size_t)snprintf(buf + n, cap - n, " %s %s", a, unit);
  }
  double rate = elapsed_s > 0 ? (double)done / elapsed_s : 0;
  if (n < cap && done && rate > 0) {
    fmt_count(r, sizeof r, rate);
    n += (size_t)snprintf(buf + n, cap - n, " %s %s/s", r, unit);
    if (n < cap && total && done < total) {
      fmt_duration(t, sizeof t, (double)(total - done) / rate);
      n += (size_t)snprintf(buf + n, cap - n, " eta %s", t);
    }
  }
  if (n < cap) {
    fmt_duration(t, sizeof t, elapsed_s);
    n += (size_t)snprintf(buf + n, cap - n, " elapsed %s", t);
  }
  if (n < cap && detail && *detail) n += (size_t)snprintf(buf + n, cap - n, " (%s)", detail);
  return n < cap ? n : cap - 1;
}

/* ---- The meter --------------------------------------------------------------- */

/* A terminal is redrawn at most this often: more is flicker, and a
 * 4-core setup reports tens of thousands of times a second. */
#define TTY_REDRAW_S 0.2
#define TTY_TICK_S 0.5

cz_progress_mode cz_progress_mode_for(FILE *f, bool quiet) {
  if (quiet) return CZ_PROGRESS_OFF;
  return isatty(fileno(f)) ? CZ_PROGRESS_TTY : CZ_PROGRESS_LINES;
}

static double monotonic(void *ctx) {
  (void)ctx;
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void sink_update(void *ctx, const char *phase, const char *unit, uint64_t done,
                        uint64_t total) {
  cz_progress_meter_update(ctx, phase, unit, done, total, NULL);
}

/* The current phase's line; the caller holds mu. */
static void print_locked(cz_progress_meter *m, double now) {
  char line[256];
  cz_progress_format(line, sizeof line, m->phase, m->unit, m->done, m->total, now - m->t0,
                     m->detail);
  if (m->mode == CZ_PROGRESS_TTY) {
    fprintf(m->out, "\r%s\033[K", line); /* clear what a longer line left */
    m->line_open = true;
    if (m->completed) fputc('\n', m->out), m->line_open = false;
  } else {
    fprintf(m->out, "%s\n", line);
  }
  fflush(m->out);
  m->last_print = now;
  m->lines++;
}

static void *ticker_main(void *arg) {
  cz_progress_meter *m = arg;
  double every = m->mode == CZ_PROGRESS_TTY ? TTY_TICK_S : m->interval_s;
  pthread_mutex_lock(&m->mu);
  while (!m->stopping) {
    struct timespec dl;
    clock_gettime(CLOCK_MONOTONIC, &dl);
    double s = every;
    dl.tv_sec += (time_t)s;
    dl.tv_nsec += (long)((s - (double)(time_t)s) * 1e9);
    if (dl.tv_nsec >= 1000000000L) dl.tv_sec++, dl.tv_nsec -= 1000000000L;
    int rc = 0;
    while (!m->stopping && rc != ETIMEDOUT) rc = pthread_cond_timedwait(&m->cv, &m->mu, &dl);
    if (m->stopping) break;
    double now = m->clock(m->clock_ctx);
    /* A little slack, so that a tick landing just short of the interval
     * after the last line does not wait a whole second interval. */
    if (m->active && !m->completed && now - m->last_print >= every * 0.9) print_locked(m, now);
  }
  pthread_mutex_unlock(&m->mu);
  return NULL;
}

bool cz_progress_meter_init(cz_progress_meter *m, FILE *out, cz_progress_mode mode,
                            double interval_s, double (*clock)(void *), void *clock_ctx,
                            bool ticker) {
  memset(m, 0, sizeof *m);
  m->sink.update = sink_update;
  m->sink.ctx = m;
  m->out = out;
  m->mode = mode;
  m->interval_s = interval_s > 0 ? interval_s : 5.0;
  m->clock_ctx = clock_ctx;
  if (pthread_mutex_init(&m->mu, NULL) != 0) {
    m->mode = CZ_PROGRESS_OFF;
    return false;
  }
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  int cv = pthread_cond_init(&m->cv, &ca);
  pthread_condattr_destroy(&ca);
  if (cv != 0) {
    pthread_mutex_destroy(&m->mu);
    m->mode = CZ_PROGRESS_OFF;
    return false;
  }
  m->clock = clock ? clock : monotonic; /* set: the lock exists (see _end) */
  if (ticker && mode != CZ_PROGRESS_OFF)
    m->has_ticker = pthread_create(&m->ticker, NULL, ticker_main, m) == 0;
  return true;
}

void cz_progress_meter_update(cz_progress_meter *m, const char *phase, const char *unit,
                              uint64_t done, uint64_t total, const char *detail) {
  if (m->mode == CZ_PROGRESS_OFF) return;
  pthread_mutex_lock(&m->mu);
  double now = m->clock(m->clock_ctx);
  /* A new name starts a phase, and so does a report of 0 after progress:
   * the same operation again (gen-vanilla seals one sector after another).
   * Only 0 counts, since parallel workers' reports may arrive out of order. */
  bool first =
      !m->active || strcmp(phase, m->phase) != 0 || (done == 0 && (m->done != 0 || m->completed));
  if (first) {
    if (m->line_open) fputc('\n', m->out), m->line_open = false;
    snprintf(m->phase, sizeof m->phase, "%s", phase);
    snprintf(m->unit, sizeof m->unit, "%s", unit ? unit : "");
    m->t0 = now;
    m->active = true;
    m->completed = false;
  }
  bool was_complete = m->completed;
  m->done = done;
  m->total = total;
  snprintf(m->detail, sizeof m->detail, "%s", detail ? detail : "");
  bool complete = total && done >= total;
  double gap = m->mode == CZ_PROGRESS_TTY ? TTY_REDRAW_S : m->interval_s;
  /* Once a phase has printed its last line it stays quiet: workers may
   * still report the final sum. */
  if (!was_complete) {
    m->completed = complete;
    if (first || complete || now - m->last_print >= gap) print_locked(m, now);
  }
  pthread_mutex_unlock(&m->mu);
}

void cz_progress_meter_end(cz_progress_meter *m) {
  if (!m->clock) return; /* init failed, or ended already */
  pthread_mutex_lock(&m->mu);
  m->stopping = true;
  pthread_cond_broadcast(&m->cv);
  pthread_mutex_unlock(&m->mu);
  if (m->has_ticker) pthread_join(m->ticker, NULL);
  m->has_ticker = false;
  if (m->line_open) fputc('\n', m->out), fflush(m->out), m->line_open = false;
  pthread_cond_destroy(&m->cv);
  pthread_mutex_destroy(&m->mu);
  m->mode = CZ_PROGRESS_OFF;
  m->clock = NULL;
}
