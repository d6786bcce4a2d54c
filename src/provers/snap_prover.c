/* The SnapDeals (empty-sector-update) prover behind the engine: Curio's
 * request (registered update proof, the three commitments, one bincode
 * PartitionProof per partition) parsed and every partition verified
 * natively at submit, so a bad input is refused before it is queued; one
 * SRS circuit per sector size (official, or opt-in test parameters made on
 * first use) and its recorded shape; the partitions through the engine's
 * pipeline (prover_common.c; in a batch of same-size jobs, all their
 * partitions through one); each partition's proof verified before the job
 * completes, since Curio sends update proofs on chain unverified. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/clock.h"
#include "cuzk/provers.h"
#include "cuzk/snap.h"
#include "provers/provers_internal.h"
#include "util/msg.h"

/* The self of the SnapDeals ops. */
typedef struct {
  cz_prover_common c;
  cz_prover_circuit circuits[CZ_REGISTERED_SNAP_COUNT]; /* indexed by registered update proof */
} snap_state;

/* The parsed request kept with the job: every partition, verified. */
typedef struct {
  const cz_registered_snap *registered;
  cz_snap_partition *parts; /* registered->shape.partitions */
} snap_model;

static void model_free(snap_model *m) {
  if (!m) return;
  for (uint32_t i = 0; m->parts && i < m->registered->shape.partitions; i++)
    cz_snap_partition_free(&m->parts[i]);
  free(m->parts);
  free(m);
}

/* The request's registered update proof (0-4), agreeing with sector_size
 * when that is set. */
static const cz_registered_snap *request_registered(const cz_job_request *req, char *msg,
                                                    size_t len) {
  const cz_registered_snap *k = req->registered_proof < CZ_REGISTERED_SNAP_COUNT
                                    ? cz_registered_snap_by_id((uint32_t)req->registered_proof)
                                    : NULL;
  if (!k) {
    cz_msg(msg, len, "registered_proof %llu is not a registered update proof (0-4)",
           (unsigned long long)req->registered_proof);
    return NULL;
  }
  if (req->sector_size && req->sector_size != k->sector_size) {
    cz_msg(msg, len, "sector_size %llu does not match registered_proof %s",
           (unsigned long long)req->sector_size, k->name);
    return NULL;
  }
  return k;
}

static cz_err need32(const cz_bytes *b, const char *what, char *msg, size_t len) {
  if (b->len == 32) return CZ_OK;
  return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG, "%s: %zu bytes, expected 32", what,
                    (size_t)b->len);
}

/* Parse each partition proof and verify it (the messages name
 * vanilla_proofs[k] and the field). */
static cz_err parse_partitions(snap_model *m, const cz_job_request *req, char *msg, size_t len) {
  for (uint32_t i = 0; i < m->registered->shape.partitions; i++) {
    const cz_bytes *v = &req->vanilla_proofs[i];
    cz_err e = cz_snap_partition_parse(&m->parts[i], m->registered, i,
                                       &(cz_snap_comms){req->comm_r_old.data, req->comm_d_new.data,
                                                        req->comm_r_new.data},
                                       v->data, v->len, msg, len);
    if (e == CZ_OK) e = cz_snap_partition_verify(&m->parts[i], msg, len);
    if (e != CZ_OK) return e;
  }
  return CZ_OK;
}

static uint64_t model_bytes(const snap_model *m) {
  uint64_t b = sizeof *m + m->registered->shape.partitions * sizeof *m->parts;
  for (uint32_t i = 0; i < m->registered->shape.partitions; i++)
    b += m->parts[i].proof.n_apex * sizeof(cz_fr) +
         m->parts[i].proof.n_challenges * sizeof(cz_snap_challenge_proof);
  return b;
}

static cz_err snap_parse(void *self, const cz_job_request *req, void **model, uint64_t *bytes,
                         char *msg, size_t len) {
  (void)self;
  const cz_registered_snap *k = request_registered(req, msg, len);
  if (!k) return CZ_ERR_INVALID_ARG;
  cz_err e;
  if ((e = need32(&req->comm_r_old, "comm_r_old", msg, len)) != CZ_OK ||
      (e = need32(&req->comm_d_new, "comm_d_new", msg, len)) != CZ_OK ||
      (e = need32(&req->comm_r_new, "comm_r_new", msg, len)) != CZ_OK)
    return e;
  if (req->n_vanilla_proofs != k->shape.partitions)
    return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG,
                      "vanilla_proofs: %zu partition proofs, %s has %u partition%s",
                      req->n_vanilla_proofs, k->name, k->shape.partitions,
                      k->shape.partitions == 1 ? "" : "s");
  snap_model *m = calloc(1, sizeof *m);
  if (m) m->registered = k, m->parts = calloc(k->shape.partitions, sizeof *m->parts);
  if (!m || !m->parts) {
    free(m);
    return cz_msg_err(msg, len, CZ_ERR_NOMEM, "out of memory");
  }
  e = parse_partitions(m, req, msg, len);
  if (e != CZ_OK) {
    model_free(m);
    /* A bad proof or commitment is the caller's input: INVALID_ARGUMENT. */
    return e == CZ_ERR_NOMEM ? e : CZ_ERR_INVALID_ARG;
  }
  *model = m;
  *bytes = model_bytes(m);
  return CZ_OK;
}

static void snap_free_model(void *self, void *model) {
  (void)self;
  model_free(model);
}

/* ---- Proving: one pipeline item per partition (prover_common.c) -------- */

static cz_err snap_plan(void *self, const cz_job_ctx *ctx, cz_job_plan *plan, char *msg,
                        size_t len) {
  snap_state *st = self;
  const cz_registered_snap *k = ((const snap_model *)ctx->model)->registered;
  (void)msg, (void)len;
  cz_partition_plan p = {k->shape.partitions, &st->circuits[k->id],
                         cz_snap_partition_constraints(&k->shape), 0, 0};
  cz_prover_job_plan(&st->c, ctx, &p, plan);
  return CZ_OK;
}

static cz_err snap_prepare(void *self, const cz_job_ctx *ctx, char *msg, size_t len) {
  snap_state *st = self;
  return cz_prover_prepare(&st->c, ctx, msg, len);
}

static cz_err snap_synthesize(void *self, const cz_job_ctx *ctx, size_t i, void **state, char *msg,
                              size_t len) {
  (void)self;
  const snap_model *m = ctx->model;
  cz_assignment *as;
  cz_err e = cz_prover_assignment_new(ctx, &as, msg, len);
  uint64_t t0 = cz_now_ns();
  if (e == CZ_OK)
    e = cz_snap_synthesize_pce(&m->parts[i], ctx->shape, ctx->synth_threads, as, msg, len);
  return cz_prover_assignment_keep(e, as, t0, state);
}

/* Proves partition i and verifies its proof with the verifier's inputs
 * (cz_snap_groth16_prove) before it joins the output. */
static cz_err snap_prove(void *self, const cz_job_ctx *ctx, size_t i, void *state, uint8_t *out,
                         char *msg, size_t len) {
  snap_state *st = self;
  const snap_model *m = ctx->model;
  cz_prove_ctx pc = cz_prover_prove_ctx(&st->c, ctx);
  cz_err e = cz_snap_groth16_prove(&m->parts[i], state, &pc, out, msg, len);
  free(state);
  return e;
}

static void snap_destroy(void *self) {
  snap_state *st = self;
  cz_prover_common_fini(&st->c);
  free(st);
}

/* The one table between the engine and SnapDeals. Same-size jobs: the
 * engine batches by registered proof, one circuit per size, as upstream
 * does. */
static const cz_proof_ops snap_ops = {.name = "snap-update",
                                      .parse = snap_parse,
                                      .free_model = snap_free_model,
                                      .plan = snap_plan,
                                      .prepare = snap_prepare,
                                      .synthesize = snap_synthesize,
                                      .prove_partition = snap_prove,
                                      .discard = cz_prover_discard,
                                      .batch = true,
                                      .uses_devices = true,
                                      .destroy = snap_destroy};

/* ---- Registration ------------------------------------------------------------ */

/* The recorded shapes (computed SRS entries pce-snap-*, prover_shape.c). */
static cz_err record_shape(const void *shape, cz_pce **out, char *msg, size_t msg_len) {
  return cz_snap_record_shape(shape, out, msg, msg_len);
}

cz_err cz_snap_prover_register(cz_engine *e, const cz_provers_config *cfg, char *msg,
                               size_t msg_len) {
  snap_state *st = calloc(1, sizeof *st);
  if (!st) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  cz_prover_common_init(&st->c, cfg);
  cz_err err = CZ_OK;
  for (uint32_t i = 0; i < CZ_REGISTERED_SNAP_COUNT && err == CZ_OK; i++) {
    const cz_registered_snap *k = cz_registered_snap_by_id(i);
    cz_prover_circuit *c = &st->circuits[i];
    c->name = k->name;
    c->srs = (cz_prover_srs){.test_tag = CZ_SNAP_CIRCUIT_REVISION,
                             .n_ic = CZ_SNAP_PUBLIC_INPUTS + 1,
                             .keygen = cz_snap_keygen,
                             .shape = cz_snap_keygen_shape,
                             .keygen_ctx = (void *)&k->shape};
    cz_snap_param_name(&k->shape, c->srs.name, sizeof c->srs.name);
    cz_provers_circuit_id(c->srs.circuit_id, sizeof c->srs.circuit_id, "snap", k->sector_size);
    /* A shape holds about 46 bytes per constraint; the exact size replaces
     * this estimate once recorded. */
    err = cz_prover_circuit_declare(e, &st->c.kept.cfg, c, record_shape, &k->shape,
                                    cz_shape_charge_bytes(cz_snap_partition_constraints(&k->shape),
                                                          0),
                                    msg, msg_len);
  }
  /* The engine keeps pointers to the state and frees it (destroy). */
  if (err == CZ_OK &&
      (err = cz_engine_register_ops(e, CZ_KIND_SNAP_DEALS_UPDATE, &snap_ops, st)) != CZ_OK)
    cz_msg(msg, msg_len, "cannot register the SnapDeals prover");
  return err;
}
