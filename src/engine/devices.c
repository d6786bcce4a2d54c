/* The engine's devices (cuzk/proof_ops.h "Devices"): partition slots per
 * device, handed out by priority, health from the outcome of each proof,
 * and the self-test thread that brings an unhealthy device back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cuzk/clock.h"
#include "engine/engine_internal.h"
#include "util/msg.h"

const char *cz_fault_cause_label(cz_fault_cause k) {
  static const char *const names[CZ_FAULT_COUNT] = {"oom", "device_error", "bad_proof"};
  return (unsigned)k < CZ_FAULT_COUNT ? names[k] : NULL;
}

void cz_devices_init(cz_devices *s, unsigned fail_limit, uint64_t test_interval_ms) {
  memset(s, 0, sizeof *s);
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->cv, NULL);
  s->fail_limit = fail_limit ? fail_limit : 3;
  s->test_interval_ms = test_interval_ms ? test_interval_ms : 60000;
}

cz_err cz_devices_add(cz_devices *s, const cz_engine_device *d) {
  if (!d || !d->name || !d->name[0] || !d->handle || !d->self_test || s->n >= CZ_ENGINE_MAX_DEVICES)
    return CZ_ERR_INVALID_ARG;
  cz_device *v = &s->dev[s->n++];
  v->d = *d;
  snprintf(v->name, sizeof v->name, "%s", d->name);
  v->d.name = v->name;
  if (!v->d.workers) v->d.workers = 2;
  v->healthy = true;
  return CZ_OK;
}

/* Wait on s->cv for at most ms (s->mu held). */
static void wait_locked(cz_devices *s, uint64_t ms) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_sec += (time_t)(ms / 1000);
  ts.tv_nsec += (long)(ms % 1000) * 1000000L;
  if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
  pthread_cond_timedwait(&s->cv, &s->mu, &ts);
}

/* The free, healthy device not in excluded with the fewest partitions in
 * flight (so partitions spread), or -1 when none is free now; with
 * yield_urgent, none that a waiting urgent partition could take. *any:
 * some healthy device outside excluded exists (free or not). */
static int pick_locked(cz_devices *s, uint32_t excluded, bool yield_urgent, bool *any) {
  int best = -1;
  *any = false;
  for (unsigned i = 0; i < s->n; i++) {
    cz_device *v = &s->dev[i];
    if (!v->healthy || (excluded >> i & 1u)) continue;
    *any = true;
    if (yield_urgent && s->urgent_want[i]) continue;
    if (v->busy < v->d.workers && (best < 0 || v->busy < s->dev[best].busy)) best = (int)i;
  }
  return best;
}

/* An urgent caller waiting with excluded: it wants (+1) or no longer
 * wants (-1) every other device. */
static void want_locked(cz_devices *s, uint32_t excluded, int delta) {
  for (unsigned i = 0; i < s->n; i++)
    if (!(excluded >> i & 1u)) s->urgent_want[i] += (unsigned)delta;
}

int cz_devices_acquire(cz_devices *s, cz_priority prio, uint32_t excluded,
                       const atomic_bool *cancel, const char *job, cz_proof_kind kind,
                       uint32_t partition) {
  bool urgent = prio >= CZ_PRIO_HIGH;
  pthread_mutex_lock(&s->mu);
  if (urgent) want_locked(s, excluded, +1);
  int got;
  for (;;) {
    bool any;
    /* A PoSt waiting for a device goes first: PoRep partitions wait. */
    got = pick_locked(s, excluded, !urgent, &any);
    if (!any) {
      got = CZ_DEVICE_NONE;
      break;
    }
    if (cancel && atomic_load(cancel)) {
      got = CZ_DEVICE_CANCELLED;
      break;
    }
    if (got >= 0) break;
    wait_locked(s, 20); /* poll the cancel flag */
  }
  if (urgent) want_locked(s, excluded, -1);
  if (got >= 0) {
    cz_device *v = &s->dev[got];
    v->busy++;
    for (unsigned k = 0; k < CZ_DEVICE_SHOWN; k++)
      if (!v->flight[k].seq) {
        snprintf(v->flight[k].job, sizeof v->flight[k].job, "%s", job ? job : "");
        v->flight[k].partition = partition;
        v->flight[k].kind = kind;
        v->flight[k].seq = ++v->next_seq;
        break;
      }
  }
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
  return got;
}

/* Which fault err is on a device (CZ_FAULT_COUNT: none of its doing). */
static cz_fault_cause fault_of(cz_err err) {
  switch (err) {
    case CZ_ERR_NOMEM: return CZ_FAULT_OOM;
    case CZ_ERR_DEVICE: return CZ_FAULT_DEVICE;
    case CZ_ERR_PROOF_INVALID: return CZ_FAULT_BAD_PROOF;
    default: return CZ_FAULT_COUNT;
  }
}

bool cz_devices_is_fault(cz_err err) { return fault_of(err) != CZ_FAULT_COUNT; }

/* Device v's in-flight entry for job's partition is free again. */
static void land_locked(cz_device *v, const char *job, uint32_t partition) {
  for (unsigned k = 0; k < CZ_DEVICE_SHOWN; k++)
    if (v->flight[k].seq && v->flight[k].partition == partition &&
        !strcmp(v->flight[k].job, job ? job : "")) {
      v->flight[k].seq = 0;
      return;
    }
}

void cz_devices_release(cz_devices *s, int i, const char *job, uint32_t partition, cz_err err,
                        const char *msg) {
  pthread_mutex_lock(&s->mu);
  if (i < 0) {
    if (err == CZ_OK) s->fallback_proved++;
    pthread_mutex_unlock(&s->mu);
    return;
  }
  cz_device *v = &s->dev[i];
  v->busy--;
  land_locked(v, job, partition);
  cz_fault_cause k = fault_of(err);
  if (err == CZ_OK) {
    v->proved++;
    v->consecutive = 0;
  } else if (k != CZ_FAULT_COUNT) {
    v->faults[k]++;
    v->consecutive++;
    fprintf(stderr, "cuzk device %s: %s fault (%s)\n", v->name, cz_fault_cause_label(k),
            msg && msg[0] ? msg : cz_err_str(err));
    if (v->healthy && (k == CZ_FAULT_BAD_PROOF || v->consecutive >= s->fail_limit)) {
      v->healthy = false;
      v->tested_ms = cz_now_ms();
      snprintf(v->why, sizeof v->why, "%s: %s",
               k == CZ_FAULT_BAD_PROOF ? "a proof made on it did not verify" : "faults in a row",
               msg && msg[0] ? msg : cz_err_str(err));
      fprintf(stderr, "cuzk device %s: unhealthy, not used until its self-test passes (%s)\n",
              v->name, v->why);
    }
  }
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
}

cz_err cz_devices_self_test(cz_devices *s, unsigned i, char *msg, size_t msg_len) {
  pthread_mutex_lock(&s->mu);
  if (i >= s->n) {
    pthread_mutex_unlock(&s->mu);
    return cz_msg_err(msg, msg_len, CZ_ERR_NOT_FOUND, "no device %u", i);
  }
  cz_device *v = &s->dev[i];
  pthread_mutex_unlock(&s->mu);
  char why[256] = "";
  cz_err e = v->d.self_test(v->d.handle, why, sizeof why);
  pthread_mutex_lock(&s->mu);
  v->tested_ms = cz_now_ms();
  if (e == CZ_OK && !v->healthy) {
    v->healthy = true;
    v->consecutive = 0;
    v->why[0] = 0;
    fprintf(stderr, "cuzk device %s: self-test passed, back in use\n", v->name);
  } else if (e != CZ_OK) {
    fprintf(stderr, "cuzk device %s: self-test failed (%s)\n", v->name, why);
  }
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
  cz_msg(msg, msg_len, "%s", why);
  return e;
}

/* The health thread: self-test each unhealthy device once its interval
 * has passed since it was taken out or last tested. */
static void *health_main(void *arg) {
  cz_devices *s = arg;
  pthread_mutex_lock(&s->mu);
  while (!s->stop) {
    for (unsigned i = 0; i < s->n && !s->stop; i++) {
      cz_device *v = &s->dev[i];
      if (v->healthy || cz_now_ms() - v->tested_ms < s->test_interval_ms) continue;
      pthread_mutex_unlock(&s->mu);
      char msg[256];
      cz_devices_self_test(s, i, msg, sizeof msg);
      pthread_mutex_lock(&s->mu);
    }
    wait_locked(s, s->test_interval_ms < 1000 ? s->test_interval_ms : 1000);
  }
  pthread_mutex_unlock(&s->mu);
  return NULL;
}

void cz_devices_start(cz_devices *s) {
  if (s->n && pthread_create(&s->health, NULL, health_main, s) == 0) s->health_started = true;
}

void cz_devices_stop(cz_devices *s) {
  pthread_mutex_lock(&s->mu);
  s->stop = true;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
  if (s->health_started) pthread_join(s->health, NULL);
  s->health_started = false;
}

void cz_devices_destroy(cz_devices *s) {
  cz_devices_stop(s);
  for (unsigned i = 0; i < s->n; i++)
    if (s->dev[i].d.close) s->dev[i].d.close(s->dev[i].d.handle);
  s->n = 0;
  pthread_mutex_destroy(&s->mu);
  pthread_cond_destroy(&s->cv);
}

void cz_devices_snapshot(cz_devices *s, cz_engine_stats *out) {
  pthread_mutex_lock(&s->mu);
  out->n_devices = s->n;
  out->fallback_proved = s->fallback_proved;
  for (unsigned i = 0; i < s->n; i++) {
    const cz_device *v = &s->dev[i];
    cz_device_status *o = &out->devices[i];
    memset(o, 0, sizeof *o);
    snprintf(o->name, sizeof o->name, "%s", v->name);
    o->workers = v->d.workers;
    o->busy = v->busy;
    o->healthy = v->healthy;
    snprintf(o->why, sizeof o->why, "%s", v->why);
    int shown = -1; /* the newest partition in flight */
    for (unsigned k = 0; k < CZ_DEVICE_SHOWN; k++)
      if (v->flight[k].seq && (shown < 0 || v->flight[k].seq > v->flight[shown].seq))
        shown = (int)k;
    snprintf(o->job_id, sizeof o->job_id, "%s", shown >= 0 ? v->flight[shown].job : "");
    o->partition = shown >= 0 ? v->flight[shown].partition : 0;
    o->kind = shown >= 0 ? v->flight[shown].kind : CZ_KIND_UNSPECIFIED;
    o->proved = v->proved;
    memcpy(o->faults, v->faults, sizeof o->faults);
  }
  pthread_mutex_unlock(&s->mu);
  /* the devices' own figures, outside the lock (a driver call) */
  for (unsigned i = 0; i < out->n_devices; i++) {
    const cz_engine_device *d = &s->dev[i].d;
    if (d->memory) d->memory(d->handle, &out->devices[i].mem_free, &out->devices[i].mem_total);
    if (d->oom_retries) out->devices[i].faults[CZ_FAULT_OOM] += d->oom_retries(d->handle);
  }
}

const void *cz_devices_handle(cz_devices *s, int i) {
  return i >= 0 ? s->dev[i].d.handle : s->fallback;
}

const char *cz_devices_name(cz_devices *s, int i) { return i >= 0 ? s->dev[i].name : "fallback"; }
