/* The CIRCOM proof kind: a witness (.wtns) proved with a loaded snarkjs
 * key (circom_keys.c) through the engine's queue, priorities, memory
 * budget and pipeline (one item), as snarkjs's groth16 prove makes it
 * (cz_zkey_prove, which verifies every proof before it is answered). */
#include <stdlib.h>
#include <string.h>

#include "cuzk/circom.h"
#include "provers/circom_internal.h"
#include "util/msg.h"

/* What parse keeps with a job. */
typedef struct {
  cz_wtns w;
  uint8_t key[32];
  char circuit_id[32];
  size_t n_public, domain_size;
} circom_job;

static cz_err circom_parse(void *self, const cz_job_request *req, void **model,
                           uint64_t *model_bytes, char *msg, size_t len) {
  cz_circom_keys *k = self;
  if (req->key_id.len != 32)
    return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG, "key_id: %zu bytes, expected 32",
                      req->key_id.len);
  circom_job *j = calloc(1, sizeof *j);
  if (!j) return cz_msg_err(msg, len, CZ_ERR_NOMEM, "out of memory");
  memcpy(j->key, req->key_id.data, 32);
  pthread_mutex_lock(&k->mu);
  circom_key *c = cz_circom_find_locked(k, j->key);
  size_t n_vars = c ? c->info.n_vars : 0;
  if (c) {
    memcpy(j->circuit_id, c->info.circuit_id, sizeof j->circuit_id);
    j->n_public = c->info.n_public;
    j->domain_size = c->info.domain_size;
  }
  bool known = c && c->loaded_once;
  pthread_mutex_unlock(&k->mu);
  cz_err err = known ? CZ_OK : cz_msg_err(msg, len, CZ_ERR_NOT_FOUND, "no such key loaded");
  if (err == CZ_OK)
    err = cz_wtns_read(&j->w, req->vanilla_proof.data, req->vanilla_proof.len, msg, len);
  if (err == CZ_OK && j->w.n != n_vars)
    err = cz_msg_err(msg, len, CZ_ERR_INVALID_ARG,
                     "witness: %zu values, the key %s expects %zu (nVars)", j->w.n, j->circuit_id,
                     n_vars);
  if (err != CZ_OK) {
    cz_wtns_free(&j->w);
    free(j);
    return err;
  }
  *model = j;
  *model_bytes = sizeof *j + j->w.n * sizeof *j->w.v;
  return CZ_OK;
}

static void circom_free_model(void *self, void *model) {
  (void)self;
  circom_job *j = model;
  if (!j) return;
  cz_wtns_free(&j->w);
  free(j);
}

/* One item, the key's SRS entry; memory: a, b and c (3 n field elements)
 * and the H MSM's scratch (about 8 n). */
static cz_err circom_plan(void *self, const cz_job_ctx *ctx, cz_job_plan *plan, char *msg,
                          size_t len) {
  (void)self, (void)msg, (void)len;
  const circom_job *j = ctx->model;
  *plan = (cz_job_plan){.n_partitions = 1,
                        .proof_bytes = CZ_CIRCOM_ANSWER_BYTES(j->n_public),
                        .mem_bytes = (uint64_t)j->domain_size * 11 * 32,
                        .circuit_id = j->circuit_id};
  return CZ_OK;
}

/* Nothing to synthesize: the witness is the assignment (cz_zkey_prove
 * builds a and b from the key's terms). The state is the job itself. */
static cz_err circom_synthesize(void *self, const cz_job_ctx *ctx, size_t i, void **state,
                                char *msg, size_t len) {
  (void)self, (void)i, (void)msg, (void)len;
  *state = (void *)ctx->model;
  return CZ_OK;
}

static void circom_discard(void *self, void *state) { (void)self, (void)state; }

static cz_err circom_prove(void *self, const cz_job_ctx *ctx, size_t i, void *state, uint8_t *out,
                           char *msg, size_t len) {
  (void)i;
  cz_circom_keys *k = self;
  const circom_job *j = state;
  const cz_zkey *z = ctx->srs;
  if (!z) return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG, "key %s is not loaded", j->circuit_id);
  cz_groth16_proof proof;
  cz_zkey_prove_opts o = {.n_threads = k->prove_threads,
                          .timing = cz_provers_timing(),
                          .msg = msg,
                          .msg_len = len};
  cz_err err = cz_zkey_prove(z, j->w.v, j->w.n, &proof, &o);
  if (err == CZ_ERR_PROOF_INVALID) cz_msg(msg, len, "the witness does not satisfy the circuit");
  if (err != CZ_OK) {
    if (!msg[0]) cz_msg(msg, len, "%s", cz_err_str(err));
    return err;
  }
  cz_groth16_proof_write(out, &proof);
  for (size_t p = 0; p < j->n_public; p++) cz_fr_to_bytes_le(out + 192 + 32 * p, &j->w.v[1 + p]);
  cz_circom_key_count_proof(k, j->key);
  return CZ_OK;
}

static void circom_destroy(void *self) { cz_circom_keys_free(self); }

/* The one table between the engine and the circom prover; its self is the
 * key registry. */
static const cz_proof_ops circom_ops = {.name = "circom",
                                        .parse = circom_parse,
                                        .free_model = circom_free_model,
                                        .plan = circom_plan,
                                        .synthesize = circom_synthesize,
                                        .prove_partition = circom_prove,
                                        .discard = circom_discard,
                                        .destroy = circom_destroy};

cz_err cz_circom_prover_register(cz_engine *e, const cz_provers_config *cfg, cz_circom_keys **out,
                                 char *msg, size_t msg_len) {
  *out = NULL;
  cz_circom_keys *k = calloc(1, sizeof *k);
  if (!k) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  pthread_mutex_init(&k->mu, NULL);
  k->e = e;
  k->prove_threads = cfg ? cfg->prove_threads : 0;
  cz_err err = cz_engine_register_ops(e, CZ_KIND_CIRCOM, &circom_ops, k);
  if (err != CZ_OK) {
    cz_circom_keys_free(k);
    return cz_msg_err(msg, msg_len, err, "cannot register the circom prover");
  }
  *out = k;
  return CZ_OK;
}
