/* What rpc_server.c (the calls) lends the services' handlers on the same
 * server (proving_rpc.c, circom_rpc.c), and the handlers it dispatches to:
 * each answers its call once. */
#ifndef CUZK_SERVER_GRPC_RPC_INTERNAL_H
#define CUZK_SERVER_GRPC_RPC_INTERNAL_H
#include <grpc/grpc.h>
#include <protobuf-c/protobuf-c.h>

#include "cuzk/circom_keys.h"
#include "cuzk/engine.h"

typedef struct call_ctx call_ctx;

#define CZ_RPC_MSG 256 /* the size of cz_rpc_cancel_job's msg */

/* Answer the call once: msg (NULL for a non-OK status) and the status. */
void cz_rpc_respond(call_ctx *c, const ProtobufCMessage *msg, grpc_status_code code,
                    const char *details);
/* The gRPC status of an engine error (docs/interface.md, Errors). */
grpc_status_code cz_rpc_code(cz_err err);
/* Await the job within both timeout_ms (0: none) and the call's deadline. */
cz_err cz_rpc_await(call_ctx *c, const char *job_id, uint64_t timeout_ms, cz_job_result *res);
/* Await's common part (both services): name the job in the call's log line
 * and wait for it (cz_rpc_await). True with *res: the caller answers and
 * frees res->proof. False once answered: an empty job_id
 * (INVALID_ARGUMENT) or no such job (NOT_FOUND, "no job ..."). */
bool cz_rpc_await_job(call_ctx *c, const char *job_id, uint64_t timeout_ms, cz_job_result *res);
/* Cancel's common part (both services): name the job in the log line and
 * cancel it. True with *was_running, and the status and msg ("no job ..."
 * for an unknown id, else empty; CZ_RPC_MSG bytes) of the caller's answer;
 * false once an empty job_id has been answered (INVALID_ARGUMENT). */
bool cz_rpc_cancel_job(call_ctx *c, const char *job_id, bool *was_running, grpc_status_code *code,
                       char msg[CZ_RPC_MSG]);
cz_engine *cz_rpc_engine(const call_ctx *c);
/* The circom keys the server was started with (NULL: none). */
cz_circom_keys *cz_rpc_circom(const call_ctx *c);
/* Name the call's job in its log line. */
void cz_rpc_set_job(call_ctx *c, const char *job_id);

/* cuzk.v1.ProvingEngine (proving_rpc.c). */
void cz_proving_rpc_submit(call_ctx *c, const ProtobufCMessage *req);
void cz_proving_rpc_await(call_ctx *c, const ProtobufCMessage *req);
void cz_proving_rpc_prove(call_ctx *c, const ProtobufCMessage *req);
void cz_proving_rpc_cancel(call_ctx *c, const ProtobufCMessage *req);
void cz_proving_rpc_status(call_ctx *c, const ProtobufCMessage *req);
void cz_proving_rpc_metrics(call_ctx *c, const ProtobufCMessage *req);
void cz_proving_rpc_preload(call_ctx *c, const ProtobufCMessage *req);
void cz_proving_rpc_evict(call_ctx *c, const ProtobufCMessage *req);

/* cuzk.circom.v1.CircomProver (circom_rpc.c). */
void cz_circom_rpc_load(call_ctx *c, const ProtobufCMessage *req);
void cz_circom_rpc_unload(call_ctx *c, const ProtobufCMessage *req);
void cz_circom_rpc_list(call_ctx *c, const ProtobufCMessage *req);
void cz_circom_rpc_prove(call_ctx *c, const ProtobufCMessage *req);
void cz_circom_rpc_submit(call_ctx *c, const ProtobufCMessage *req);
void cz_circom_rpc_await(call_ctx *c, const ProtobufCMessage *req);
void cz_circom_rpc_cancel(call_ctx *c, const ProtobufCMessage *req);

#endif
