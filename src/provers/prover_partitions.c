/* What the PoRep, PoSt and SnapDeals provers share (provers_internal.h):
 * their state's common part, the declaration of a circuit, and jobs of
 * partitions through the engine's pipeline (setup, the two stages, the
 * answers); each prover gives only its plan and its circuit's synthesize /
 * prove. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/clock.h"
#include "provers/provers_internal.h"
#include "util/msg.h"

void cz_prover_common_init(cz_prover_common *c, const cz_provers_config *cfg, void *self,
                           const cz_partition_prover *hooks) {
  cz_provers_config_keep(&c->kept, cfg);
  pthread_mutex_init(&c->generate_lock, NULL);
  c->runner = *hooks;
  c->runner.self = self;
  c->runner.cfg = &c->kept.cfg;
}

void cz_prover_common_destroy(void *self) {
  cz_prover_common *c = self;
  pthread_mutex_destroy(&c->generate_lock);
  free(self);
}

cz_err cz_prover_circuit_declare(cz_engine *e, const cz_provers_config *cfg, cz_prover_srs *s,
                                 cz_prover_shape *shape, cz_shape_record_fn record,
                                 const void *ctx, uint64_t shape_bytes, char *msg,
                                 size_t msg_len) {
  cz_err err = cz_prover_srs_declare(e, cfg, s, msg, msg_len);
  if (err == CZ_OK && cfg->pce)
    err = cz_prover_shape_declare(e, shape, s, cfg->official_dir, record, ctx, shape_bytes, msg,
                                  msg_len);
  return err;
}

/* One job of a batch (or the only one). */
typedef struct {
  cz_partition_job pj;
  size_t n_partitions;
  uint8_t *out; /* n_partitions x 192 bytes, in order */
} job_run;

typedef struct {
  const cz_partition_prover *pp;
  job_run *runs;
  cz_job *const *jobs; /* a batch: answer each job once it is over */
} batch_run;

/* Everything a job needs before its partitions run: its plan, parameters
 * of the plan's circuit, the prover's check, the output, the recorded
 * shape (when on; without it the plain path is taken). msg on error. */
static cz_err job_setup(const cz_partition_prover *pp, const cz_job_request *req, cz_job *job,
                        job_run *r, char *msg, size_t len) {
  memset(r, 0, sizeof *r);
  if (!(r->pj.model = cz_request_model(req)))
    return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG, "the request was not parsed");
  cz_partition_plan plan = {0};
  cz_err e = pp->plan(pp->self, r->pj.model, &plan, msg, len);
  if (e != CZ_OK) return e;
  size_t srs_len;
  if (!(r->pj.srs = cz_job_srs(job, &srs_len)))
    return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG, "no parameters are loaded for %s", plan.name);
  if (plan.srs && r->pj.srs->params.vk.n_ic != plan.srs->n_ic)
    return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG, "the loaded parameters are not %s's circuit",
                      plan.name);
  if (pp->check && (e = pp->check(pp->self, r->pj.model, job, msg, len)) != CZ_OK) return e;
  if (!plan.n_partitions)
    return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG, "%s: no partitions", plan.name);
  if (!(r->out = malloc(plan.n_partitions * CZ_GROTH16_PROOF_BYTES)))
    return cz_msg_err(msg, len, CZ_ERR_NOMEM, "out of memory");
  r->n_partitions = plan.n_partitions;
  if (pp->cfg->pce && plan.shape) r->pj.shape = cz_prover_shape_acquire(job, plan.shape);
  return CZ_OK;
}

static cz_err stage_synthesize(void *vctx, size_t j, size_t i, void **state, char *msg,
                               size_t len) {
  batch_run *b = vctx;
  cz_assignment *as = malloc(sizeof *as);
  if (!as) return cz_msg_err(msg, len, CZ_ERR_NOMEM, "out of memory");
  uint64_t t0 = cz_now_ns();
  cz_err e = b->pp->synthesize(b->pp->self, &b->runs[j].pj, i, as, msg, len);
  if (e != CZ_OK) {
    free(as);
    return e;
  }
  cz_provers_phase_observe(CZ_PHASE_SYNTHESIS, cz_now_ns() - t0);
  *state = as;
  return CZ_OK;
}

static cz_err stage_prove(void *vctx, size_t j, size_t i, void *state, char *msg, size_t len) {
  batch_run *b = vctx;
  job_run *r = &b->runs[j];
  cz_err e = b->pp->prove(b->pp->self, &r->pj, i, state, r->out + i * CZ_GROTH16_PROOF_BYTES,
                          msg, len);
  free(state);
  return e;
}

static void stage_discard(void *vctx, size_t j, size_t i, void *state) {
  (void)vctx, (void)j, (void)i;
  cz_assignment_free(state);
  free(state);
}

static void batch_job_done(void *vctx, size_t j, cz_err err, const char *msg) {
  batch_run *b = vctx;
  job_run *r = &b->runs[j];
  uint8_t *proof = err == CZ_OK ? r->out : NULL;
  if (proof) r->out = NULL;
  cz_job_finish(b->jobs[j], err, proof, proof ? r->n_partitions * CZ_GROTH16_PROOF_BYTES : 0,
                msg);
}

static cz_batch_pipeline pipeline_of(const cz_partition_prover *pp, batch_run *b) {
  cz_batch_pipeline pl = {stage_synthesize, stage_prove, stage_discard, b,
                          pp->cfg->synthesis_concurrency, pp->cfg->max_queue_depth,
                          b->jobs ? batch_job_done : NULL, pp->cfg->serial};
  return pl;
}

cz_err cz_partitions_prove(void *self, const cz_job_request *req, cz_job *job, uint8_t **proof,
                           size_t *proof_len, char *msg, size_t msg_len) {
  const cz_partition_prover *pp = &((cz_prover_common *)self)->runner;
  job_run r;
  cz_err e = job_setup(pp, req, job, &r, msg, msg_len);
  if (e == CZ_OK) {
    batch_run b = {pp, &r, NULL};
    cz_batch_pipeline pl = pipeline_of(pp, &b);
    char m[1][512] = {""};
    cz_jobs_pipeline(&job, 1, &r.n_partitions, &pl, &e, m);
    if (e == CZ_OK) {
      *proof = r.out;
      *proof_len = r.n_partitions * CZ_GROTH16_PROOF_BYTES;
      r.out = NULL;
    } else {
      cz_msg(msg, msg_len, "%s", m[0]);
    }
  }
  free(r.out);
  return e;
}

void cz_partitions_prove_batch(void *self, const cz_job_request *const *reqs, cz_job *const *jobs,
                               size_t n, uint8_t **proofs, size_t *proof_lens, cz_err *errs,
                               char (*msgs)[512]) {
  const cz_partition_prover *pp = &((cz_prover_common *)self)->runner;
  job_run *runs = calloc(n, sizeof *runs);
  size_t *items = calloc(n, sizeof *items);
  if (!runs || !items) {
    for (size_t i = 0; i < n; i++)
      errs[i] = CZ_ERR_NOMEM, snprintf(msgs[i], 512, "out of memory");
    free(runs), free(items);
    return;
  }
  for (size_t i = 0; i < n; i++) {
    proofs[i] = NULL, proof_lens[i] = 0, msgs[i][0] = 0;
    errs[i] = job_setup(pp, reqs[i], jobs[i], &runs[i], msgs[i], 512);
    if (errs[i] == CZ_OK) items[i] = runs[i].n_partitions;
    /* Answered at once: it does not wait for the others' partitions. */
    else cz_job_finish(jobs[i], errs[i], NULL, 0, msgs[i]);
  }
  batch_run b = {pp, runs, jobs};
  cz_batch_pipeline pl = pipeline_of(pp, &b);
  cz_jobs_pipeline(jobs, n, items, &pl, errs, msgs);
  /* Every job was answered by job_done; what is left is for the engine's
   * record (it ignores the slots of answered jobs). */
  for (size_t i = 0; i < n; i++) {
    if (errs[i] == CZ_OK && runs[i].out) {
      proofs[i] = runs[i].out;
      proof_lens[i] = items[i] * CZ_GROTH16_PROOF_BYTES;
      runs[i].out = NULL;
    }
    free(runs[i].out);
  }
  free(runs);
  free(items);
}
