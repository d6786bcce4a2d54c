/* The two-stage pipeline: synthesis threads feed the provers (the calling
 * thread; with devices, one thread per device slot) in partition order,
 * through a bounded window. One run may carry
 * the partitions of several jobs (a batch): they are proved job after job,
 * so the next job's synthesis overlaps the current job's proving, and a
 * failure or a cancellation ends only its own job (its other partitions
 * are skipped). The kind's ops synthesize, prove_partition and discard
 * are the stages; each job is answered as soon as it is over. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/clock.h"
#include "cuzk/parallel.h"
#include "engine/engine_internal.h"
#include "util/msg.h"

/* How a job of the run stands. */
typedef struct {
  cz_err err;    /* the first error, or CZ_ERR_INVALID_ARG when cancelled */
  bool dead;     /* failed or cancelled: its remaining partitions are skipped */
  char msg[512]; /* why */
  size_t done;   /* partitions proved, failed or skipped */
} job_outcome;

typedef struct {
  cz_job *const *jobs;
  const cz_proof_ops *ops; /* the jobs' kind's */
  void *self;              /* what its entries are given */
  size_t n;                /* partitions of all jobs */
  size_t *job_of;          /* partition -> job */
  size_t *local;           /* partition -> its index within the job */
  job_outcome *out;        /* per job */
  cz_engine *e;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  size_t next_synth; /* next partition to start synthesizing */
  size_t next_prove; /* next partition a prover takes */
  size_t proved;     /* partitions whose proving is over */
  size_t window;
  /* Partitions whose synthesis started and whose state is not yet proved
   * or discarded: at most window (next_synth - proved). Reported in
   * SYNTH_START (in_flight=) so a log shows partitions stream. */
  size_t alive;
  void **state;
  bool *ready; /* synthesized (state set) or skipped (state NULL) */
  bool stop;   /* a thread could not start: nothing more runs */
} pipe_run;

size_t cz_pipeline_window(const cz_engine_config *cfg) {
  if (cfg->serial) return 1;
  return (size_t)(cfg->synthesis_concurrency ? cfg->synthesis_concurrency : 1) +
         (cfg->max_queue_depth ? cfg->max_queue_depth : 1);
}

unsigned cz_pipeline_synth_threads(const cz_engine_config *cfg) {
  if (cfg->synthesis_threads) return cfg->synthesis_threads;
  unsigned at_once = cfg->serial || !cfg->synthesis_concurrency ? 1 : cfg->synthesis_concurrency;
  unsigned t = cz_parallel_threads(0) / at_once;
  return t ? t : 1;
}

/* Job j failed (the first error wins); its remaining partitions are
 * skipped. Caller holds r->mu. */
static void job_fail_locked(pipe_run *r, size_t j, cz_err err, const char *msg) {
  job_outcome *o = &r->out[j];
  if (!o->dead) {
    o->dead = true;
    o->err = err;
    snprintf(o->msg, sizeof o->msg, "%s", msg && msg[0] ? msg : cz_err_str(err));
  }
  pthread_cond_broadcast(&r->cv);
}

/* Synthesize partition i of job j (the k-th partition of the run) into
 * *st, with its synthesis slot, TIMELINE events, timings and state. CZ_OK
 * with *st, or the entry's error, or CZ_ERR_INVALID_ARG with msg
 * "cancelled" (then *st is NULL: a state made is discarded here). */
static cz_err synthesize_one(pipe_run *r, size_t j, size_t i, size_t in_flight, void **st,
                             char *msg, size_t msg_len) {
  cz_job *job = r->jobs[j];
  char d[64];
  snprintf(d, sizeof d, "item=%zu,in_flight=%zu", i, in_flight);
  /* The engine-wide cap (pipeline.max_parallel_synthesis), taken before
   * SYNTH_START: the wait for a slot is not synthesis time. */
  bool slot = false;
  bool go = cz_job_synth_begin(job, &slot) && cz_job_event(job, "SYNTH_START", d);
  if (go) cz_job_item_state(job, i, CZ_PART_SYNTHESIZING, 0);
  uint64_t t0 = cz_now_ms();
  cz_err err = go ? r->ops->synthesize(r->self, &job->ctx, i, st, msg, msg_len) : CZ_OK;
  uint64_t ms = cz_now_ms() - t0;
  cz_job_synth_end(job, slot);
  if (go && err == CZ_OK) {
    snprintf(d, sizeof d, "item=%zu,synth_ms=%llu", i, (unsigned long long)ms);
    go = cz_job_event(job, "SYNTH_END", d);
    cz_job_add_timing(job, ms, 0);
    cz_job_item_state(job, i, CZ_PART_SYNTHESIZED, ms);
    snprintf(d, sizeof d, "item=%zu", i);
    if (go) go = cz_job_event(job, "GPU_QUEUE", d);
  }
  if (err == CZ_OK && go) return CZ_OK;
  cz_job_item_state(job, i, CZ_PART_FAILED, 0);
  if (err == CZ_OK && *st) r->ops->discard(r->self, *st);
  *st = NULL; /* a failed synthesize's state is not ours */
  return err != CZ_OK ? err : cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "cancelled");
}

/* Partition k's synthesis is over (st, or err): hand it to the prover, or
 * discard it when nobody will prove it. Caller holds r->mu. */
static void synthesized_locked(pipe_run *r, size_t k, cz_err err, void *st, const char *msg) {
  size_t j = r->job_of[k];
  if (err != CZ_OK) {
    job_fail_locked(r, j, err, msg);
  } else if (r->out[j].dead || r->stop) {
    r->ops->discard(r->self, st);
    st = NULL;
  }
  if (!st) r->alive--;
  r->state[k] = st;
  r->ready[k] = true;
  pthread_cond_broadcast(&r->cv);
}

static void *synth_main(void *arg) {
  pipe_run *r = arg;
  pthread_mutex_lock(&r->mu);
  for (;;) {
    while (!r->stop && r->next_synth < r->n && r->next_synth >= r->proved + r->window)
      pthread_cond_wait(&r->cv, &r->mu);
    if (r->stop || r->next_synth >= r->n) break;
    size_t k = r->next_synth++, j = r->job_of[k];
    if (r->out[j].dead) { /* skipped: the prover passes over it */
      r->ready[k] = true;
      pthread_cond_broadcast(&r->cv);
      continue;
    }
    size_t in_flight = ++r->alive;
    pthread_mutex_unlock(&r->mu);
    char msg[512] = "";
    void *st = NULL;
    cz_err err = synthesize_one(r, j, r->local[k], in_flight, &st, msg, sizeof msg);
    pthread_mutex_lock(&r->mu);
    synthesized_locked(r, k, err, st, msg);
  }
  pthread_mutex_unlock(&r->mu);
  return NULL;
}

/* Partition i of job j made again after its device failed (the failed
 * prove consumed the state). */
static cz_err resynthesize(pipe_run *r, cz_job *job, size_t i, void **st, char *msg,
                           size_t msg_len) {
  uint64_t t0 = cz_now_ms();
  cz_err err = r->ops->synthesize(r->self, &job->ctx, i, st, msg, msg_len);
  cz_job_add_timing(job, cz_now_ms() - t0, 0);
  return err;
}

/* prove_partition on the engine's devices: a device's fault (out of
 * memory, a device error, a proof that does not verify) makes the
 * partition again and proves it on another device, then on the fallback.
 * st is consumed; *where names the device that proved it. Without
 * devices: the kind's own prover, once. */
static cz_err prove_on_devices(pipe_run *r, cz_job *job, size_t i, void *st, uint8_t *out,
                               const char **where, char *msg, size_t msg_len) {
  cz_devices *devs = &r->e->devs;
  *where = NULL;
  if (!devs->n || !r->ops->uses_devices)
    return r->ops->prove_partition(r->self, &job->ctx, i, st, out, msg, msg_len);
  uint32_t excluded = 0;
  for (;;) {
    cz_err err = CZ_OK;
    if (!st && (err = resynthesize(r, job, i, &st, msg, msg_len)) != CZ_OK) return err;
    int d = cz_devices_acquire(devs, job->prio, excluded, &job->cancel, job->id, job->req.kind,
                               (uint32_t)i);
    if (d == CZ_DEVICE_CANCELLED || (d == CZ_DEVICE_NONE && !devs->fallback)) {
      r->ops->discard(r->self, st);
      if (d == CZ_DEVICE_CANCELLED)
        return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "cancelled");
      return cz_msg_err(msg, msg_len, CZ_ERR_DEVICE, "no healthy device left for partition %zu", i);
    }
    /* when the partition got a device: GPU_START to here is its wait */
    char ev[160];
    snprintf(ev, sizeof ev, "item=%zu,device=%s", i, cz_devices_name(devs, d));
    cz_job_event(job, "DEVICE", ev);
    cz_job_ctx ctx = job->ctx;
    ctx.device = cz_devices_handle(devs, d);
    char d_msg[512] = "";
    err = r->ops->prove_partition(r->self, &ctx, i, st, out, d_msg, sizeof d_msg);
    st = NULL;
    cz_devices_release(devs, d, job->id, (uint32_t)i, err, d_msg);
    *where = cz_devices_name(devs, d);
    if (err == CZ_OK) return CZ_OK;
    bool again = d >= 0 && cz_devices_is_fault(err) && !atomic_load(&job->cancel);
    if (!again) return cz_msg_err(msg, msg_len, err, "%s", d_msg);
    fprintf(stderr, "cuzk engine: job %s partition %zu failed on %s (%s); proving it elsewhere\n",
            job->id, i, cz_devices_name(devs, d), d_msg);
    excluded |= 1u << d;
  }
}

/* Prove partition i of job j from st (NULL: skipped), on this thread.
 * CZ_OK, prove_partition's error, or CZ_ERR_INVALID_ARG with msg "cancelled". */
static cz_err prove_one(pipe_run *r, size_t j, size_t i, void *st, bool dead, char *msg,
                        size_t msg_len) {
  cz_job *job = r->jobs[j];
  if (!st) {
    cz_job_item_state(job, i, CZ_PART_FAILED, 0); /* skipped */
    return CZ_OK;
  }
  if (dead) {
    r->ops->discard(r->self, st);
    return CZ_OK;
  }
  char d[64];
  snprintf(d, sizeof d, "item=%zu", i);
  if (!cz_job_event(job, "GPU_PICKUP", d) || !cz_job_event(job, "GPU_START", d)) {
    r->ops->discard(r->self, st);
    cz_job_item_state(job, i, CZ_PART_FAILED, 0);
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "cancelled");
  }
  cz_job_item_state(job, i, CZ_PART_PROVING, 0);
  uint64_t t0 = cz_now_ms();
  uint8_t *out = job->out + i * job->plan.proof_bytes;
  const char *where;
  cz_err err = prove_on_devices(r, job, i, st, out, &where, msg, msg_len);
  uint64_t ms = cz_now_ms() - t0;
  if (err != CZ_OK) {
    cz_job_item_state(job, i, CZ_PART_FAILED, 0);
    return err;
  }
  char dd[160];
  snprintf(dd, sizeof dd, "item=%zu,gpu_ms=%llu%s%s", i, (unsigned long long)ms,
           where ? ",device=" : "", where ? where : "");
  bool go = cz_job_event(job, "GPU_END", dd);
  cz_job_add_timing(job, 0, ms);
  cz_job_item_state(job, i, CZ_PART_DONE, ms);
  return go ? CZ_OK : cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "cancelled");
}

/* A prover of the run: takes the partitions in order as they are ready and
 * proves each (several provers: several partitions on several devices at
 * once); a job is answered once all its partitions have passed. */
static void *prove_main(void *arg) {
  pipe_run *r = arg;
  pthread_mutex_lock(&r->mu);
  for (;;) {
    while (!r->stop && r->next_prove < r->n && !r->ready[r->next_prove])
      pthread_cond_wait(&r->cv, &r->mu);
    if (r->stop || r->next_prove >= r->n) break;
    size_t k = r->next_prove++, j = r->job_of[k], i = r->local[k];
    void *st = r->state[k];
    r->state[k] = NULL;
    r->ready[k] = false;
    bool dead = r->out[j].dead;
    pthread_mutex_unlock(&r->mu);
    char msg[512] = "";
    cz_err err = prove_one(r, j, i, st, dead, msg, sizeof msg);
    pthread_mutex_lock(&r->mu);
    if (st) r->alive--; /* proved or discarded */
    r->proved++;
    if (err != CZ_OK) job_fail_locked(r, j, err, msg);
    pthread_cond_broadcast(&r->cv);
    bool last = ++r->out[j].done == r->jobs[j]->plan.n_partitions;
    if (last) {
      /* out[j] is final: no other partition of job j is left. */
      pthread_mutex_unlock(&r->mu);
      cz_job_answer(r->jobs[j], r->out[j].err, r->out[j].msg);
      pthread_mutex_lock(&r->mu);
    }
  }
  pthread_mutex_unlock(&r->mu);
  return NULL;
}

/* Provers of a run: one per device slot (at most one per partition), or
 * one (the calling thread's) when the engine has no devices or the kind
 * uses none. */
static unsigned provers_for(cz_engine *e, const cz_proof_ops *ops, size_t n) {
  unsigned slots = 0;
  for (unsigned d = 0; ops->uses_devices && d < e->devs.n; d++) slots += e->devs.dev[d].d.workers;
  if (!slots) slots = 1;
  return slots < n ? slots : (unsigned)n;
}

static void run(pipe_run *r, unsigned conc) {
  pthread_t *th = calloc(conc, sizeof *th);
  unsigned started = 0;
  if (th)
    for (; started < conc; started++)
      if (pthread_create(&th[started], NULL, synth_main, r) != 0) break;
  if (!started) {
    pthread_mutex_lock(&r->mu);
    r->stop = true;
    pthread_mutex_unlock(&r->mu);
  }
  unsigned np = provers_for(r->e, r->ops, r->n), np_started = 0;
  pthread_t *pt = started ? calloc(np, sizeof *pt) : NULL;
  if (pt)
    for (; np_started + 1 < np; np_started++)
      if (pthread_create(&pt[np_started], NULL, prove_main, r) != 0) break;
  prove_main(r); /* this thread is a prover too */
  for (unsigned t = 0; t < np_started; t++) pthread_join(pt[t], NULL);
  free(pt);
  for (unsigned t = 0; t < started; t++) pthread_join(th[t], NULL);
  for (size_t k = 0; k < r->n; k++)
    if (r->ready[k] && r->state[k]) r->ops->discard(r->self, r->state[k]);
  if (!started)
    for (size_t k = 0; k < r->n; k++)
      job_fail_locked(r, r->job_of[k], CZ_ERR_NOMEM, "cannot start a synthesis thread");
  free(th);
}

void cz_pipeline_run(cz_engine *e, cz_job *const *jobs, size_t n_jobs) {
  size_t n = 0;
  for (size_t j = 0; j < n_jobs; j++) n += jobs[j]->plan.n_partitions;
  if (!n_jobs || !n) return;
  unsigned conc = e->cfg.serial                  ? 1
                  : e->cfg.synthesis_concurrency ? e->cfg.synthesis_concurrency
                                                 : 1;
  if (conc > n) conc = (unsigned)n;
  pipe_run r = {.e = e,
                .jobs = jobs,
                .ops = &e->ops[jobs[0]->req.kind],
                .self = e->ops_self[jobs[0]->req.kind],
                .n = n,
                .window = cz_pipeline_window(&e->cfg)};
  for (size_t j = 0; j < n_jobs; j++) /* a job narrowed to fit the budget */
    if (jobs[j]->ctx.window < r.window) r.window = jobs[j]->ctx.window;
  r.job_of = calloc(n, sizeof *r.job_of);
  r.local = calloc(n, sizeof *r.local);
  r.out = calloc(n_jobs, sizeof *r.out);
  r.state = calloc(n, sizeof *r.state);
  r.ready = calloc(n, sizeof *r.ready);
  bool ran = r.job_of && r.local && r.out && r.state && r.ready;
  if (ran) {
    size_t k = 0;
    for (size_t j = 0; j < n_jobs; j++) {
      cz_job_items_begin(jobs[j], jobs[j]->plan.n_partitions);
      for (size_t i = 0; i < jobs[j]->plan.n_partitions; i++, k++) r.job_of[k] = j, r.local[k] = i;
    }
    pthread_mutex_init(&r.mu, NULL);
    pthread_cond_init(&r.cv, NULL);
    run(&r, conc);
    pthread_mutex_destroy(&r.mu);
    pthread_cond_destroy(&r.cv);
  }
  /* Jobs the run did not answer (no thread could start, or no memory for
   * the run): answered here; cz_job_answer ignores the others. */
  for (size_t j = 0; j < n_jobs; j++)
    if (ran) cz_job_answer(jobs[j], r.out[j].err, r.out[j].msg);
    else cz_job_answer(jobs[j], CZ_ERR_NOMEM, "out of memory");
  free(r.job_of), free(r.local), free(r.out), free(r.state), free(r.ready);
}
