/* cz_parallel_for: one pthread per extra worker, created per call. Kernels
 * call it a few times per transform, so creation cost (tens of microseconds)
 * is small against the work; a persistent pool can replace this later behind
 * the same interface. */
#include "cuzk/parallel.h"
#include <pthread.h>
#include <stdbool.h>
#include <unistd.h>

unsigned cz_parallel_threads(unsigned n_threads) {
  if (n_threads == 0) {
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    n_threads = c > 0 ? (unsigned)c : 1;
  }
  return n_threads > CZ_PARALLEL_MAX_THREADS ? CZ_PARALLEL_MAX_THREADS : n_threads;
}

unsigned cz_parallel_workers(size_t n_items, unsigned n_threads) {
  unsigned t = cz_parallel_threads(n_threads);
  return n_items < t ? (unsigned)n_items : t;
}

typedef struct {
  cz_parallel_fn fn;
  void *ctx;
  size_t begin, end;
  unsigned worker;
} job;

static void *run_job(void *p) {
  job *j = p;
  j->fn(j->ctx, j->begin, j->end, j->worker);
  return NULL;
}

void cz_parallel_for(size_t n_items, unsigned n_threads, cz_parallel_fn fn, void *ctx) {
  unsigned t = cz_parallel_workers(n_items, n_threads);
  if (t == 0) return;
  if (t == 1) {
    fn(ctx, 0, n_items, 0);
    return;
  }
  job jobs[CZ_PARALLEL_MAX_THREADS];
  pthread_t tids[CZ_PARALLEL_MAX_THREADS];
  bool started[CZ_PARALLEL_MAX_THREADS];
  /* Worker w gets q items, plus one more for the first n_items % t workers. */
  size_t q = n_items / t, rem = n_items % t, pos = 0;
  for (unsigned w = 0; w < t; w++) {
    size_t len = q + (w < rem);
    jobs[w] = (job){fn, ctx, pos, pos + len, w};
    pos += len;
  }
  for (unsigned w = 1; w < t; w++)
    started[w] = pthread_create(&tids[w], NULL, run_job, &jobs[w]) == 0;
  run_job(&jobs[0]);
  for (unsigned w = 1; w < t; w++) {
    if (started[w]) pthread_join(tids[w], NULL);
    else run_job(&jobs[w]);
  }
}
