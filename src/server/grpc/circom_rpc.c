/* cuzk.circom.v1.CircomProver: snarkjs keys kept by the daemon and proofs
 * of circom witnesses through the engine (docs/circom.md). One handler per
 * method; each answers its call once (cz_rpc_respond). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/circom.h"
#include "cuzk/circom/v1/circom.pb-c.h"
#include "server/grpc/rpc_internal.h"
#include "util/msg.h"

/* The key registry, or an UNIMPLEMENTED answer when there is none. */
static cz_circom_keys *keys_or_refuse(call_ctx *c) {
  cz_circom_keys *k = cz_rpc_circom(c);
  if (!k) cz_rpc_respond(c, NULL, GRPC_STATUS_UNIMPLEMENTED, "no circom prover in this daemon");
  return k;
}

void cz_circom_rpc_load(call_ctx *c, const ProtobufCMessage *req) {
  const Cuzk__Circom__V1__LoadKeyRequest *q = (const Cuzk__Circom__V1__LoadKeyRequest *)req;
  cz_circom_keys *k = keys_or_refuse(c);
  if (!k) return;
  cz_circom_key_info info = {0};
  bool already = false;
  uint64_t ms = 0;
  char msg[512] = "";
  cz_circom_key_spec spec = {q->name, q->zkey_path, q->check_subgroup};
  cz_err st = cz_circom_key_load(k, &spec, &info, &already, &ms, msg, sizeof msg);
  Cuzk__Circom__V1__LoadKeyResponse r = CUZK__CIRCOM__V1__LOAD_KEY_RESPONSE__INIT;
  r.key_id = info.key_id;
  r.n_vars = info.n_vars;
  r.n_public = info.n_public;
  r.domain_size = info.domain_size;
  r.resident_bytes = info.resident_bytes;
  r.load_ms = ms;
  r.already_loaded = already;
  r.circuit_id = info.circuit_id;
  cz_rpc_respond(c, &r.base, cz_rpc_code(st), msg);
}

void cz_circom_rpc_unload(call_ctx *c, const ProtobufCMessage *req) {
  const Cuzk__Circom__V1__UnloadKeyRequest *q = (const Cuzk__Circom__V1__UnloadKeyRequest *)req;
  cz_circom_keys *k = keys_or_refuse(c);
  if (!k) return;
  bool was_loaded = false;
  uint64_t freed = 0;
  char msg[512] = "";
  cz_err st = cz_circom_key_unload(k, q->key_id, &was_loaded, &freed, msg, sizeof msg);
  Cuzk__Circom__V1__UnloadKeyResponse r = CUZK__CIRCOM__V1__UNLOAD_KEY_RESPONSE__INIT;
  r.was_loaded = was_loaded;
  r.freed_bytes = freed;
  cz_rpc_respond(c, &r.base, cz_rpc_code(st), msg);
}

/* A key's tier and idle time from the engine's SRS entries. */
static void key_tier(const cz_engine_stats *s, const char *circuit_id,
                     Cuzk__Circom__V1__KeyInfo *ki) {
  ki->tier = CUZK__CIRCOM__V1__KEY_INFO__TIER__COLD;
  for (size_t i = 0; i < s->n_srs; i++)
    if (!strcmp(s->srs[i].circuit_id, circuit_id)) {
      ki->tier = (Cuzk__Circom__V1__KeyInfo__Tier)s->srs[i].tier;
      ki->idle_ms = s->srs[i].idle_ms;
    }
}

void cz_circom_rpc_list(call_ctx *c, const ProtobufCMessage *req) {
  (void)req;
  cz_circom_keys *k = keys_or_refuse(c);
  if (!k) return;
  enum { CAP = CZ_ENGINE_MAX_SRS };
  cz_engine_stats *s = malloc(sizeof *s);
  cz_circom_key_info *info = malloc(CAP * sizeof *info);
  Cuzk__Circom__V1__KeyInfo *ki = malloc(CAP * sizeof *ki), **kp = malloc(CAP * sizeof *kp);
  if (!s || !info || !ki || !kp) {
    free(s), free(info), free(ki), free(kp);
    cz_rpc_respond(c, NULL, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  size_t n = cz_circom_key_list(k, info, CAP);
  cz_engine_get_stats(cz_rpc_engine(c), s);
  for (size_t i = 0; i < n; i++) {
    cuzk__circom__v1__key_info__init(&ki[i]);
    ki[i].key_id = info[i].key_id;
    ki[i].name = info[i].name;
    ki[i].circuit_id = info[i].circuit_id;
    ki[i].n_vars = info[i].n_vars;
    ki[i].n_public = info[i].n_public;
    ki[i].domain_size = info[i].domain_size;
    ki[i].resident_bytes = info[i].resident_bytes;
    ki[i].proofs = info[i].proofs;
    key_tier(s, info[i].circuit_id, &ki[i]);
    kp[i] = &ki[i];
  }
  Cuzk__Circom__V1__ListKeysResponse r = CUZK__CIRCOM__V1__LIST_KEYS_RESPONSE__INIT;
  r.n_keys = n;
  r.keys = kp;
  cz_rpc_respond(c, &r.base, GRPC_STATUS_OK, NULL);
  free(s), free(info), free(ki), free(kp);
}

/* Queue a proof of q (CZ_OK: its id in id). An unknown key is NOT_FOUND
 * here, so a client may Prove with the id it computed and LoadKey only
 * then. */
static cz_err submit(call_ctx *c, cz_circom_keys *k, const Cuzk__Circom__V1__ProveRequest *q,
                     char id[CZ_JOB_ID_MAX], uint32_t *pos, char *msg, size_t msg_len) {
  uint8_t key[32];
  if (!cz_circom_key_id_parse(q->key_id, key))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "key_id: 64 hex digits expected (the SHA-256 of the .zkey)");
  if (!cz_circom_key_find(k, q->key_id, NULL))
    return cz_msg_err(msg, msg_len, CZ_ERR_NOT_FOUND, "no key %.64s is loaded (LoadKey it first)",
                      q->key_id);
  cz_job_request r = {.request_id = q->request_id,
                      .kind = CZ_KIND_CIRCOM,
                      .priority = (cz_priority)q->priority,
                      .vanilla_proof = {q->witness.data, q->witness.len},
                      .key_id = {key, sizeof key}};
  cz_err st = cz_engine_submit(cz_rpc_engine(c), &r, id, pos, msg, msg_len);
  if (st == CZ_OK) cz_rpc_set_job(c, id);
  return st;
}

/* The snarkjs texts of a circom job's answer (cuzk/circom_keys.h: the
 * proof, then the public signals); false when it is not one. */
static bool answer_texts(const cz_job_result *res, char **proof_json, char **public_json) {
  *proof_json = *public_json = NULL;
  size_t n = res->proof_len >= 192 ? (res->proof_len - 192) / 32 : 0;
  cz_groth16_proof proof;
  if (res->kind != CZ_KIND_CIRCOM || res->proof_len != CZ_CIRCOM_ANSWER_BYTES(n) ||
      cz_groth16_proof_read(&proof, res->proof) != CZ_OK)
    return false;
  cz_fr *pub = malloc((n ? n : 1) * sizeof *pub);
  bool ok = pub != NULL;
  for (size_t i = 0; ok && i < n; i++)
    ok = cz_fr_from_bytes_le(&pub[i], res->proof + 192 + 32 * i) == CZ_OK;
  size_t lp = ok ? cz_snarkjs_proof_json(NULL, 0, &proof) : 0;
  size_t lq = ok ? cz_snarkjs_public_json(NULL, 0, pub, n) : 0;
  if (ok && (*proof_json = malloc(lp + 1)) && (*public_json = malloc(lq + 1))) {
    cz_snarkjs_proof_json(*proof_json, lp + 1, &proof);
    cz_snarkjs_public_json(*public_json, lq + 1, pub, n);
  } else {
    free(*proof_json), *proof_json = NULL;
    ok = false;
  }
  free(pub);
  return ok;
}

/* The response for res; *texts_ok false when a completed job's answer is
 * not a circom proof. Free the strings with free_response. */
static void fill_response(Cuzk__Circom__V1__ProveResponse *r, Cuzk__Circom__V1__Timings *t,
                          const cz_job_result *res, bool *texts_ok) {
  r->job_id = (char *)res->job_id;
  r->status = (Cuzk__Circom__V1__ProveResponse__Status)res->status;
  r->error_message = (char *)res->error;
  t->queue_wait_ms = res->t.queue_wait_ms;
  t->srs_load_ms = res->t.srs_load_ms;
  t->prove_ms = res->t.gpu_compute_ms;
  t->total_ms = res->t.total_ms;
  r->timings = t;
  *texts_ok = true;
  if (res->status != CZ_JOB_COMPLETED) return;
  *texts_ok = answer_texts(res, &r->proof_json, &r->public_json);
  if (*texts_ok) r->proof = (ProtobufCBinaryData){192, res->proof};
}

static void free_response(Cuzk__Circom__V1__ProveResponse *r) {
  if (r->proof_json != protobuf_c_empty_string) free(r->proof_json);
  if (r->public_json != protobuf_c_empty_string) free(r->public_json);
}

/* Answer an awaited job: the response, or for Prove (strict) a failure as
 * its status: FAILED_PRECONDITION (the witness does not satisfy the
 * circuit, the key went away), CANCELLED, DEADLINE_EXCEEDED. */
static void answer(call_ctx *c, const cz_job_result *res, bool strict) {
  Cuzk__Circom__V1__ProveResponse r = CUZK__CIRCOM__V1__PROVE_RESPONSE__INIT;
  Cuzk__Circom__V1__Timings t = CUZK__CIRCOM__V1__TIMINGS__INIT;
  bool texts_ok;
  fill_response(&r, &t, res, &texts_ok);
  if (!texts_ok)
    cz_rpc_respond(c, NULL, GRPC_STATUS_FAILED_PRECONDITION, "the job is not a circom proof");
  else if (!strict || res->status == CZ_JOB_COMPLETED)
    cz_rpc_respond(c, &r.base, GRPC_STATUS_OK, NULL);
  else
    cz_rpc_respond(c, NULL,
                   res->status == CZ_JOB_CANCELLED ? GRPC_STATUS_CANCELLED
                   : res->status == CZ_JOB_TIMEOUT ? GRPC_STATUS_DEADLINE_EXCEEDED
                                                   : GRPC_STATUS_FAILED_PRECONDITION,
                   res->error[0] ? res->error : "the proof was not made");
  free_response(&r);
}

void cz_circom_rpc_prove(call_ctx *c, const ProtobufCMessage *req) {
  cz_circom_keys *k = keys_or_refuse(c);
  if (!k) return;
  char id[CZ_JOB_ID_MAX], msg[512] = "";
  cz_err st = submit(c, k, (const Cuzk__Circom__V1__ProveRequest *)req, id, NULL, msg, sizeof msg);
  if (st != CZ_OK) {
    cz_rpc_respond(c, NULL, cz_rpc_code(st), msg);
    return;
  }
  cz_job_result res;
  if (cz_rpc_await(c, id, 0, &res) != CZ_OK) {
    cz_rpc_respond(c, NULL, GRPC_STATUS_INTERNAL,
                   "the job left the table before its result was read");
    return;
  }
  answer(c, &res, true);
  free(res.proof);
}

void cz_circom_rpc_submit(call_ctx *c, const ProtobufCMessage *req) {
  cz_circom_keys *k = keys_or_refuse(c);
  if (!k) return;
  char id[CZ_JOB_ID_MAX] = "", msg[512] = "";
  uint32_t pos = 0;
  cz_err st = submit(c, k, (const Cuzk__Circom__V1__ProveRequest *)req, id, &pos, msg, sizeof msg);
  Cuzk__Circom__V1__SubmitResponse r = CUZK__CIRCOM__V1__SUBMIT_RESPONSE__INIT;
  r.job_id = id;
  r.queue_position = pos;
  cz_rpc_respond(c, &r.base, cz_rpc_code(st), msg);
}

void cz_circom_rpc_await(call_ctx *c, const ProtobufCMessage *req) {
  const Cuzk__Circom__V1__AwaitRequest *q = (const Cuzk__Circom__V1__AwaitRequest *)req;
  cz_job_result res;
  if (!cz_rpc_await_job(c, q->job_id, q->timeout_ms, &res)) return;
  answer(c, &res, false);
  free(res.proof);
}

void cz_circom_rpc_cancel(call_ctx *c, const ProtobufCMessage *req) {
  const Cuzk__Circom__V1__CancelRequest *q = (const Cuzk__Circom__V1__CancelRequest *)req;
  bool was_running;
  grpc_status_code code;
  char msg[CZ_RPC_MSG];
  if (!cz_rpc_cancel_job(c, q->job_id, &was_running, &code, msg)) return;
  Cuzk__Circom__V1__CancelResponse r = CUZK__CIRCOM__V1__CANCEL_RESPONSE__INIT;
  r.was_running = was_running;
  cz_rpc_respond(c, &r.base, code, msg);
}
