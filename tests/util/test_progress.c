/* The progress line, its rate and ETA, the meter's throttling on a file
 * and on a terminal, the counter under parallel workers, the ticker.
 * Expected lines are worked out by hand from the figures in each case. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "cuzk/progress.h"

static void check_line(const char *want, const char *phase, const char *unit, uint64_t done,
                       uint64_t total, double el, const char *detail) {
  char buf[256];
  size_t n = cz_progress_format(buf, sizeof buf, phase, unit, done, total, el, detail);
  CHECK_EQ_INT(n, strlen(buf));
  if (strcmp(buf, want)) fprintf(stderr, "got  '%s'\nwant '%s'\n", buf, want);
  CHECK(!strcmp(buf, want));
}

static void test_format(void) {
  /* 1.21M of 6.9M in 5.7 s: 212,281/s, (6.9M - 1.21M) / 212,281 = 26.80 s left. */
  check_line("progress setup: 1.21M/6.9M points 17.5% 212k points/s eta 26.8s elapsed 5.7s",
             "setup", "points", 1210000, 6900000, 5.7, NULL);
  /* Nothing known yet but the time. */
  check_line("progress keygen: elapsed 3.0s", "keygen", "", 0, 0, 3.0, NULL);
  /* No total: a count and a rate, no fraction or ETA. */
  check_line("progress scan: 500 items 100 items/s elapsed 5.0s", "scan", "items", 500, 0, 5.0,
             NULL);
  /* 10 of 1000 at 1/s: 990 s = 16 min 30 s left. */
  check_line("progress seal: 10/1k nodes 1.0% 1 nodes/s eta 16m30s elapsed 10.0s", "seal", "nodes",
             10, 1000, 10.0, NULL);
  /* 1 of 10,000 in 2 s: 19,998 s = 5 h 33 min left; 0.5/s. */
  check_line("progress load: 1/10k B 0.0% 0.5 B/s eta 5h33m elapsed 2.0s", "load", "B", 1, 10000,
             2.0, NULL);
  /* Complete: no ETA; the detail at the end. */
  check_line("progress batch: 4/4 proofs 100.0% 2 proofs/s elapsed 2.0s (ok 3 failed 1)", "batch",
             "proofs", 4, 4, 2.0, "ok 3 failed 1");
  /* At 0 s there is no rate. */
  check_line("progress setup: 0/1.5G points 0.0% elapsed 0.0s", "setup", "points", 0, 1500000000, 0,
             NULL);
  char small[12];
  size_t n = cz_progress_format(small, sizeof small, "setup", "points", 1, 2, 1, NULL);
  CHECK_EQ_INT(n, 11);
  CHECK(!strcmp(small, "progress se"));
}

typedef struct {
  double t;
} fake_clock;
static double fake_now(void *ctx) { return ((fake_clock *)ctx)->t; }

static size_t count(const char *s, char c) {
  size_t n = 0;
  for (; *s; s++) n += *s == c;
  return n;
}

static void test_lines(void) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  fake_clock c = {100};
  cz_progress_meter m;
  CHECK(cz_progress_meter_init(&m, f, CZ_PROGRESS_LINES, 5, fake_now, &c, false));
  const double at[] = {0, 1, 4.9, 5.0, 6, 7};
  const uint64_t done[] = {0, 10, 20, 30, 40, 100};
  for (int i = 0; i < 6; i++) {
    c.t = 100 + at[i];
    cz_progress_report(&m.sink, "setup", "points", done[i], 100);
  }
  c.t = 108;
  cz_progress_report(&m.sink, "setup", "points", 100, 100); /* after the end: quiet */
  c.t = 120;
  cz_progress_report(&m.sink, "setup", "points", 100, 100);
  c.t = 121;
  cz_progress_meter_update(&m, "write", "B", 5, 10, "to x.params"); /* a new phase: at once */
  c.t = 122;
  cz_progress_report(&m.sink, "write", "B", 3, 10); /* out of order: not a restart */
  c.t = 123;
  cz_progress_report(&m.sink, "write", "B", 0, 10); /* the same operation again */
  cz_progress_meter_end(&m);
  fclose(f);
  /* The start (0 s), 5.0 s (5 s after the last line), the end (7 s), the
   * new phase, and its restart at 0. */
  CHECK(!strcmp(buf,
                "progress setup: 0/100 points 0.0% elapsed 0.0s\n"
                "progress setup: 30/100 points 30.0% 6 points/s eta 11.7s elapsed 5.0s\n"
                "progress setup: 100/100 points 100.0% 14.3 points/s elapsed 7.0s\n"
                "progress write: 5/10 B 50.0% elapsed 0.0s (to x.params)\n"
                "progress write: 0/10 B 0.0% elapsed 0.0s\n"));
  if (count(buf, '\n') != 5) fprintf(stderr, "%s", buf);
  CHECK(count(buf, '\r') == 0);
  free(buf);
}

static void test_tty(void) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  fake_clock c = {0};
  cz_progress_meter m;
  cz_progress_meter_init(&m, f, CZ_PROGRESS_TTY, 5, fake_now, &c, false);
  const double at[] = {0, 0.1, 0.3, 0.4, 0.6};
  const uint64_t done[] = {0, 1, 2, 3, 4};
  for (int i = 0; i < 5; i++) {
    c.t = at[i];
    cz_progress_report(&m.sink, "seal", "nodes", done[i], 4);
  }
  c.t = 1;
  cz_progress_report(&m.sink, "tail", "x", 1, 2); /* left open: _end closes it */
  cz_progress_meter_end(&m);
  fclose(f);
  /* Redraws at 0, 0.3 (0.2 s or more after 0) and the completion; 0.1
   * and 0.4 are too soon. The completed line ends with a newline. */
  CHECK_EQ_INT(count(buf, '\r'), 4);
  CHECK_EQ_INT(count(buf, '\n'), 2);
  CHECK(
      strstr(buf, "\rprogress seal: 2/4 nodes 50.0% 6.67 nodes/s eta 0.3s elapsed 0.3s\033[K\r") !=
      NULL);
  CHECK(strstr(buf, "\rprogress seal: 4/4 nodes 100.0% 6.67 nodes/s elapsed 0.6s\033[K\n") != NULL);
  CHECK(strstr(buf, "1/2 x") != NULL && buf[strlen(buf) - 1] == '\n');
  free(buf);
}

static void test_off(void) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cz_progress_meter m;
  cz_progress_meter_init(&m, f, CZ_PROGRESS_OFF, 1, NULL, NULL, true);
  cz_progress_report(&m.sink, "setup", "points", 1, 2);
  cz_progress_report(&m.sink, "setup", "points", 2, 2);
  cz_progress_meter_end(&m);
  cz_progress_meter_end(&m); /* twice is harmless */
  fclose(f);
  CHECK_EQ_INT(len, 0);
  free(buf);
  CHECK(cz_progress_mode_for(stderr, true) == CZ_PROGRESS_OFF);
  FILE *tmp = tmpfile();
  CHECK(cz_progress_mode_for(tmp, false) == CZ_PROGRESS_LINES);
  fclose(tmp);
  cz_progress_report(NULL, "x", "y", 1, 1); /* no sink: nothing happens */
  cz_progress none = {0};
  cz_progress_report(&none, "x", "y", 1, 1);
}

/* ---- The counter under parallel workers ------------------------------------ */

typedef struct {
  pthread_mutex_t mu;
  uint64_t calls, max_done, total;
} tally;

static void tally_update(void *ctx, const char *phase, const char *unit, uint64_t done,
                         uint64_t total) {
  (void)phase, (void)unit;
  tally *t = ctx;
  pthread_mutex_lock(&t->mu);
  t->calls++;
  if (done > t->max_done) t->max_done = done;
  t->total = total;
  pthread_mutex_unlock(&t->mu);
}

static void *adder(void *arg) {
  for (int i = 0; i < 10000; i++) cz_progress_add(arg, 3);
  return NULL;
}

static void test_counter(void) {
  tally t = {PTHREAD_MUTEX_INITIALIZER, 0, 0, 0};
  cz_progress p = {tally_update, &t};
  cz_progress_counter c;
  cz_progress_counter_init(&c, &p, "setup", "points", 120000);
  CHECK_EQ_INT(t.calls, 1); /* the start, at 0 */
  pthread_t th[4];
  for (int i = 0; i < 4; i++) pthread_create(&th[i], NULL, adder, &c);
  for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
  CHECK_EQ_INT(t.calls, 40001);
  CHECK_EQ_INT(t.max_done, 120000); /* every add counted once */
  CHECK_EQ_INT(t.total, 120000);
  cz_progress_counter quiet;
  cz_progress_counter_init(&quiet, NULL, "x", "y", 2);
  cz_progress_add(&quiet, 2);
  CHECK_EQ_INT(__atomic_load_n(&quiet.done, __ATOMIC_RELAXED), 2);
}

/* ---- The ticker: a phase with no reports still prints ------------------------- */

static void test_ticker(void) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cz_progress_meter m;
  cz_progress_meter_init(&m, f, CZ_PROGRESS_LINES, 0.05, NULL, NULL, true);
  cz_progress_report(&m.sink, "keygen", "", 0, 0);
  struct timespec t0, now;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  unsigned lines;
  do { /* poll until the ticker has printed twice more (or 20 s pass) */
    pthread_mutex_lock(&m.mu);
    lines = m.lines;
    pthread_mutex_unlock(&m.mu);
    clock_gettime(CLOCK_MONOTONIC, &now);
  } while (lines < 3 && now.tv_sec - t0.tv_sec < 20);
  cz_progress_meter_end(&m);
  fclose(f);
  CHECK(lines >= 3);
  CHECK(!strncmp(buf, "progress keygen: elapsed 0.0s\nprogress keygen: elapsed ", 55));
  free(buf);
}

int main(void) {
  test_format();
  test_lines();
  test_tty();
  test_off();
  test_counter();
  test_ticker();
  return check_report("test_progress");
}
