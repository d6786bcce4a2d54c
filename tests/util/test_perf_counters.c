/* Hardware counters either read plausible counts or say, in one line, why
 * they are unavailable; no call crashes either way. Which branch runs
 * depends on the machine (these VMs have no PMU: the second). */
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "../check.h"
#include "cuzk/perf_counters.h"

#define ITERS 2000000u

/* Work the compiler cannot drop: at least ITERS instructions (a loop of
 * ITERS iterations has an add, a compare and a branch each). */
static volatile uint64_t sink;
static void *work(void *arg) {
  (void)arg;
  uint64_t x = 1;
  for (unsigned i = 0; i < ITERS; i++) {
    x = x * 6364136223846793005ull + i;
    __asm__ volatile("" : "+r"(x));
  }
  sink = x;
  return NULL;
}

static void check_format(const cz_perf_counts *c) {
  char line[256];
  size_t n = cz_perf_format(c, line, sizeof line);
  CHECK_EQ_INT(n, strlen(line));
  CHECK(strchr(line, '\n') == NULL);
  for (int e = 0; e < CZ_PERF_N_EVENTS; e++) {
    char key[40];
    snprintf(key, sizeof key, "%s=", cz_perf_event_name((cz_perf_event)e));
    CHECK(strstr(line, key) != NULL);
  }
  CHECK(strstr(line, "ipc=") != NULL);
}

/* Event names, and the formatting of missing values and of a known
 * count, independent of the machine. */
static void test_names_and_format(void) {
  CHECK(strcmp(cz_perf_event_name(CZ_PERF_CYCLES), "cycles") == 0);
  CHECK(strcmp(cz_perf_event_name(CZ_PERF_N_EVENTS), "?") == 0);

  /* Formatting of missing values, independent of the machine. */
  cz_perf_counts none;
  memset(&none, 0, sizeof none);
  CHECK(cz_perf_ipc(&none) < 0);
  char line[256];
  cz_perf_format(&none, line, sizeof line);
  CHECK(strcmp(line,
               "cycles=n/a instructions=n/a ipc=n/a l1d_read_misses=n/a llc_misses=n/a "
               "branch_misses=n/a") == 0);
  cz_perf_counts some = none;
  some.valid[CZ_PERF_CYCLES] = some.valid[CZ_PERF_INSTRUCTIONS] = true;
  some.value[CZ_PERF_CYCLES] = 400;
  some.value[CZ_PERF_INSTRUCTIONS] = 1000;
  CHECK(fabs(cz_perf_ipc(&some) - 2.5) < 1e-12);
  cz_perf_format(&some, line, sizeof line);
  CHECK(strncmp(line, "cycles=400 instructions=1000 ipc=2.50 ", 38) == 0);
}

/* Closing a zeroed cz_perf (never opened) leaves fd 0 alone. */
static void test_close_zeroed(void) {
  cz_perf zeroed;
  memset(&zeroed, 0, sizeof zeroed);
  int stdin_before = fcntl(0, F_GETFD);
  cz_perf_close(&zeroed); /* must not close fd 0 */
  CHECK_EQ_INT(fcntl(0, F_GETFD), stdin_before);
}

/* Counters unavailable (open failed with e, why): one line saying why,
 * and every other call a harmless no-op that reads nothing. */
static void check_unavailable(cz_perf *p, cz_err e, const char *why) {
  cz_perf_counts c;
  printf("perf counters unavailable: %s\n", why);
  CHECK(e == CZ_ERR_IO);
  CHECK(!cz_perf_available(p));
  CHECK(why[0] != 0 && strchr(why, '\n') == NULL);
  CHECK(strncmp(why, "perf_event_open(", 16) == 0);
  CHECK(strcmp(why, p->reason) == 0);
  /* Everything else is a harmless no-op. */
  cz_perf_start(p);
  work(NULL);
  cz_perf_stop(p);
  cz_perf_read(p, &c);
  for (int i = 0; i < CZ_PERF_N_EVENTS; i++) CHECK(!c.valid[i]);
  CHECK(cz_perf_ipc(&c) < 0);
  check_format(&c);
}

/* The calling thread's work: plausible counts, and once stopped a read
 * later gives the same counts. */
static void check_this_thread(cz_perf *p) {
  cz_perf_counts c;
  char line[256];
  cz_perf_start(p);
  work(NULL);
  cz_perf_stop(p);
  cz_perf_read(p, &c);
  cz_perf_format(&c, line, sizeof line);
  printf("perf (this thread): %s%s%s\n", line, p->reason[0] ? "; missing: " : "", p->reason);
  check_format(&c);
  if (c.valid[CZ_PERF_INSTRUCTIONS]) CHECK(c.value[CZ_PERF_INSTRUCTIONS] >= ITERS);
  if (c.valid[CZ_PERF_CYCLES]) CHECK(c.value[CZ_PERF_CYCLES] > 0);
  double ipc = cz_perf_ipc(&c);
  if (ipc >= 0) CHECK(ipc > 0.05 && ipc < 16);
  /* Stopped: a read later gives the same counts. */
  work(NULL);
  cz_perf_counts again;
  cz_perf_read(p, &again);
  for (int i = 0; i < CZ_PERF_N_EVENTS; i++)
    if (c.valid[i]) CHECK(again.value[i] == c.value[i]);
}

/* A thread created after open counts too (inherit), and the first
 * measurement's counts are not carried into the second; then nothing runs
 * between start and stop: (almost) nothing is counted. */
static void check_child_thread(cz_perf *p) {
  cz_perf_counts c;
  char line[256];
  cz_perf_start(p);
  pthread_t t;
  CHECK(pthread_create(&t, NULL, work, NULL) == 0);
  pthread_join(t, NULL);
  cz_perf_stop(p);
  cz_perf_read(p, &c);
  cz_perf_format(&c, line, sizeof line);
  printf("perf (child thread): %s\n", line);
  if (c.valid[CZ_PERF_INSTRUCTIONS]) {
    CHECK(c.value[CZ_PERF_INSTRUCTIONS] >= ITERS);
    CHECK(c.value[CZ_PERF_INSTRUCTIONS] < 20ull * ITERS);
  }
  /* Nothing runs between start and stop: (almost) nothing is counted. */
  cz_perf_start(p);
  cz_perf_stop(p);
  cz_perf_read(p, &c);
  if (c.valid[CZ_PERF_INSTRUCTIONS]) CHECK(c.value[CZ_PERF_INSTRUCTIONS] < ITERS / 10);
}

int main(void) {
  test_names_and_format();
  test_close_zeroed();

  cz_perf p;
  char why[256] = "";
  cz_err e = cz_perf_open(&p, why, sizeof why);
  if (e != CZ_OK) {
    check_unavailable(&p, e, why);
  } else {
    CHECK(cz_perf_available(&p));
    check_this_thread(&p);
    check_child_thread(&p);
  }
  cz_perf_close(&p);
  cz_perf_close(&p); /* idempotent */
  return check_report("perf_counters");
}
