/* What every Groth16 prover's ops share (provers_internal.h): each prover's
 * own entries call these with their state's cz_prover_common and the job's
 * context: the engine's plan of a job of partitions (the memory of the
 * pipeline's window of partitions, the SRS, the recorded shape), test
 * parameters made before the SRS is loaded, each partition's assignment
 * held between the stages, and the proving context of the job's hot
 * parameters. They call nothing in the engine: the context brings what
 * they need. */
#include <stdlib.h>

#include "cuzk/clock.h"
#include "provers/provers_internal.h"
#include "util/msg.h"

void cz_prover_common_init(cz_prover_common *c, const cz_provers_config *cfg) {
  cz_provers_config_keep(&c->kept, cfg);
  pthread_mutex_init(&c->generate_lock, NULL);
}

void cz_prover_common_fini(cz_prover_common *c) { pthread_mutex_destroy(&c->generate_lock); }

cz_err cz_prover_circuit_declare(cz_engine *e, const cz_provers_config *cfg, cz_prover_circuit *c,
                                 cz_shape_record_fn record, const void *ctx, uint64_t shape_bytes,
                                 char *msg, size_t msg_len) {
  cz_err err = cz_prover_srs_declare(e, cfg, &c->srs, msg, msg_len);
  if (err == CZ_OK && cfg->pce)
    err = cz_prover_shape_declare(e, &c->shape, &c->srs, cfg->official_dir, record, ctx,
                                  shape_bytes, msg, msg_len);
  return err;
}

/* The partitions in flight (the pipeline's window, at most all of them)
 * are what memory is planned for. */
void cz_prover_job_plan(const cz_prover_common *c, const cz_job_ctx *ctx,
                        const cz_partition_plan *p, cz_job_plan *out) {
  uint64_t in_flight = ctx->window < p->n_partitions ? ctx->window : p->n_partitions;
  *out = (cz_job_plan){.n_partitions = p->n_partitions,
                       .proof_bytes = CZ_GROTH16_PROOF_BYTES,
                       .mem_bytes = cz_partition_mem_bytes(p->constraints, p->full_aux, in_flight) +
                                    p->extra_bytes,
                       .circuit_id = p->circuit->srs.circuit_id,
                       .shape_id = c->kept.cfg.pce ? p->circuit->shape.id : NULL,
                       .circuit = p->circuit};
}

/* Test parameters, when they are wanted and not yet made (minutes for the
 * first 2 KiB job), before the engine maps the file. */
cz_err cz_prover_prepare(cz_prover_common *c, const cz_job_ctx *ctx, char *msg, size_t len) {
  const cz_prover_circuit *circuit = ctx->plan->circuit;
  return cz_prover_srs_ensure(&c->kept.cfg, &c->generate_lock, &circuit->srs, msg, len);
}

cz_err cz_prover_assignment_new(const cz_job_ctx *ctx, cz_assignment **as, char *msg, size_t len) {
  const cz_prover_circuit *circuit = ctx->plan->circuit;
  const cz_hot_srs *srs = ctx->srs;
  *as = NULL;
  if (!srs)
    return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG, "no parameters are loaded for %s",
                      circuit->name);
  if (srs->params.vk.n_ic != circuit->srs.n_ic)
    return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG, "the loaded parameters are not %s's circuit",
                      circuit->name);
  if (!(*as = malloc(sizeof **as))) return cz_msg_err(msg, len, CZ_ERR_NOMEM, "out of memory");
  return CZ_OK;
}

cz_err cz_prover_assignment_keep(cz_err err, cz_assignment *as, uint64_t t0, void **state) {
  if (err != CZ_OK) {
    free(as);
    return err;
  }
  cz_provers_phase_observe(CZ_PHASE_SYNTHESIS, cz_now_ns() - t0);
  *state = as;
  return CZ_OK;
}

cz_prove_ctx cz_prover_prove_ctx(const cz_prover_common *c, const cz_job_ctx *ctx) {
  const cz_provers_config *cfg = &c->kept.cfg;
  const cz_hot_srs *srs = ctx->srs;
  /* the engine's device for this partition, else the configured backend */
  const cz_prover_backend *backend = ctx->device ? ctx->device : cfg->backend;
  return (cz_prove_ctx){backend, &srs->params, srs->pvk, cfg->prove_threads, cz_provers_timing()};
}

void cz_prover_discard(void *self, void *state) {
  (void)self;
  cz_assignment_free(state);
  free(state);
}
