/* Synthesis slots: pipeline.max_parallel_synthesis as a counting semaphore
 * over every pipeline item being synthesized in one engine. Each job's
 * pipeline already bounds its own items (synthesis_concurrency); with several
 * workers those bounds add up, and a 32 GiB PoRep partition holds 20.9 GB
 * while it is synthesized (docs/operating.md), so the engine-wide cap is what
 * keeps the sum in hand. */
#include <time.h>
#include "engine/engine_internal.h"

void cz_synth_slots_init(cz_synth_slots *s, unsigned cap) {
  pthread_mutex_init(&s->mu, NULL);
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&s->cv, &ca);
  pthread_condattr_destroy(&ca);
  s->cap = cap;
  s->busy = 0;
}

void cz_synth_slots_destroy(cz_synth_slots *s) {
  pthread_mutex_destroy(&s->mu);
  pthread_cond_destroy(&s->cv);
}

bool cz_synth_slots_take(cz_synth_slots *s, const atomic_bool *cancel) {
  pthread_mutex_lock(&s->mu);
  while (s->cap && s->busy >= s->cap) {
    if (cancel && atomic_load(cancel)) {
      pthread_mutex_unlock(&s->mu);
      return false;
    }
    /* A bounded wait, so that a cancellation is seen (as membudget.c). */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += 50 * 1000000L;
    if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
    pthread_cond_timedwait(&s->cv, &s->mu, &ts);
  }
  s->busy++;
  pthread_mutex_unlock(&s->mu);
  return true;
}

void cz_synth_slots_give(cz_synth_slots *s) {
  pthread_mutex_lock(&s->mu);
  if (s->busy) s->busy--;
  pthread_cond_signal(&s->cv);
  pthread_mutex_unlock(&s->mu);
}
