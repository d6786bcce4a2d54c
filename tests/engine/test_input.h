/* What the engine tests share: the test kinds' own input format and a wait
 * with a deadline.
 *
 * A test kind reads its input from the request's vanilla_proof, as a real
 * kind reads a C1 or bincode proofs from it: words "key=value" separated
 * by spaces ("items=6 fail=3"). */
#ifndef CUZK_TESTS_ENGINE_TEST_INPUT_H
#define CUZK_TESTS_ENGINE_TEST_INPUT_H
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "check.h"
#include "cuzk/engine.h"
#include "cuzk/proof_ops.h"

/* The value of key in the request's input, or dflt when it has none. */
static inline uint64_t test_input(const cz_job_request *r, const char *key, uint64_t dflt) {
  char text[256];
  size_t n = r->vanilla_proof.len < sizeof text - 1 ? r->vanilla_proof.len : sizeof text - 1;
  if (n) memcpy(text, r->vanilla_proof.data, n);
  text[n] = 0;
  size_t k = strlen(key);
  char *save = NULL; /* strtok_r: entries read their input on several threads */
  for (char *w = strtok_r(text, " ", &save); w; w = strtok_r(NULL, " ", &save))
    if (!strncmp(w, key, k) && w[k] == '=') return strtoull(w + k + 1, NULL, 10);
  return dflt;
}

/* The test kinds' plan entry: "items=N" partitions of one byte each; no
 * items is refused. */
static inline cz_err test_items_plan(void *self, const cz_job_ctx *ctx, cz_job_plan *p, char *msg,
                                     size_t len) {
  (void)self;
  p->n_partitions = test_input(ctx->req, "items", 0);
  p->proof_bytes = 1;
  if (p->n_partitions) return CZ_OK;
  snprintf(msg, len, "no items");
  return CZ_ERR_INVALID_ARG;
}

/* A request of kind with that input text. */
static inline cz_job_request test_request(const char *id, cz_proof_kind kind, const char *input) {
  cz_job_request r = {.request_id = id, .kind = kind};
  if (input) r.vanilla_proof = (cz_bytes){(const uint8_t *)input, strlen(input)};
  return r;
}

/* Poll cond(arg) every millisecond until it holds: true, or false (and a
 * failed CHECK naming what) once timeout_s have passed, so that a test
 * whose engine stalls fails instead of hanging. */
static inline bool test_wait(bool (*cond)(void *), void *arg, unsigned timeout_s,
                             const char *what) {
  struct timespec t0, now;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (;;) {
    if (cond(arg)) return true;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - t0.tv_sec >= (time_t)timeout_s) {
      fprintf(stderr, "gave up waiting %u s for %s\n", timeout_s, what);
      CHECK(!"the engine got there in time");
      return false;
    }
    usleep(1000);
  }
}

/* A flag another thread sets under its mutex, for test_wait (test_flag). */
typedef struct {
  pthread_mutex_t *mu;
  const bool *flag;
} test_locked_flag;

static inline bool test_flag(void *arg) {
  const test_locked_flag *f = arg;
  pthread_mutex_lock(f->mu);
  bool set = *f->flag;
  pthread_mutex_unlock(f->mu);
  return set;
}

#endif
