/* The engine hooks every Groth16 prover shares (provers_internal.h): a
 * prover gives its plan and its circuit's synthesize and prove, and these
 * make the engine's plan of them (the memory of the pipeline's window of
 * partitions, the SRS, the recorded shape), make test parameters before
 * the SRS is loaded, hold each partition's assignment between the stages,
 * and prove with the job's hot parameters. They call nothing in the
 * engine: the job's context brings what they need. */
#include <stdlib.h>

#include "cuzk/clock.h"
#include "provers/provers_internal.h"
#include "util/msg.h"

void cz_prover_common_init(cz_prover_common *c, const cz_provers_config *cfg,
                           const cz_partition_kind *kind) {
  cz_provers_config_keep(&c->kept, cfg);
  pthread_mutex_init(&c->generate_lock, NULL);
  c->kind = *kind;
}

static void common_destroy(void *self) {
  cz_prover_common *c = self;
  pthread_mutex_destroy(&c->generate_lock);
  free(self);
}

cz_err cz_prover_circuit_declare(cz_engine *e, const cz_provers_config *cfg, cz_prover_circuit *c,
                                 cz_shape_record_fn record, const void *ctx, uint64_t shape_bytes,
                                 char *msg, size_t msg_len) {
  cz_err err = cz_prover_srs_declare(e, cfg, &c->srs, msg, msg_len);
  if (err == CZ_OK && cfg->pce)
    err = cz_prover_shape_declare(e, &c->shape, &c->srs, cfg->official_dir, record, ctx,
                                  shape_bytes, msg, msg_len);
  return err;
}

/* The prover's plan as the engine takes it: the partitions in flight (the
 * pipeline's window, at most all of them) are what memory is planned for. */
static cz_err hook_plan(void *self, const cz_kind_ctx *ctx, cz_kind_plan *out, char *msg,
                        size_t len) {
  cz_prover_common *c = self;
  cz_partition_plan p = {0};
  cz_err e = c->kind.plan(self, ctx->model, &p, msg, len);
  if (e != CZ_OK) return e;
  uint64_t in_flight = ctx->window < p.n_partitions ? ctx->window : p.n_partitions;
  *out =
      (cz_kind_plan){.n_partitions = p.n_partitions,
                     .proof_bytes = CZ_GROTH16_PROOF_BYTES,
                     .mem_bytes = cz_partition_mem_bytes(p.constraints, in_flight) + p.extra_bytes,
                     .circuit_id = p.circuit->srs.circuit_id,
                     .shape_id = c->kept.cfg.pce ? p.circuit->shape.id : NULL,
                     .circuit = p.circuit};
  return CZ_OK;
}

/* Test parameters, when they are wanted and not yet made (minutes for the
 * first 2 KiB job), before the engine maps the file. */
static cz_err hook_prepare(void *self, const cz_kind_ctx *ctx, char *msg, size_t len) {
  cz_prover_common *c = self;
  const cz_prover_circuit *circuit = ctx->plan->circuit;
  return cz_prover_srs_ensure(&c->kept.cfg, &c->generate_lock, &circuit->srs, msg, len);
}

static cz_err hook_check(void *self, const cz_kind_ctx *ctx, char *msg, size_t len) {
  return ((cz_prover_common *)self)->kind.check(ctx->model, msg, len);
}

/* The job's hot parameters, which must be its circuit's. */
static const cz_hot_srs *job_srs(const cz_kind_ctx *ctx, char *msg, size_t len) {
  const cz_prover_circuit *circuit = ctx->plan->circuit;
  const cz_hot_srs *srs = ctx->srs;
  if (!srs) cz_msg(msg, len, "no parameters are loaded for %s", circuit->name);
  else if (srs->params.vk.n_ic != circuit->srs.n_ic)
    cz_msg(msg, len, "the loaded parameters are not %s's circuit", circuit->name), srs = NULL;
  return srs;
}

static cz_err hook_synthesize(void *self, const cz_kind_ctx *ctx, size_t i, void **state, char *msg,
                              size_t len) {
  cz_prover_common *c = self;
  if (!job_srs(ctx, msg, len)) return CZ_ERR_INVALID_ARG;
  cz_assignment *as = malloc(sizeof *as);
  if (!as) return cz_msg_err(msg, len, CZ_ERR_NOMEM, "out of memory");
  uint64_t t0 = cz_now_ns();
  cz_err e = c->kind.synthesize(ctx->model, i, ctx->shape, ctx->synth_threads, as, msg, len);
  if (e != CZ_OK) {
    free(as);
    return e;
  }
  cz_provers_phase_observe(CZ_PHASE_SYNTHESIS, cz_now_ns() - t0);
  *state = as;
  return CZ_OK;
}

static cz_err hook_prove(void *self, const cz_kind_ctx *ctx, size_t i, void *state, uint8_t *out,
                         char *msg, size_t len) {
  cz_prover_common *c = self;
  const cz_provers_config *cfg = &c->kept.cfg;
  const cz_hot_srs *srs = ctx->srs;
  /* the engine's device for this partition, else the configured backend */
  const cz_prover_backend *backend = ctx->device ? ctx->device : cfg->backend;
  cz_prove_ctx pc = {backend, &srs->params, srs->pvk, cfg->prove_threads, cz_provers_timing()};
  cz_err e = c->kind.prove(ctx->model, i, state, &pc, out, msg, len);
  free(state);
  return e;
}

static void hook_discard(void *self, void *state) {
  (void)self;
  cz_assignment_free(state);
  free(state);
}

cz_kind_hooks cz_partition_hooks(cz_prover_common *c) {
  return (cz_kind_hooks){.name = c->kind.name,
                         .self = c,
                         .parse = c->kind.parse,
                         .free_model = c->kind.free_model,
                         .batch = c->kind.batch,
                         .uses_devices = true,
                         .plan = hook_plan,
                         .prepare = hook_prepare,
                         .check = c->kind.check ? hook_check : NULL,
                         .synthesize = hook_synthesize,
                         .prove_partition = hook_prove,
                         .discard = hook_discard,
                         .destroy = common_destroy};
}
