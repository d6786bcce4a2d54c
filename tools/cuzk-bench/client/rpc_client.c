/* Blocking unary calls: one batch per call, plucked from a per-call queue. */
#include "rpc_client.h"
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc_security.h>
#include <grpc/support/time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cz_rpc_open(cz_rpc_client *c, const char *addr) {
  if (!addr) addr = "http://127.0.0.1:9820";
  if (strncmp(addr, "http://", 7) == 0) addr += 7;
  grpc_init();
  grpc_arg args[2];
  args[0].type = args[1].type = GRPC_ARG_INTEGER;
  args[0].key = (char *)GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
  args[1].key = (char *)GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
  args[0].value.integer = args[1].value.integer = 256 * 1024 * 1024;
  grpc_channel_args ca = {2, args};
  grpc_channel_credentials *creds = grpc_insecure_credentials_create();
  c->channel = grpc_channel_create(addr, creds, &ca);
  grpc_channel_credentials_release(creds);
  return c->channel ? 0 : -1;
}

void cz_rpc_close(cz_rpc_client *c) {
  if (c->channel) grpc_channel_destroy(c->channel);
  c->channel = NULL;
  grpc_shutdown();
}

grpc_status_code cz_rpc_call(cz_rpc_client *c, const char *method, const ProtobufCMessage *req,
                             const ProtobufCMessageDescriptor *resp_desc, ProtobufCMessage **resp,
                             char *details, size_t details_len, unsigned timeout_ms) {
  *resp = NULL;
  details[0] = 0;
  char path[128];
  snprintf(path, sizeof path, "/cuzk.v1.ProvingEngine/%s", method);
  grpc_completion_queue *cq = grpc_completion_queue_create_for_pluck(NULL);
  gpr_timespec deadline = timeout_ms ? gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC),
                                                    gpr_time_from_millis(timeout_ms, GPR_TIMESPAN))
                                     : gpr_inf_future(GPR_CLOCK_MONOTONIC);
  grpc_slice m = grpc_slice_from_copied_string(path);
  grpc_call *call = grpc_channel_create_call(c->channel, NULL, GRPC_PROPAGATE_DEFAULTS, cq, m, NULL,
                                             deadline, NULL);
  grpc_slice_unref(m);
  size_t len = protobuf_c_message_get_packed_size(req);
  uint8_t *buf = malloc(len ? len : 1);
  protobuf_c_message_pack(req, buf);
  grpc_slice sl = grpc_slice_new(buf, len, free);
  grpc_byte_buffer *out = grpc_raw_byte_buffer_create(&sl, 1);
  grpc_slice_unref(sl);
  grpc_metadata_array init_md, trail_md;
  grpc_metadata_array_init(&init_md);
  grpc_metadata_array_init(&trail_md);
  grpc_byte_buffer *in = NULL;
  grpc_status_code code = GRPC_STATUS_UNKNOWN;
  grpc_slice det = grpc_empty_slice();
  grpc_op ops[6];
  memset(ops, 0, sizeof ops);
  ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
  ops[1].op = GRPC_OP_SEND_MESSAGE;
  ops[1].data.send_message.send_message = out;
  ops[2].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
  ops[3].op = GRPC_OP_RECV_INITIAL_METADATA;
  ops[3].data.recv_initial_metadata.recv_initial_metadata = &init_md;
  ops[4].op = GRPC_OP_RECV_MESSAGE;
  ops[4].data.recv_message.recv_message = &in;
  ops[5].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
  ops[5].data.recv_status_on_client.trailing_metadata = &trail_md;
  ops[5].data.recv_status_on_client.status = &code;
  ops[5].data.recv_status_on_client.status_details = &det;
  int tag = 1;
  if (grpc_call_start_batch(call, ops, 6, &tag, NULL) == GRPC_CALL_OK)
    grpc_completion_queue_pluck(cq, &tag, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
  else snprintf(details, details_len, "cannot start the call");
  if (!details[0])
    snprintf(details, details_len, "%.*s", (int)GRPC_SLICE_LENGTH(det),
             (const char *)GRPC_SLICE_START_PTR(det));
  if (code == GRPC_STATUS_OK) {
    grpc_slice all = grpc_empty_slice();
    if (in) {
      grpc_byte_buffer_reader rd;
      grpc_byte_buffer_reader_init(&rd, in);
      all = grpc_byte_buffer_reader_readall(&rd);
      grpc_byte_buffer_reader_destroy(&rd);
    }
    *resp = protobuf_c_message_unpack(resp_desc, NULL, GRPC_SLICE_LENGTH(all),
                                      GRPC_SLICE_START_PTR(all));
    grpc_slice_unref(all);
    if (!*resp) {
      code = GRPC_STATUS_INTERNAL;
      snprintf(details, details_len, "malformed response");
    }
  }
  grpc_slice_unref(det);
  if (in) grpc_byte_buffer_destroy(in);
  grpc_byte_buffer_destroy(out);
  grpc_metadata_array_destroy(&init_md);
  grpc_metadata_array_destroy(&trail_md);
  grpc_call_unref(call);
  grpc_completion_queue_shutdown(cq);
  while (grpc_completion_queue_pluck(cq, NULL, gpr_inf_future(GPR_CLOCK_REALTIME), NULL).type !=
         GRPC_QUEUE_SHUTDOWN) {
  }
  grpc_completion_queue_destroy(cq);
  return code;
}
