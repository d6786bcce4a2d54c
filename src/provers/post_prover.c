/* The WinningPoSt and WindowPoSt provers behind the engine: Curio's
 * request (bincode vanilla proofs, randomness, miner id, partition) parsed
 * and verified natively at submit, so a bad input is refused before it is
 * queued; one SRS circuit per kind and sector size (official, or opt-in
 * test parameters made on first use); the partition through the engine's
 * pipeline (one item: TIMELINE phases as for PoRep); the proof verified
 * before it is returned, since Curio uses PoSt proofs unverified. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/engine_prover.h"
#include "cuzk/post.h"
#include "cuzk/provers.h"
#include "provers/provers_internal.h"
#include "util/msg.h"

#define N_SIZES 5

typedef struct {
  cz_prover_common c;
  cz_post_type type;
  cz_proof_kind job_kind;
  /* One circuit per sector size: Window V1 and V1_1 share Filecoin's file. */
  cz_prover_srs srs[N_SIZES];
  const cz_post_kind *srs_kind[N_SIZES];
  cz_prover_shape shape[N_SIZES]; /* the recorded shapes' computed SRS entries */
} post_state;
_Static_assert(offsetof(post_state, c) == 0, "cz_prover_common_destroy frees the state");

static cz_prover_srs *srs_for(post_state *st, const cz_post_kind *k) {
  for (int i = 0; i < N_SIZES; i++)
    if (st->srs_kind[i]->sector_size == k->sector_size) return &st->srs[i];
  return NULL;
}

/* The request's registered proof, which must be of this prover's type. */
static const cz_post_kind *request_kind(const post_state *st, const cz_job_request *req,
                                        char *msg, size_t len) {
  const cz_post_kind *k = req->registered_proof < CZ_POST_N_KINDS
                              ? cz_post_kind_by_id((uint32_t)req->registered_proof)
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
static cz_err post_parse(void *self, const cz_job_request *req, void **model,
                         uint64_t *model_bytes, char *msg, size_t len) {
  post_state *st = self;
  const cz_post_kind *k = request_kind(st, req, msg, len);
  if (!k) return CZ_ERR_INVALID_ARG;
  if (req->randomness.len != 32)
    return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG, "randomness: %zu bytes, expected 32",
                      req->randomness.len);
  if (st->type == CZ_POST_WINNING && req->partition_index != 0)
    return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG,
                      "partition_index %u: a WinningPoSt has one partition",
                      req->partition_index);
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
    e = cz_post_partition_parse(p, &(cz_post_challenge_seed){k, req->randomness.data, prover_id, req->partition_index}, vp, lens, n, msg, len);
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

/* One partition in flight (cz_partition_mem_bytes), plus the slots'
 * copied paths. */
static uint64_t post_mem(void *self, const cz_job_request *req) {
  post_state *st = self;
  char msg[8];
  const cz_post_kind *k = request_kind(st, req, msg, sizeof msg);
  if (!k) return 0;
  return cz_partition_mem_bytes(cz_post_circuit_constraints(k), 1) +
         (uint64_t)k->sector_count * k->challenge_count * sizeof(cz_merkle_proof);
}

static const char *post_circuit_id(void *self, const cz_job_request *req) {
  post_state *st = self;
  char msg[256];
  const cz_post_kind *k = request_kind(st, req, msg, sizeof msg);
  cz_prover_srs *s = k ? srs_for(st, k) : NULL;
  return s ? cz_prover_srs_use(&st->c.kept.cfg, &st->c.generate_lock, s) : NULL;
}

/* ---- Proving: the partition is one pipeline item (prover_partitions.c) ---- */

static cz_err post_plan(void *self, const void *model, cz_partition_plan *plan, char *msg,
                        size_t len) {
  post_state *st = self;
  const cz_post_partition *p = model;
  cz_prover_srs *s = srs_for(st, p->kind);
  if (!s) return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG, "no circuit for %s", p->kind->name);
  *plan = (cz_partition_plan){p->kind->name, 1, s, &st->shape[s - st->srs]};
  return CZ_OK;
}

static cz_err post_synthesize(void *self, const cz_partition_job *pj, size_t i, cz_assignment *as,
                              char *msg, size_t len) {
  post_state *st = self;
  (void)i;
  return cz_post_synthesize_pce(pj->model, pj->shape, cz_provers_synth_threads(&st->c.kept.cfg), as, msg, len);
}

static cz_err post_prove_partition(void *self, const cz_partition_job *pj, size_t i,
                                   cz_assignment *as, uint8_t out[CZ_GROTH16_PROOF_BYTES],
                                   char *msg, size_t len) {
  post_state *st = self;
  const cz_provers_config *cfg = &st->c.kept.cfg;
  (void)i;
  cz_prove_ctx pc = {cfg->backend, &pj->srs->params, pj->srs->pvk, cfg->prove_threads,
                     cz_provers_timing()};
  return cz_post_prove_assignment(pj->model, as, &pc, out, msg, len);
}

/* The recorded shapes (computed SRS entries pce-winning-*, pce-wpost-*,
 * prover_shape.c). */
static cz_err record_shape(const void *kind, cz_pce **out, char *msg, size_t msg_len) {
  return cz_post_record_shape(kind, out, msg, msg_len);
}

/* ---- Registration ------------------------------------------------------------ */

static cz_err register_type(cz_engine *e, const cz_provers_config *cfg, cz_post_type type,
                            char *msg, size_t msg_len) {
  /* The engine keeps pointers to it and frees it (destroy). */
  post_state *st = calloc(1, sizeof *st);
  if (!st) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  cz_partition_prover hooks = {
      .plan = post_plan, .synthesize = post_synthesize, .prove = post_prove_partition};
  cz_prover_common_init(&st->c, cfg, st, &hooks);
  st->type = type;
  st->job_kind = type == CZ_POST_WINNING ? CZ_KIND_WINNING_POST : CZ_KIND_WINDOW_POST_PARTITION;
  cz_err err = CZ_OK;
  for (int i = 0; i < N_SIZES && err == CZ_OK; i++) {
    /* Winning 0-4; Window V1 5-9 (V1_1 10-14 has the same circuit). */
    const cz_post_kind *k = cz_post_kind_by_id((uint32_t)(type == CZ_POST_WINNING ? i : 5 + i));
    st->srs_kind[i] = k;
    cz_prover_srs *s = &st->srs[i];
    *s = (cz_prover_srs){.test_tag = CZ_POST_CIRCUIT_REVISION,
                         .n_ic = cz_post_public_input_count(k) + 1,
                         .keygen = cz_post_keygen,
                         .keygen_ctx = (void *)k};
    cz_post_param_name(k, s->name, sizeof s->name);
    cz_provers_circuit_id(s->circuit_id, sizeof s->circuit_id,
                          type == CZ_POST_WINNING ? "winning" : "wpost", k->sector_size);
    /* A shape holds about 46 bytes per constraint; the exact size replaces
     * this estimate once recorded. */
    err = cz_prover_circuit_declare(e, &st->c.kept.cfg, s, &st->shape[i], record_shape, k,
                                    cz_shape_charge_bytes(cz_post_circuit_constraints(k),
                                                          k->sector_count),
                                    msg, msg_len);
  }
  cz_engine_prover p = {.name = type == CZ_POST_WINNING ? "winning-post" : "window-post",
                        .self = st,
                        .parse = post_parse,
                        .free_model = post_free_model,
                        .mem_estimate = post_mem,
                        .circuit_id = post_circuit_id,
                        .prove = cz_partitions_prove,
                        .destroy = cz_prover_common_destroy};
  if (err == CZ_OK && (err = cz_engine_register_prover(e, st->job_kind, &p)) != CZ_OK)
    cz_msg(msg, msg_len, "cannot register the %s prover", p.name);
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
