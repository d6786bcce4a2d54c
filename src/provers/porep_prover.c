/* The PoRep C2 prover behind the engine: the C1 parsed once at submit and
 * kept with the job, SRS files per sector size (official, or opt-in test
 * parameters made on first use), a recorded circuit shape per size (the
 * pre-compiled synthesis path, resident as a computed SRS entry), the
 * vanilla-proof check, then the partitions through the engine's pipeline
 * (synthesis of partition i+1 overlaps proving of partition i; in a batch,
 * of the next job's partitions too), each proof verified before the job
 * completes. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/clock.h"
#include "cuzk/porep.h"
#include "cuzk/provers.h"
#include "provers/provers_internal.h"
#include "util/msg.h"

/* One SRS circuit per sector size (V1 and V1_1 share Filecoin's file). */
typedef struct {
  const cz_registered_porep *registered; /* the V1_1 registered proof of the size */
  cz_prover_circuit circuit;
} srs_entry;

#define N_SIZES 5

/* The self of the PoRep ops. */
typedef struct {
  cz_prover_common c;
  srs_entry srs[N_SIZES];
} porep_state;

static srs_entry *entry_for(porep_state *st, uint64_t sector_size) {
  for (int i = 0; i < N_SIZES; i++)
    if (st->srs[i].registered->sector_size == sector_size) return &st->srs[i];
  return NULL;
}

/* Parse the request's C1 and check it against the request's own fields. */
static cz_err parse_request(const cz_job_request *req, cz_porep_c1 *c1, char *msg, size_t len) {
  if (!req->vanilla_proof.len)
    return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG,
                      "vanilla_proof is empty (expected the C1 output JSON or Curio's wrapper)");
  cz_err e = cz_porep_c1_parse(c1, (const char *)req->vanilla_proof.data, req->vanilla_proof.len,
                               msg, len);
  if (e != CZ_OK) return e;
  const cz_registered_porep *k = c1->registered;
  const char *bad = NULL;
  char why[256];
  if (req->sector_size && req->sector_size != k->sector_size) {
    snprintf(why, sizeof why, "sector_size %llu does not match the C1's %s",
             (unsigned long long)req->sector_size, k->name);
    bad = why;
  } else if (req->registered_proof && req->registered_proof != k->id) {
    /* 0 is also the unset value, so only a non-zero mismatch is refused. */
    snprintf(why, sizeof why, "registered_proof %llu does not match the C1's %s (%u)",
             (unsigned long long)req->registered_proof, k->name, k->id);
    bad = why;
  } else if (c1->has_sector_num && req->sector_number && req->sector_number != c1->sector_num) {
    snprintf(why, sizeof why, "sector_number %llu differs from the wrapper's SectorNum %llu",
             (unsigned long long)req->sector_number, (unsigned long long)c1->sector_num);
    bad = why;
  } else if (req->miner_id || req->sector_number) {
    uint8_t prover[32], replica[32];
    cz_porep_config cfg;
    cz_registered_porep_config(k, &cfg);
    cz_prover_id_of_miner(prover, req->miner_id);
    uint64_t sector = req->sector_number ? req->sector_number : c1->sector_num;
    cz_sdr_replica_id(replica, prover, sector, c1->ticket, c1->comm_d, cfg.porep_id);
    if (memcmp(replica, c1->replica_id, 32) != 0) {
      snprintf(why, sizeof why,
               "the C1's replica_id is not that of sector %llu of miner f0%llu (wrong sector, "
               "miner or ticket)",
               (unsigned long long)sector, (unsigned long long)req->miner_id);
      bad = why;
    }
  }
  if (bad) {
    cz_porep_c1_free(c1);
    return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG, "%s", bad);
  }
  return CZ_OK;
}

/* The model kept with the job: its parsed C1 (one parse per job). */
static cz_err porep_parse(void *self, const cz_job_request *req, void **model,
                          uint64_t *model_bytes, char *msg, size_t len) {
  (void)self;
  cz_porep_c1 *c1 = calloc(1, sizeof *c1);
  if (!c1) return cz_msg_err(msg, len, CZ_ERR_NOMEM, "out of memory");
  cz_err e = parse_request(req, c1, msg, len);
  if (e != CZ_OK) {
    free(c1);
    return e;
  }
  *model = c1;
  *model_bytes =
      sizeof *c1 + (uint64_t)c1->n_partitions * c1->n_challenges * sizeof(cz_porep_challenge_proof);
  return CZ_OK;
}

static void porep_free_model(void *self, void *model) {
  (void)self;
  cz_porep_c1_free(model);
  free(model);
}

/* ---- Proving: one pipeline item per partition (prover_common.c) -------- */

/* The C1's partitions (NI-PoRep has 13 where V1_1 2 KiB has 1) of the
 * size's circuit; memory is planned with the V1_1 registered proof's constraints. */
static cz_err porep_plan(void *self, const cz_job_ctx *ctx, cz_job_plan *plan, char *msg,
                         size_t len) {
  porep_state *st = self;
  const cz_porep_c1 *c1 = ctx->model;
  srs_entry *s = entry_for(st, c1->registered->sector_size);
  if (!s)
    return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG, "no circuit for %s", c1->registered->name);
  cz_partition_plan p = {c1->n_partitions, &s->circuit,
                         cz_porep_partition_constraints(s->registered), 0, 0};
  cz_prover_job_plan(&st->c, ctx, &p, plan);
  return CZ_OK;
}

static cz_err porep_prepare(void *self, const cz_job_ctx *ctx, char *msg, size_t len) {
  porep_state *st = self;
  return cz_prover_prepare(&st->c, ctx, msg, len);
}

/* The vanilla proofs, once the parameters are there (the expensive check
 * is not made for a job that could not be proved anyway). */
static cz_err porep_check(void *self, const cz_job_ctx *ctx, char *msg, size_t len) {
  (void)self;
  return cz_porep_vanilla_verify(ctx->model, msg, len);
}

static cz_err porep_synthesize(void *self, const cz_job_ctx *ctx, size_t i, void **state, char *msg,
                               size_t len) {
  (void)self;
  cz_assignment *as;
  cz_err e = cz_prover_assignment_new(ctx, &as, msg, len);
  uint64_t t0 = cz_now_ns();
  if (e == CZ_OK)
    e = cz_porep_synthesize_pce(ctx->model, i, ctx->shape, ctx->synth_threads, as, msg, len);
  return cz_prover_assignment_keep(e, as, t0, state);
}

static cz_err porep_prove(void *self, const cz_job_ctx *ctx, size_t i, void *state, uint8_t *out,
                          char *msg, size_t len) {
  porep_state *st = self;
  cz_prove_ctx pc = cz_prover_prove_ctx(&st->c, ctx);
  cz_err e = cz_porep_groth16_prove(ctx->model, i, state, &pc, out, msg, len);
  free(state);
  return e;
}

static void porep_destroy(void *self) {
  porep_state *st = self;
  cz_prover_common_fini(&st->c);
  free(st);
}

/* The one table between the engine and PoRep C2. */
static const cz_proof_ops porep_ops = {.name = "porep-c2",
                                       .parse = porep_parse,
                                       .free_model = porep_free_model,
                                       .plan = porep_plan,
                                       .prepare = porep_prepare,
                                       .check = porep_check,
                                       .synthesize = porep_synthesize,
                                       .prove_partition = porep_prove,
                                       .discard = cz_prover_discard,
                                       .batch = true,
                                       .uses_devices = true,
                                       .destroy = porep_destroy};

/* The recorded shapes (computed SRS entries pce-porep-*, prover_shape.c). */
static cz_err record_shape(const void *registered, cz_pce **out, char *msg, size_t msg_len) {
  return cz_porep_record_shape(registered, out, msg, msg_len);
}

cz_err cz_porep_prover_register(cz_engine *e, const cz_provers_config *cfg, char *msg,
                                size_t msg_len) {
  porep_state *st = calloc(1, sizeof *st);
  if (!st) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  cz_prover_common_init(&st->c, cfg);
  cz_err err = CZ_OK;
  for (int i = 0; i < N_SIZES && err == CZ_OK; i++) {
    srs_entry *s = &st->srs[i];
    s->registered = cz_registered_porep_by_id(5 + (uint32_t)i);
    cz_porep_config pc;
    cz_registered_porep_config(s->registered, &pc);
    cz_prover_circuit *c = &s->circuit;
    c->name = s->registered->name;
    c->srs = (cz_prover_srs){.test_tag = CZ_POREP_CIRCUIT_REVISION,
                             .n_ic = cz_porep_public_input_count(&pc) + 1,
                             .keygen = cz_porep_keygen,
                             .shape = cz_porep_keygen_shape,
                             .keygen_ctx = (void *)s->registered};
    cz_porep_param_name(s->registered, c->srs.name, sizeof c->srs.name);
    cz_provers_circuit_id(c->srs.circuit_id, sizeof c->srs.circuit_id, "porep",
                          s->registered->sector_size);
    /* The compact shape holds about 46 bytes per constraint (2 KiB:
     * 117 MiB for 2.69 M); the exact size replaces this once recorded. */
    err = cz_prover_circuit_declare(e, &st->c.kept.cfg, c, record_shape, s->registered,
                                    cz_shape_charge_bytes(cz_porep_partition_constraints(
                                                              s->registered),
                                                          s->registered->shape.challenges),
                                    msg, msg_len);
  }
  /* The engine keeps pointers to the state (its SRS loaders too, so a
   * failed registration leaves it be) and frees it (destroy) when it is
   * destroyed. */
  if (err == CZ_OK &&
      (err = cz_engine_register_ops(e, CZ_KIND_POREP_SEAL_COMMIT, &porep_ops, st)) != CZ_OK)
    cz_msg_err(msg, msg_len, err, "cannot register the PoRep prover");
  return err;
}
