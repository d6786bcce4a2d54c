/* The WinningPoSt and WindowPoSt provers behind the engine: Curio's
 * request (bincode vanilla proofs, randomness, miner id, partition) parsed
 * and verified natively at submit, so a bad input is refused before it is
 * queued; one SRS circuit per PoSt type and sector size (official, or opt-in
 * test parameters made on first use); the partition through the engine's
 * pipeline (one item: TIMELINE phases as for PoRep); the proof verified
 * before it is returned, since Curio uses PoSt proofs unverified. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/clock.h"
#include "cuzk/post.h"
#include "cuzk/provers.h"
#include "provers/provers_internal.h"
#include "util/msg.h"

#define N_SIZES 5

/* The self of the WinningPoSt or WindowPoSt ops. */
typedef struct {
  cz_prover_common c;
  cz_post_type type;
  cz_proof_kind job_kind;
  /* One circuit per sector size: Window V1 and V1_1 share Filecoin's file. */
  cz_prover_circuit circuits[N_SIZES];
  const cz_registered_post *srs_registered[N_SIZES];
} post_state;

static const cz_prover_circuit *circuit_for(post_state *st, const cz_registered_post *k) {
  for (int i = 0; i < N_SIZES; i++)
    if (st->srs_registered[i]->sector_size == k->sector_size) return &st->circuits[i];
  return NULL;
}

/* The request's registered proof, which must be of this prover's type. */
static const cz_registered_post *request_registered(const post_state *st, const cz_job_request *req,
                                                    char *msg, size_t len) {
  const cz_registered_post *k = req->registered_proof < CZ_REGISTERED_POST_COUNT
                                    ? cz_registered_post_by_id((uint32_t)req->registered_proof)
                                    : NULL;
  const char *want = st->type == CZ_POST_WINNING ? "WinningPoSt (0-4)" : "WindowPoSt (5-14)";
  if (!k || k->type != st->type) {
    cz_msg(msg, len, "registered_proof %llu is not a %s registered proof",
           (unsigned long long)req->registered_proof, want);
    return NULL;
  }
  if (req->sector_size && req->sector_size != k->sector_size) {
    cz_msg(msg, len, "sector_size %llu does not match registered_proof %s",
           (unsigned long long)req->sector_size, k->name);
    return NULL;
  }
  return k;
}

/* Parse and verify at submit: the model is the checked partition. */
static cz_err post_parse(void *self, const cz_job_request *req, void **model, uint64_t *model_bytes,
                         char *msg, size_t len) {
  post_state *st = self;
  const cz_registered_post *k = request_registered(st, req, msg, len);
  if (!k) return CZ_ERR_INVALID_ARG;
  if (req->randomness.len != 32)
    return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG, "randomness: %zu bytes, expected 32",
                      req->randomness.len);
  if (st->type == CZ_POST_WINNING && req->partition_index != 0)
    return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG,
                      "partition_index %u: a WinningPoSt has one partition", req->partition_index);
  size_t n = req->n_vanilla_proofs;
  if (n == 0)
    return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG,
                      "vanilla_proofs is empty (expected one bincode FallbackPoStSectorProof "
                      "per sector)");
  const uint8_t **vp = calloc(n, sizeof *vp);
  size_t *lens = calloc(n, sizeof *lens);
  cz_post_partition *p = calloc(1, sizeof *p);
  cz_err e = CZ_OK;
  if (!vp || !lens || !p) e = cz_msg_err(msg, len, CZ_ERR_NOMEM, "out of memory");
  for (size_t i = 0; e == CZ_OK && i < n; i++)
    vp[i] = req->vanilla_proofs[i].data, lens[i] = req->vanilla_proofs[i].len;
  uint8_t prover_id[32];
  cz_prover_id_of_miner(prover_id, req->miner_id);
  if (e == CZ_OK)
    e = cz_post_partition_parse(p,
                                &(cz_post_challenge_seed){k, req->randomness.data, prover_id,
                                                          req->partition_index},
                                vp, lens, n, msg, len);
  if (e == CZ_OK && (e = cz_post_partition_verify(p, msg, len)) != CZ_OK) cz_post_partition_free(p);
  free(vp);
  free(lens);
  if (e != CZ_OK) {
    free(p);
    /* A proof that does not verify is the caller's input: INVALID_ARGUMENT. */
    return e == CZ_ERR_PROOF_INVALID ? CZ_ERR_INVALID_ARG : e;
  }
  *model = p;
  uint64_t bytes = sizeof *p + n * (sizeof *p->sectors + sizeof *p->proofs);
  for (size_t i = 0; i < n; i++)
    for (size_t s = 0; s < p->proofs[i].n_sectors; s++)
      bytes += p->proofs[i].sectors[s].n_inclusions * sizeof(cz_post_inclusion);
  *model_bytes = bytes;
  return CZ_OK;
}

static void post_free_model(void *self, void *model) {
  (void)self;
  cz_post_partition_free(model);
  free(model);
}

/* ---- Proving: the partition is one pipeline item (prover_common.c) ----- */

/* One partition, plus the slots' copied paths in memory. The witness is
 * Poseidon's, nearly all full values: 125.7 M of 126.9 M for the 125.3 M
 * constraints of 32 GiB WindowPoSt (synth-only's full_aux), 4 GB that a
 * PoRep partition of that size does not hold; charged at the constraints
 * and 1/64 more. */
static cz_err post_plan(void *self, const cz_job_ctx *ctx, cz_job_plan *plan, char *msg,
                        size_t len) {
  post_state *st = self;
  const cz_registered_post *k = ((const cz_post_partition *)ctx->model)->registered;
  const cz_prover_circuit *c = circuit_for(st, k);
  if (!c) return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG, "no circuit for %s", k->name);
  uint64_t m = cz_post_circuit_constraints(k);
  cz_partition_plan p = {1, c, m, m + m / 64,
                         (uint64_t)k->sector_count * k->challenge_count * sizeof(cz_merkle_proof)};
  cz_prover_job_plan(&st->c, ctx, &p, plan);
  return CZ_OK;
}

static cz_err post_prepare(void *self, const cz_job_ctx *ctx, char *msg, size_t len) {
  post_state *st = self;
  return cz_prover_prepare(&st->c, ctx, msg, len);
}

/* The job's one partition (i is 0). */
static cz_err post_synthesize(void *self, const cz_job_ctx *ctx, size_t i, void **state, char *msg,
                              size_t len) {
  (void)self, (void)i;
  cz_assignment *as;
  cz_err e = cz_prover_assignment_new(ctx, &as, msg, len);
  uint64_t t0 = cz_now_ns();
  if (e == CZ_OK)
    e = cz_post_synthesize_pce(ctx->model, ctx->shape, ctx->synth_threads, as, msg, len);
  return cz_prover_assignment_keep(e, as, t0, state);
}

static cz_err post_prove(void *self, const cz_job_ctx *ctx, size_t i, void *state, uint8_t *out,
                         char *msg, size_t len) {
  (void)i;
  post_state *st = self;
  cz_prove_ctx pc = cz_prover_prove_ctx(&st->c, ctx);
  cz_err e = cz_post_groth16_prove(ctx->model, state, &pc, out, msg, len);
  free(state);
  return e;
}

static void post_destroy(void *self) {
  post_state *st = self;
  cz_prover_common_fini(&st->c);
  free(st);
}

/* The one table between the engine and a PoSt type (WinningPoSt and
 * WindowPoSt register it under their own names). */
static const cz_proof_ops post_ops = {.parse = post_parse,
                                      .free_model = post_free_model,
                                      .plan = post_plan,
                                      .prepare = post_prepare,
                                      .synthesize = post_synthesize,
                                      .prove_partition = post_prove,
                                      .discard = cz_prover_discard,
                                      .uses_devices = true,
                                      .destroy = post_destroy};

/* The recorded shapes (computed SRS entries pce-winning-*, pce-wpost-*,
 * prover_shape.c). */
static cz_err record_shape(const void *registered, cz_pce **out, char *msg, size_t msg_len) {
  return cz_post_record_shape(registered, out, msg, msg_len);
}

/* ---- Registration ------------------------------------------------------------ */

static cz_err register_type(cz_engine *e, const cz_provers_config *cfg, cz_post_type type,
                            char *msg, size_t msg_len) {
  post_state *st = calloc(1, sizeof *st);
  if (!st) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  cz_prover_common_init(&st->c, cfg);
  st->type = type;
  st->job_kind = type == CZ_POST_WINNING ? CZ_KIND_WINNING_POST : CZ_KIND_WINDOW_POST_PARTITION;
  cz_err err = CZ_OK;
  for (int i = 0; i < N_SIZES && err == CZ_OK; i++) {
    /* Winning 0-4; Window V1 5-9 (V1_1 10-14 has the same circuit). */
    const cz_registered_post *k =
        cz_registered_post_by_id((uint32_t)(type == CZ_POST_WINNING ? i : 5 + i));
    st->srs_registered[i] = k;
    cz_prover_circuit *c = &st->circuits[i];
    c->name = k->name;
    c->srs = (cz_prover_srs){.test_tag = CZ_POST_CIRCUIT_REVISION,
                             .n_ic = cz_post_public_input_count(k) + 1,
                             .keygen = cz_post_keygen,
                             .shape = cz_post_keygen_shape,
                             .keygen_ctx = (void *)k};
    cz_post_param_name(k, c->srs.name, sizeof c->srs.name);
    cz_provers_circuit_id(c->srs.circuit_id, sizeof c->srs.circuit_id,
                          type == CZ_POST_WINNING ? "winning" : "wpost", k->sector_size);
    /* A shape holds about 46 bytes per constraint; the exact size replaces
     * this estimate once recorded. */
    err = cz_prover_circuit_declare(e, &st->c.kept.cfg, c, record_shape, k,
                                    cz_shape_charge_bytes(cz_post_circuit_constraints(k),
                                                          k->sector_count),
                                    msg, msg_len);
  }
  cz_proof_ops ops = post_ops; /* copied by the engine */
  ops.name = type == CZ_POST_WINNING ? "winning-post" : "window-post";
  /* The engine keeps pointers to the state and frees it (destroy). */
  if (err == CZ_OK && (err = cz_engine_register_ops(e, st->job_kind, &ops, st)) != CZ_OK)
    cz_msg(msg, msg_len, "cannot register the %s prover", ops.name);
  return err;
}

cz_err cz_winning_post_prover_register(cz_engine *e, const cz_provers_config *cfg, char *msg,
                                       size_t msg_len) {
  return register_type(e, cfg, CZ_POST_WINNING, msg, msg_len);
}

cz_err cz_window_post_prover_register(cz_engine *e, const cz_provers_config *cfg, char *msg,
                                      size_t msg_len) {
  return register_type(e, cfg, CZ_POST_WINDOW, msg, msg_len);
}
