/* cuzk.v1.ProvingEngine, the service Curio calls (docs/interface.md): each
 * method's handler turns its request into the engine's call and answers
 * once (cz_rpc_respond). The calls themselves are rpc_server.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/server.h"
#include "cuzk/v1/proving.pb-c.h"
#include "server/grpc/rpc_internal.h"
#include "util/msg.h"

static void fill_await(Cuzk__V1__AwaitProofResponse *r, const cz_job_result *res) {
  r->job_id = (char *)res->job_id;
  r->status = (Cuzk__V1__AwaitProofResponse__Status)res->status;
  r->proof.data = res->proof;
  r->proof.len = res->proof_len;
  r->error_message = (char *)res->error;
  r->queue_wait_ms = res->t.queue_wait_ms;
  r->srs_load_ms = res->t.srs_load_ms;
  r->synthesis_ms = res->t.synthesis_ms;
  r->gpu_compute_ms = res->t.gpu_compute_ms;
  r->total_ms = res->t.total_ms;
}

static void to_job_request(const Cuzk__V1__SubmitProofRequest *p, cz_job_request *r,
                           cz_bytes *vps) {
  memset(r, 0, sizeof *r);
  r->request_id = p->request_id;
  r->kind = (cz_proof_kind)p->proof_kind;
  r->sector_size = p->sector_size;
  r->registered_proof = p->registered_proof;
  r->priority = (cz_priority)p->priority;
  r->vanilla_proof = (cz_bytes){p->vanilla_proof.data, p->vanilla_proof.len};
  for (size_t i = 0; i < p->n_vanilla_proofs; i++)
    vps[i] = (cz_bytes){p->vanilla_proofs[i].data, p->vanilla_proofs[i].len};
  r->vanilla_proofs = vps;
  r->n_vanilla_proofs = p->n_vanilla_proofs;
  r->sector_number = p->sector_number;
  r->miner_id = p->miner_id;
  r->randomness = (cz_bytes){p->randomness.data, p->randomness.len};
  r->partition_index = p->partition_index;
  r->comm_r_old = (cz_bytes){p->comm_r_old.data, p->comm_r_old.len};
  r->comm_r_new = (cz_bytes){p->comm_r_new.data, p->comm_r_new.len};
  r->comm_d_new = (cz_bytes){p->comm_d_new.data, p->comm_d_new.len};
}

static cz_err submit(call_ctx *c, const Cuzk__V1__SubmitProofRequest *p, char job_id[CZ_JOB_ID_MAX],
                     uint32_t *pos, char *msg, size_t msg_len) {
  /* The engine's own kinds (CIRCOM) are not on cuzk.v1's wire. */
  if ((unsigned)p->proof_kind > (unsigned)CZ_KIND_WIRE_MAX)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "unknown proof_kind %u",
                      (unsigned)p->proof_kind);
  cz_bytes *vps = calloc(p->n_vanilla_proofs ? p->n_vanilla_proofs : 1, sizeof *vps);
  if (!vps) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  cz_job_request r;
  to_job_request(p, &r, vps);
  cz_err st = cz_engine_submit(cz_rpc_engine(c), &r, job_id, pos, msg, msg_len);
  free(vps);
  return st;
}

void cz_proving_rpc_submit(call_ctx *c, const ProtobufCMessage *req) {
  char id[CZ_JOB_ID_MAX], msg[512] = "";
  uint32_t pos = 0;
  cz_err st = submit(c, (const Cuzk__V1__SubmitProofRequest *)req, id, &pos, msg, sizeof msg);
  if (st == CZ_OK) cz_rpc_set_job(c, id);
  Cuzk__V1__SubmitProofResponse r = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
  r.job_id = id;
  r.queue_position = pos;
  cz_rpc_respond(c, &r.base, cz_rpc_code(st), msg);
}

void cz_proving_rpc_await(call_ctx *c, const ProtobufCMessage *req) {
  const Cuzk__V1__AwaitProofRequest *q = (const Cuzk__V1__AwaitProofRequest *)req;
  cz_job_result res;
  if (!cz_rpc_await_job(c, q->job_id, q->timeout_ms, &res)) return;
  Cuzk__V1__AwaitProofResponse r = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
  fill_await(&r, &res);
  cz_rpc_respond(c, &r.base, GRPC_STATUS_OK, NULL);
  free(res.proof);
}

/* SubmitProof and AwaitProof in one call: the answer waits for the proof. */
void cz_proving_rpc_prove(call_ctx *c, const ProtobufCMessage *req) {
  const Cuzk__V1__ProveRequest *q = (const Cuzk__V1__ProveRequest *)req;
  if (!q->submit) {
    cz_rpc_respond(c, NULL, GRPC_STATUS_INVALID_ARGUMENT, "ProveRequest.submit is missing");
    return;
  }
  char id[CZ_JOB_ID_MAX], msg[512] = "";
  cz_err st = submit(c, q->submit, id, NULL, msg, sizeof msg);
  if (st != CZ_OK) {
    cz_rpc_respond(c, NULL, cz_rpc_code(st), msg);
    return;
  }
  cz_rpc_set_job(c, id);
  cz_job_result res;
  if (cz_rpc_await(c, id, 0, &res) != CZ_OK) {
    cz_rpc_respond(c, NULL, GRPC_STATUS_INTERNAL,
                   "the job left the table before its result was read");
    return;
  }
  Cuzk__V1__AwaitProofResponse ar = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
  fill_await(&ar, &res);
  Cuzk__V1__ProveResponse r = CUZK__V1__PROVE_RESPONSE__INIT;
  r.result = &ar;
  cz_rpc_respond(c, &r.base, GRPC_STATUS_OK, NULL);
  free(res.proof);
}

void cz_proving_rpc_cancel(call_ctx *c, const ProtobufCMessage *req) {
  const Cuzk__V1__CancelProofRequest *q = (const Cuzk__V1__CancelProofRequest *)req;
  bool was_running;
  grpc_status_code code;
  char msg[CZ_RPC_MSG];
  if (!cz_rpc_cancel_job(c, q->job_id, &was_running, &code, msg)) return;
  Cuzk__V1__CancelProofResponse r = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
  r.was_running = was_running;
  cz_rpc_respond(c, &r.base, code, msg);
}

/* The status message's parts (GetStatus), pointing into s and the arrays
 * of st_parts, which live as long as the answer is being built. */
typedef struct {
  Cuzk__V1__GPUStatus gpus[CZ_ENGINE_MAX_WORKERS], *gp[CZ_ENGINE_MAX_WORKERS];
  Cuzk__V1__SRSStatus srs[CZ_ENGINE_MAX_SRS], *sp[CZ_ENGINE_MAX_SRS];
  Cuzk__V1__QueueStatus qs[CZ_KIND_COUNT], *qp[CZ_KIND_COUNT];
  char names[CZ_ENGINE_MAX_WORKERS][48];
} st_parts;

/* Device i of the engine: its name, memory, job and partition, health. */
static void status_device(Cuzk__V1__GPUStatus *g, unsigned i, const cz_device_status *d) {
  uint64_t faults = 0;
  for (int k = 0; k < CZ_FAULT_COUNT; k++) faults += d->faults[k];
  g->ordinal = i;
  g->name = (char *)d->name;
  g->vram_total_bytes = d->mem_total;
  g->vram_free_bytes = d->mem_free;
  g->current_job_id = (char *)d->job_id;
  g->current_proof_kind = (char *)(d->busy ? cz_proof_kind_label(d->kind) : "");
  g->busy = d->busy > 0;
  g->current_partition = d->partition;
  g->healthy = d->healthy;
  g->unhealthy_reason = (char *)d->why;
  g->partitions_proved = d->proved;
  g->faults = faults;
}

/* One GPUStatus per device; without devices (the CPU backend) each proving
 * worker is reported as one, named after the backend ("cpu-worker-0"). */
static void status_workers(Cuzk__V1__GetStatusResponse *r, const cz_engine_stats *s,
                           const char *backend, st_parts *p) {
  for (unsigned i = 0; i < s->n_devices; i++) {
    cuzk__v1__gpustatus__init(&p->gpus[i]);
    status_device(&p->gpus[i], i, &s->devices[i]);
    p->gp[i] = &p->gpus[i];
  }
  r->n_gpus = s->n_devices;
  r->gpus = p->gp;
  if (s->n_devices) return;
  for (unsigned i = 0; i < s->n_workers; i++) {
    cuzk__v1__gpustatus__init(&p->gpus[i]);
    snprintf(p->names[i], sizeof p->names[i], "%s-worker-%u", backend, i);
    p->gpus[i].ordinal = i;
    p->gpus[i].name = p->names[i];
    p->gpus[i].current_job_id = (char *)s->workers[i].job_id;
    p->gpus[i].current_proof_kind =
        (char *)(s->workers[i].busy ? cz_proof_kind_label(s->workers[i].kind) : "");
    p->gp[i] = &p->gpus[i];
  }
  r->n_gpus = s->n_workers;
  r->gpus = p->gp;
}

static void status_srs_and_queues(Cuzk__V1__GetStatusResponse *r, const cz_engine_stats *s,
                                  st_parts *p) {
  for (size_t i = 0; i < s->n_srs; i++) {
    cuzk__v1__srsstatus__init(&p->srs[i]);
    p->srs[i].circuit_id = (char *)s->srs[i].circuit_id;
    p->srs[i].tier = (Cuzk__V1__SRSStatus__Tier)s->srs[i].tier;
    p->srs[i].size_bytes = s->srs[i].size_bytes;
    p->srs[i].ref_count = s->srs[i].ref_count;
    p->sp[i] = &p->srs[i];
  }
  r->n_loaded_srs = s->n_srs;
  r->loaded_srs = p->sp;
  /* cuzk.v1's kinds only: the circom queue is cuzk.circom.v1's business
   * (metrics and GET /status show it). */
  for (int k = 1; k <= CZ_KIND_WIRE_MAX; k++) {
    cuzk__v1__queue_status__init(&p->qs[k - 1]);
    p->qs[k - 1].proof_kind = (char *)cz_proof_kind_label((cz_proof_kind)k);
    p->qs[k - 1].pending = s->pending[k];
    p->qs[k - 1].in_progress = s->running[k];
    p->qp[k - 1] = &p->qs[k - 1];
  }
  r->n_queues = CZ_KIND_WIRE_MAX;
  r->queues = p->qp;
}

void cz_proving_rpc_status(call_ctx *c, const ProtobufCMessage *req) {
  (void)req;
  cz_engine_stats *s = malloc(sizeof *s);
  st_parts *p = malloc(sizeof *p);
  if (!s || !p) {
    free(s), free(p);
    cz_rpc_respond(c, NULL, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  cz_engine_get_stats(cz_rpc_engine(c), s);
  char backend[16];
  cz_engine_get_backend_info(cz_rpc_engine(c), backend, sizeof backend, NULL, 0);
  Cuzk__V1__GetStatusResponse r = CUZK__V1__GET_STATUS_RESPONSE__INIT;
  status_workers(&r, s, backend, p);
  status_srs_and_queues(&r, s, p);
  r.total_proofs_completed = s->total_completed;
  r.total_proofs_failed = s->total_failed;
  r.uptime_seconds = s->uptime_seconds;
  r.pinned_memory_bytes = s->memory_used;
  r.pinned_memory_limit_bytes = s->memory_budget;
  cz_rpc_respond(c, &r.base, GRPC_STATUS_OK, NULL);
  free(s), free(p);
}

void cz_proving_rpc_metrics(call_ctx *c, const ProtobufCMessage *req) {
  (void)req;
  cz_engine_stats *s = malloc(sizeof *s);
  char *text = NULL;
  if (s) cz_engine_get_stats(cz_rpc_engine(c), s), text = cz_metrics_text(s);
  free(s);
  if (!text) {
    cz_rpc_respond(c, NULL, GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  Cuzk__V1__GetMetricsResponse r = CUZK__V1__GET_METRICS_RESPONSE__INIT;
  r.prometheus_text = text;
  cz_rpc_respond(c, &r.base, GRPC_STATUS_OK, NULL);
  free(text);
}

/* PreloadSRS (preload) and EvictSRS: the engine's call of the same shape
 * on the named circuit, its flag and count in the answer. An SRS in use
 * (CZ_ERR_BUSY) cannot be evicted now: the caller may retry. */
static void srs_call(call_ctx *c, const char *id, bool preload) {
  char msg[512] = "";
  bool flag = false;
  uint64_t n = 0;
  cz_err st =
      !id[0] ? cz_msg_err(msg, sizeof msg, CZ_ERR_INVALID_ARG, "circuit_id is empty")
             : (preload ? cz_engine_srs_preload : cz_engine_srs_evict)(cz_rpc_engine(c), id, &flag,
                                                                       &n, msg, sizeof msg);
  if (preload) {
    Cuzk__V1__PreloadSRSResponse r = CUZK__V1__PRELOAD_SRSRESPONSE__INIT;
    r.already_loaded = flag;
    r.load_time_ms = n;
    cz_rpc_respond(c, &r.base, cz_rpc_code(st), msg);
  } else {
    Cuzk__V1__EvictSRSResponse r = CUZK__V1__EVICT_SRSRESPONSE__INIT;
    r.was_loaded = flag;
    r.freed_bytes = n;
    cz_rpc_respond(c, &r.base, cz_rpc_code(st), msg);
  }
}

void cz_proving_rpc_preload(call_ctx *c, const ProtobufCMessage *req) {
  srs_call(c, ((const Cuzk__V1__PreloadSRSRequest *)req)->circuit_id, true);
}

void cz_proving_rpc_evict(call_ctx *c, const ProtobufCMessage *req) {
  srs_call(c, ((const Cuzk__V1__EvictSRSRequest *)req)->circuit_id, false);
}
