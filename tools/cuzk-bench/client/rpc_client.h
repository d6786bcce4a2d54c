/* A small blocking cuzk.v1 client on gRPC's C core (cuzk-bench's daemon
 * commands). Built only with libgrpc and protobuf-c. */
#ifndef CUZK_BENCH_RPC_CLIENT_H
#define CUZK_BENCH_RPC_CLIENT_H
#include <grpc/grpc.h>
#include <protobuf-c/protobuf-c.h>
#include "server/grpc/grpc_codes.h" /* cz_grpc_code_name for its callers */

typedef struct {
  grpc_channel *channel;
} cz_rpc_client;

/* addr: http://host:port, host:port or unix://PATH (default
 * http://127.0.0.1:9820). 0 on success. */
int cz_rpc_open(cz_rpc_client *c, const char *addr);
void cz_rpc_close(cz_rpc_client *c);

/* Call /cuzk.v1.ProvingEngine/<method> with req; on GRPC_STATUS_OK *resp is
 * the decoded response (free with protobuf_c_message_free_unpacked).
 * Otherwise details holds the status message. timeout_ms 0 = none. */
grpc_status_code cz_rpc_call(cz_rpc_client *c, const char *method, const ProtobufCMessage *req,
                             const ProtobufCMessageDescriptor *resp_desc, ProtobufCMessage **resp,
                             char *details, size_t details_len, unsigned timeout_ms);

#endif
