/* The calls of the cuzk.v1.ProvingEngine service on gRPC's C core API, and
 * beside it on the same server cuzk.circom.v1.CircomProver; their handlers
 * are proving_rpc.c's and circom_rpc.c's.
 *
 * One thread drives the completion queue. Every method is registered with
 * its payload read up front, so a new call arrives with its request bytes;
 * they are decoded with protobuf-c. Quick RPCs are answered on the queue
 * thread; AwaitProof and Prove block in the engine, so each gets a thread
 * of its own (bounded: past MAX_BLOCKING the call answers RESOURCE_EXHAUSTED).
 * An answer is one batch (initial metadata, message, status, close) whose
 * completion frees the call. */
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/support/time.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>
#include <unistd.h>
#include <grpc/support/alloc.h>
#include <grpc/support/log.h>
#include "cuzk/log.h"
#include "cuzk/server.h"
#include "cuzk/circom/v1/circom.pb-c.h"
#include "cuzk/v1/proving.pb-c.h"
#include "server/grpc/grpc_codes.h"
#include "server/grpc/listen_socket.h"
#include "server/grpc/rpc_internal.h"
#include "util/msg.h"

#define MAX_MESSAGE (256 * 1024 * 1024)
#define MAX_BLOCKING 512

typedef enum {
  M_SUBMIT,
  M_AWAIT,
  M_PROVE,
  M_CANCEL,
  M_STATUS,
  M_METRICS,
  M_PRELOAD,
  M_EVICT,
  M_C_LOAD,
  M_C_UNLOAD,
  M_C_LIST,
  M_C_PROVE,
  M_C_SUBMIT,
  M_C_AWAIT,
  M_C_CANCEL,
  M_COUNT
} method;

/* The service: each method's path, request message, handler, and whether
 * it blocks in the engine (then it runs in a thread of its own). */
static const struct {
  const char *path;
  const ProtobufCMessageDescriptor *req;
  void (*handle)(call_ctx *c, const ProtobufCMessage *req);
  bool blocking;
} methods[M_COUNT] = {
    [M_SUBMIT] = {"/cuzk.v1.ProvingEngine/SubmitProof", &cuzk__v1__submit_proof_request__descriptor,
                  cz_proving_rpc_submit, false},
    [M_AWAIT] = {"/cuzk.v1.ProvingEngine/AwaitProof", &cuzk__v1__await_proof_request__descriptor,
                 cz_proving_rpc_await, true},
    [M_PROVE] = {"/cuzk.v1.ProvingEngine/Prove", &cuzk__v1__prove_request__descriptor,
                 cz_proving_rpc_prove, true},
    [M_CANCEL] = {"/cuzk.v1.ProvingEngine/CancelProof", &cuzk__v1__cancel_proof_request__descriptor,
                  cz_proving_rpc_cancel, false},
    [M_STATUS] = {"/cuzk.v1.ProvingEngine/GetStatus", &cuzk__v1__get_status_request__descriptor,
                  cz_proving_rpc_status, false},
    [M_METRICS] = {"/cuzk.v1.ProvingEngine/GetMetrics", &cuzk__v1__get_metrics_request__descriptor,
                   cz_proving_rpc_metrics, false},
    [M_PRELOAD] = {"/cuzk.v1.ProvingEngine/PreloadSRS", &cuzk__v1__preload_srsrequest__descriptor,
                   cz_proving_rpc_preload, false},
    [M_EVICT] = {"/cuzk.v1.ProvingEngine/EvictSRS", &cuzk__v1__evict_srsrequest__descriptor,
                 cz_proving_rpc_evict, false},
#define CIRCOM(name) "/cuzk.circom.v1.CircomProver/" name
    [M_C_LOAD] = {CIRCOM("LoadKey"), &cuzk__circom__v1__load_key_request__descriptor,
                  cz_circom_rpc_load, true},
    [M_C_UNLOAD] = {CIRCOM("UnloadKey"), &cuzk__circom__v1__unload_key_request__descriptor,
                    cz_circom_rpc_unload, false},
    [M_C_LIST] = {CIRCOM("ListKeys"), &cuzk__circom__v1__list_keys_request__descriptor,
                  cz_circom_rpc_list, false},
    [M_C_PROVE] = {CIRCOM("Prove"), &cuzk__circom__v1__prove_request__descriptor,
                   cz_circom_rpc_prove, true},
    [M_C_SUBMIT] = {CIRCOM("Submit"), &cuzk__circom__v1__prove_request__descriptor,
                    cz_circom_rpc_submit, false},
    [M_C_AWAIT] = {CIRCOM("Await"), &cuzk__circom__v1__await_request__descriptor,
                   cz_circom_rpc_await, true},
    [M_C_CANCEL] = {CIRCOM("Cancel"), &cuzk__circom__v1__cancel_request__descriptor,
                    cz_circom_rpc_cancel, false},
#undef CIRCOM
};

enum { TAG_NEW, TAG_DONE, TAG_SHUTDOWN, TAG_UNKNOWN };

/* The pending request for calls to methods nobody registered. */
typedef struct {
  int tag_kind;
  grpc_call *call;
  grpc_call_details details;
  grpc_metadata_array md;
} unknown_slot;

/* A pending request for one method (re-armed after every call). */
typedef struct {
  int tag_kind;
  method m;
  grpc_call *call;
  gpr_timespec deadline;
  grpc_metadata_array md;
  grpc_byte_buffer *payload;
} slot;

/* One call being answered. */
struct call_ctx {
  int tag_kind;
  struct cz_server *s;
  method m;
  grpc_call *call;
  gpr_timespec deadline;
  grpc_byte_buffer *payload, *response;
  int cancelled;
  char job_id[CZ_JOB_ID_MAX]; /* for the log line, when the call names a job */
  const char *method_name;    /* an unregistered method's name (M_COUNT) */
};

struct cz_server {
  grpc_server *server;
  grpc_completion_queue *cq;
  cz_engine *e;
  cz_circom_keys *circom; /* NULL: the circom service answers UNIMPLEMENTED */
  void *handles[M_COUNT];
  slot slots[M_COUNT];
  unknown_slot unknown;
  pthread_t thread;
  int shutdown_tag;
  atomic_int in_flight; /* calls accepted and not yet freed */
  atomic_int blocking;  /* handler threads alive */
  atomic_bool stopping;
  int port;
  char unix_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
};

/* ---- answering ------------------------------------------------------------ */

/* One line per answered call: a refusal (any status but OK) at warn with its
 * reason and the peer, every call at debug. */
static void log_call(const call_ctx *c, grpc_status_code code, const char *details) {
  cz_log_level lv = code == GRPC_STATUS_OK ? CZ_LOG_DEBUG : CZ_LOG_WARN;
  if (!cz_log_enabled(lv)) return;
  const char *name = c->m < M_COUNT ? strrchr(methods[c->m].path, '/') + 1
                                    : (c->method_name ? c->method_name : "?");
  char *peer = grpc_call_get_peer(c->call);
  if (code == GRPC_STATUS_OK)
    cz_log(lv, "grpc", "%s peer=%s job=%s: OK", name, peer ? peer : "?",
           c->job_id[0] ? c->job_id : "-");
  else
    cz_log(lv, "grpc", "%s refused (%s) peer=%s job=%s: %s", name, cz_grpc_code_name(code),
           peer ? peer : "?", c->job_id[0] ? c->job_id : "-",
           details && details[0] ? details : "-");
  gpr_free(peer);
}

/* Send msg (NULL for a non-OK status) and status; the DONE completion
 * frees the call. */
static void respond(call_ctx *c, const ProtobufCMessage *msg, grpc_status_code code,
                    const char *details) {
  log_call(c, code, details);
  grpc_op ops[4];
  memset(ops, 0, sizeof ops);
  size_t n = 0;
  ops[n++].op = GRPC_OP_SEND_INITIAL_METADATA;
  if (msg && code == GRPC_STATUS_OK) {
    size_t len = protobuf_c_message_get_packed_size(msg);
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) {
      code = GRPC_STATUS_RESOURCE_EXHAUSTED;
      details = "out of memory encoding the response";
    } else {
      protobuf_c_message_pack(msg, buf);
      grpc_slice sl = grpc_slice_new(buf, len, free);
      c->response = grpc_raw_byte_buffer_create(&sl, 1);
      grpc_slice_unref(sl);
      ops[n].op = GRPC_OP_SEND_MESSAGE;
      ops[n++].data.send_message.send_message = c->response;
    }
  }
  grpc_slice det = grpc_slice_from_copied_string(details ? details : "");
  ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
  ops[n].data.send_status_from_server.status = code;
  ops[n++].data.send_status_from_server.status_details = &det;
  ops[n].op = GRPC_OP_RECV_CLOSE_ON_SERVER;
  ops[n++].data.recv_close_on_server.cancelled = &c->cancelled;
  c->tag_kind = TAG_DONE;
  grpc_call_error err = grpc_call_start_batch(c->call, ops, n, c, NULL);
  grpc_slice_unref(det);
  if (err != GRPC_CALL_OK) { /* no completion will come: free here */
    cz_log(CZ_LOG_ERROR, "grpc", "start_batch failed (%d)", (int)err);
    if (c->response) grpc_byte_buffer_destroy(c->response);
    if (c->payload) grpc_byte_buffer_destroy(c->payload);
    grpc_call_unref(c->call);
    atomic_fetch_sub(&c->s->in_flight, 1);
    free(c);
  }
}

/* The gRPC status of an engine answer (docs/interface.md, Errors): a bad
 * input of any kind is the caller's, a full budget or no memory is
 * RESOURCE_EXHAUSTED, an SRS in use a precondition, the rest INTERNAL. */
static grpc_status_code grpc_code(cz_err err) {
  switch (err) {
    case CZ_OK: return GRPC_STATUS_OK;
    case CZ_ERR_INVALID_ARG:
    case CZ_ERR_TRUNCATED:
    case CZ_ERR_TRAILING:
    case CZ_ERR_NONCANONICAL:
    case CZ_ERR_BAD_FLAGS:
    case CZ_ERR_NOT_ON_CURVE:
    case CZ_ERR_NOT_IN_SUBGROUP:
    case CZ_ERR_PARSE:
    case CZ_ERR_PROOF_INVALID: return GRPC_STATUS_INVALID_ARGUMENT;
    case CZ_ERR_NOT_FOUND: return GRPC_STATUS_NOT_FOUND;
    case CZ_ERR_UNIMPLEMENTED: return GRPC_STATUS_UNIMPLEMENTED;
    case CZ_ERR_UNAVAILABLE: return GRPC_STATUS_UNAVAILABLE;
    case CZ_ERR_EXHAUSTED:
    case CZ_ERR_NOMEM: return GRPC_STATUS_RESOURCE_EXHAUSTED;
    case CZ_ERR_BUSY: return GRPC_STATUS_FAILED_PRECONDITION;
    default: return GRPC_STATUS_INTERNAL;
  }
}

void cz_rpc_respond(call_ctx *c, const ProtobufCMessage *msg, grpc_status_code code,
                    const char *details) {
  respond(c, msg, code, details);
}
grpc_status_code cz_rpc_code(cz_err err) { return grpc_code(err); }
cz_engine *cz_rpc_engine(const call_ctx *c) { return c->s->e; }
cz_circom_keys *cz_rpc_circom(const call_ctx *c) { return c->s->circom; }
void cz_rpc_set_job(call_ctx *c, const char *job_id) {
  snprintf(c->job_id, sizeof c->job_id, "%s", job_id);
}

/* Milliseconds left before the call's deadline (UINT64_MAX: none). */
static uint64_t ms_to_deadline(gpr_timespec deadline) {
  gpr_timespec d = gpr_convert_clock_type(deadline, GPR_CLOCK_MONOTONIC);
  if (gpr_time_cmp(d, gpr_inf_future(GPR_CLOCK_MONOTONIC)) >= 0) return UINT64_MAX;
  gpr_timespec now = gpr_now(GPR_CLOCK_MONOTONIC);
  if (gpr_time_cmp(d, now) <= 0) return 1;
  gpr_timespec left = gpr_time_sub(d, now);
  return (uint64_t)left.tv_sec * 1000u + (uint64_t)left.tv_nsec / 1000000u + 1;
}

/* Wait honouring both the request's timeout and the call's deadline. */
cz_err cz_rpc_await(call_ctx *c, const char *job_id, uint64_t timeout_ms, cz_job_result *res) {
  uint64_t left = ms_to_deadline(c->deadline);
  if (left != UINT64_MAX && (timeout_ms == 0 || left < timeout_ms)) timeout_ms = left;
  return cz_engine_await(c->s->e, job_id, timeout_ms, res);
}

bool cz_rpc_await_job(call_ctx *c, const char *job_id, uint64_t timeout_ms, cz_job_result *res) {
  cz_rpc_set_job(c, job_id);
  if (!job_id[0]) {
    respond(c, NULL, GRPC_STATUS_INVALID_ARGUMENT, "job_id is empty");
    return false;
  }
  cz_err st = cz_rpc_await(c, job_id, timeout_ms, res);
  if (st == CZ_OK) return true;
  char msg[256];
  snprintf(msg, sizeof msg, "no job %.200s", job_id);
  respond(c, NULL, grpc_code(st), msg);
  return false;
}

bool cz_rpc_cancel_job(call_ctx *c, const char *job_id, bool *was_running, grpc_status_code *code,
                       char msg[CZ_RPC_MSG]) {
  cz_rpc_set_job(c, job_id);
  if (!job_id[0]) {
    respond(c, NULL, GRPC_STATUS_INVALID_ARGUMENT, "job_id is empty");
    return false;
  }
  *was_running = false;
  msg[0] = 0;
  cz_err st = cz_engine_cancel(c->s->e, job_id, was_running);
  if (st != CZ_OK) snprintf(msg, CZ_RPC_MSG, "no job %.200s", job_id);
  *code = grpc_code(st);
  return true;
}

/* Decode the payload and answer. */
static void dispatch(call_ctx *c) {
  uint8_t *data = NULL;
  size_t len = 0;
  grpc_slice all = grpc_empty_slice();
  if (c->payload) {
    grpc_byte_buffer_reader rd;
    if (!grpc_byte_buffer_reader_init(&rd, c->payload)) {
      respond(c, NULL, GRPC_STATUS_INVALID_ARGUMENT, "unreadable request payload");
      return;
    }
    all = grpc_byte_buffer_reader_readall(&rd);
    grpc_byte_buffer_reader_destroy(&rd);
    data = GRPC_SLICE_START_PTR(all);
    len = GRPC_SLICE_LENGTH(all);
  }
  ProtobufCMessage *req = protobuf_c_message_unpack(methods[c->m].req, NULL, len, data);
  grpc_slice_unref(all);
  if (!req) {
    char why[160];
    snprintf(why, sizeof why, "malformed %s (%zu bytes): not a valid protobuf message",
             methods[c->m].req->name, len);
    respond(c, NULL, GRPC_STATUS_INVALID_ARGUMENT, why);
    return;
  }
  methods[c->m].handle(c, req);
  protobuf_c_message_free_unpacked(req, NULL);
}

static void *blocking_main(void *arg) {
  call_ctx *c = arg;
  struct cz_server *s = c->s;
  dispatch(c);
  atomic_fetch_sub(&s->blocking, 1);
  return NULL;
}

/* ---- the completion queue ----------------------------------------------- */

static void arm(struct cz_server *s, method m) {
  slot *sl = &s->slots[m];
  sl->tag_kind = TAG_NEW;
  sl->m = m;
  sl->call = NULL;
  sl->payload = NULL;
  grpc_metadata_array_init(&sl->md);
  grpc_call_error err =
      grpc_server_request_registered_call(s->server, s->handles[m], &sl->call, &sl->deadline,
                                          &sl->md, &sl->payload, s->cq, s->cq, sl);
  if (err != GRPC_CALL_OK)
    cz_log(CZ_LOG_ERROR, "grpc", "cannot request %s calls (%d)", methods[m].path, (int)err);
}

static void arm_unknown(struct cz_server *s) {
  unknown_slot *u = &s->unknown;
  u->tag_kind = TAG_UNKNOWN;
  u->call = NULL;
  grpc_call_details_init(&u->details);
  grpc_metadata_array_init(&u->md);
  if (grpc_server_request_call(s->server, &u->call, &u->details, &u->md, s->cq, s->cq, u) !=
      GRPC_CALL_OK)
    cz_log(CZ_LOG_ERROR, "grpc", "cannot request unregistered calls");
}

/* A method this service does not have: UNIMPLEMENTED, naming it. */
static void on_unknown_call(struct cz_server *s, int success) {
  unknown_slot *u = &s->unknown;
  grpc_call *call = u->call;
  char why[300];
  snprintf(why, sizeof why, "unknown method %.*s", (int)GRPC_SLICE_LENGTH(u->details.method),
           (const char *)GRPC_SLICE_START_PTR(u->details.method));
  grpc_call_details_destroy(&u->details);
  grpc_metadata_array_destroy(&u->md);
  if (!success) {
    if (call) grpc_call_unref(call);
    return;
  }
  arm_unknown(s);
  call_ctx *c = calloc(1, sizeof *c);
  if (!c) {
    grpc_call_cancel(call, NULL);
    grpc_call_unref(call);
    return;
  }
  c->s = s;
  c->m = M_COUNT;
  c->method_name = "(unregistered method)";
  c->call = call;
  atomic_fetch_add(&s->in_flight, 1);
  respond(c, NULL, GRPC_STATUS_UNIMPLEMENTED, why);
}

static void on_new_call(struct cz_server *s, slot *sl, int success) {
  grpc_metadata_array_destroy(&sl->md);
  if (!success) { /* the server is shutting down */
    if (sl->payload) grpc_byte_buffer_destroy(sl->payload);
    if (sl->call) grpc_call_unref(sl->call);
    return;
  }
  call_ctx *c = calloc(1, sizeof *c);
  if (!c) {
    if (sl->payload) grpc_byte_buffer_destroy(sl->payload);
    grpc_call_cancel(sl->call, NULL);
    grpc_call_unref(sl->call);
    arm(s, sl->m);
    return;
  }
  c->s = s;
  c->m = sl->m;
  c->call = sl->call;
  c->deadline = sl->deadline;
  c->payload = sl->payload;
  atomic_fetch_add(&s->in_flight, 1);
  arm(s, sl->m);
  if (methods[c->m].blocking) {
    pthread_t t;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    bool started = false;
    if (atomic_fetch_add(&s->blocking, 1) < MAX_BLOCKING)
      started = pthread_create(&t, &at, blocking_main, c) == 0;
    pthread_attr_destroy(&at);
    if (!started) {
      atomic_fetch_sub(&s->blocking, 1);
      respond(c, NULL, GRPC_STATUS_RESOURCE_EXHAUSTED, "too many calls waiting for proofs");
    }
  } else {
    dispatch(c);
  }
}

static void on_done(call_ctx *c) {
  if (c->response) grpc_byte_buffer_destroy(c->response);
  if (c->payload) grpc_byte_buffer_destroy(c->payload);
  grpc_call_unref(c->call);
  atomic_fetch_sub(&c->s->in_flight, 1);
  free(c);
}

static void *cq_main(void *arg) {
  struct cz_server *s = arg;
  bool shut = false, cq_down = false;
  unsigned ticks = 0;
  for (;;) {
    gpr_timespec tick =
        gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC), gpr_time_from_millis(200, GPR_TIMESPAN));
    grpc_event ev = grpc_completion_queue_next(s->cq, tick, NULL);
    if (ev.type == GRPC_QUEUE_SHUTDOWN) break;
    if (ev.type == GRPC_OP_COMPLETE) {
      int kind = *(int *)ev.tag;
      if (kind == TAG_NEW) on_new_call(s, ev.tag, ev.success);
      else if (kind == TAG_UNKNOWN) on_unknown_call(s, ev.success);
      else if (kind == TAG_DONE) on_done(ev.tag);
      else if (kind == TAG_SHUTDOWN) shut = true;
    } else if (atomic_load(&s->stopping) && !shut && ++ticks > 50) {
      /* Calls that outlive a stop by 10 s are cancelled, so stopping ends. */
      grpc_server_cancel_all_calls(s->server);
    }
    if (shut && !cq_down && atomic_load(&s->in_flight) == 0 && atomic_load(&s->blocking) == 0) {
      grpc_completion_queue_shutdown(s->cq);
      cq_down = true; /* drain until GRPC_QUEUE_SHUTDOWN */
    }
  }
  return NULL;
}

/* gRPC's own lines (the "E1201 ... chttp2_server.cc" ones) through the
 * logger: its errors as errors, the rest at debug; below debug gRPC is told
 * to keep only errors. */
static void grpc_log_line(gpr_log_func_args *a) {
  const char *file = a->file ? strrchr(a->file, '/') : NULL;
  file = file ? file + 1 : (a->file ? a->file : "?");
  cz_log(a->severity == GPR_LOG_SEVERITY_ERROR ? CZ_LOG_ERROR : CZ_LOG_DEBUG, "grpc", "%s:%d: %s",
         file, a->line, a->message ? a->message : "");
}

static void destroy_unstarted(struct cz_server *s) {
  grpc_server_destroy(s->server);
  grpc_completion_queue_shutdown(s->cq);
  while (grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL).type !=
         GRPC_QUEUE_SHUTDOWN) {
  }
  grpc_completion_queue_destroy(s->cq);
  if (s->unix_path[0]) unlink(s->unix_path);
  grpc_shutdown();
  free(s);
}

cz_err cz_server_start(cz_server **out, cz_engine *e, cz_circom_keys *circom, const char *listen,
                       unsigned socket_mode, long socket_gid, char *msg, size_t msg_len) {
  *out = NULL;
  cz_listen_addr la;
  cz_err err = cz_listen_parse(listen, &la, msg, msg_len);
  if (err != CZ_OK) return err;
  err = la.is_unix ? cz_grpc_prepare_unix(la.path, msg, msg_len)
                   : cz_grpc_probe_tcp(&la, listen, msg, msg_len);
  if (err != CZ_OK) return err;
  struct cz_server *s = calloc(1, sizeof *s);
  if (!s) return CZ_ERR_NOMEM;
  s->e = e;
  s->circom = circom;
  const char *addr = listen;
  if (strncmp(addr, "http://", 7) == 0) addr += 7;
  gpr_set_log_function(grpc_log_line);
  gpr_set_log_verbosity(cz_log_enabled(CZ_LOG_DEBUG) ? GPR_LOG_SEVERITY_DEBUG
                                                     : GPR_LOG_SEVERITY_ERROR);
  grpc_init();
  grpc_arg args[3];
  args[0].type = GRPC_ARG_INTEGER;
  args[0].key = (char *)GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
  args[0].value.integer = MAX_MESSAGE;
  args[1].type = GRPC_ARG_INTEGER;
  args[1].key = (char *)GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
  args[1].value.integer = MAX_MESSAGE;
  /* gRPC's default (1) lets a second daemon bind the same port and take
   * half of the connections. */
  args[2].type = GRPC_ARG_INTEGER;
  args[2].key = (char *)GRPC_ARG_ALLOW_REUSEPORT;
  args[2].value.integer = 0;
  grpc_channel_args ca = {3, args};
  s->server = grpc_server_create(&ca, NULL);
  s->cq = grpc_completion_queue_create_for_next(NULL);
  grpc_server_register_completion_queue(s->server, s->cq, NULL);
  for (int m = 0; m < M_COUNT; m++)
    s->handles[m] = grpc_server_register_method(s->server, methods[m].path, NULL,
                                                GRPC_SRM_PAYLOAD_READ_INITIAL_BYTE_BUFFER, 0);
  grpc_server_credentials *creds = grpc_insecure_server_credentials_create();
  int port = grpc_server_add_http2_port(s->server, addr, creds);
  grpc_server_credentials_release(creds);
  if (port == 0) {
    cz_msg(msg, msg_len, "cannot listen on %s", listen);
    destroy_unstarted(s);
    return CZ_ERR_IO;
  }
  if (la.is_unix) {
    /* Fits: cz_grpc_prepare_unix refused a path of sun_path's size or more. */
    memcpy(s->unix_path, la.path, strlen(la.path) + 1);
    err = cz_grpc_set_socket_perms(la.path, socket_mode, socket_gid, msg, msg_len);
    if (err != CZ_OK) {
      destroy_unstarted(s);
      return err;
    }
  }
  s->port = port;
  grpc_server_start(s->server);
  for (int m = 0; m < M_COUNT; m++) arm(s, m);
  arm_unknown(s);
  atomic_init(&s->in_flight, 0);
  atomic_init(&s->blocking, 0);
  atomic_init(&s->stopping, false);
  s->shutdown_tag = TAG_SHUTDOWN;
  if (pthread_create(&s->thread, NULL, cq_main, s) != 0) {
    cz_msg(msg, msg_len, "cannot start the server thread");
    grpc_server_shutdown_and_notify(s->server, s->cq, &s->shutdown_tag);
    grpc_server_cancel_all_calls(s->server);
    cq_main(s);
    grpc_server_destroy(s->server);
    grpc_completion_queue_destroy(s->cq);
    grpc_shutdown();
    free(s);
    return CZ_ERR_NOMEM;
  }
  *out = s;
  return CZ_OK;
}

void cz_server_stop(cz_server *s) {
  if (!s) return;
  atomic_store(&s->stopping, true);
  grpc_server_shutdown_and_notify(s->server, s->cq, &s->shutdown_tag);
  pthread_join(s->thread, NULL);
  grpc_server_destroy(s->server);
  grpc_completion_queue_destroy(s->cq);
  if (s->unix_path[0]) unlink(s->unix_path);
  grpc_shutdown();
  free(s);
}

int cz_server_port(const cz_server *s) { return s && !s->unix_path[0] ? s->port : 0; }
