/* The memory budget: every large allocation of the engine and its provers
 * reserves here first, and waits (backpressure) instead of running the
 * machine out of memory. The buffer pool's idle blocks (util/bigbuf.h:
 * a finished partition's a/b and witness, kept faulted in for the next
 * one) hold real memory that no reservation covers, so they count as used,
 * and the pool is trimmed before anything else under pressure. */
#include <errno.h>
#include <time.h>
#include "engine/engine_internal.h"
#include "util/bigbuf.h"

static uint64_t pool_idle(void) {
  cz_pool_usage u;
  cz_pool_stats(&u);
  return u.idle_bytes;
}

void cz_membudget_init(cz_membudget *b, uint64_t total) {
  pthread_mutex_init(&b->mu, NULL);
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&b->cv, &ca);
  pthread_condattr_destroy(&ca);
  b->total = total;
  b->used = 0;
  b->pressure = NULL;
  b->pressure_ctx = NULL;
}

void cz_membudget_destroy(cz_membudget *b) {
  pthread_mutex_destroy(&b->mu);
  pthread_cond_destroy(&b->cv);
}

bool cz_membudget_try_reserve(cz_membudget *b, uint64_t bytes) {
  for (int pass = 0;; pass++) {
    uint64_t idle = pool_idle();
    pthread_mutex_lock(&b->mu);
    uint64_t free_b = b->total - b->used;
    bool ok = bytes <= free_b && idle <= free_b - bytes;
    if (ok) b->used += bytes;
    pthread_mutex_unlock(&b->mu);
    if (ok || bytes > free_b || pass) return ok;
    /* Room but for the pool's idle blocks: drop what is in the way. */
    cz_pool_trim(idle - (free_b - bytes));
  }
}

cz_err cz_membudget_reserve(cz_membudget *b, uint64_t bytes, const atomic_bool *cancel) {
  if (bytes > b->total) return CZ_ERR_NOMEM;
  for (;;) {
    if (cz_membudget_try_reserve(b, bytes)) return CZ_OK;
    if (cancel && atomic_load(cancel)) return CZ_ERR_NOMEM;
    /* Idle SRS goes before anyone waits on it. */
    if (b->pressure) {
      pthread_mutex_lock(&b->mu);
      uint64_t short_by = bytes - (b->total - b->used);
      pthread_mutex_unlock(&b->mu);
      if (b->pressure(b->pressure_ctx, short_by) > 0) continue;
    }
    /* Wait for a release; a bounded wait so that cancellation is seen. */
    pthread_mutex_lock(&b->mu);
    if (bytes > b->total - b->used) {
      struct timespec ts;
      clock_gettime(CLOCK_MONOTONIC, &ts);
      ts.tv_nsec += 50 * 1000000L;
      if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
      pthread_cond_timedwait(&b->cv, &b->mu, &ts);
    }
    pthread_mutex_unlock(&b->mu);
  }
}

void cz_membudget_release(cz_membudget *b, uint64_t bytes) {
  pthread_mutex_lock(&b->mu);
  b->used = bytes > b->used ? 0 : b->used - bytes;
  pthread_cond_broadcast(&b->cv);
  pthread_mutex_unlock(&b->mu);
}

uint64_t cz_membudget_used(cz_membudget *b) {
  pthread_mutex_lock(&b->mu);
  uint64_t u = b->used;
  pthread_mutex_unlock(&b->mu);
  return u;
}
