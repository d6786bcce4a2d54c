/* gRPC status codes by name, for the daemon's call log and cuzk-bench's
 * client messages (grpc_codes.c). */
#ifndef CUZK_SERVER_GRPC_CODES_H
#define CUZK_SERVER_GRPC_CODES_H
#include <grpc/status.h>

/* code's name as gRPC spells it ("INVALID_ARGUMENT"); "UNKNOWN" for a code
 * outside the table. Never NULL; the string is static. */
const char *cz_grpc_code_name(grpc_status_code code);

#endif
