/* The listening socket's checks around gRPC's bind (listen_socket.c). Each
 * returns CZ_OK or CZ_ERR_IO with one line in msg. */
#ifndef CUZK_SERVER_GRPC_LISTEN_SOCKET_H
#define CUZK_SERVER_GRPC_LISTEN_SOCKET_H
#include <stddef.h>
#include "cuzk/err.h"
#include "cuzk/server.h"

/* Before binding the absolute unix socket path: create its directory and
 * remove a stale socket (one nobody answers on); a live socket or a file
 * that is not a socket is refused. */
cz_err cz_grpc_prepare_unix(const char *path, char *msg, size_t msg_len);
/* Before gRPC binds a numeric host:port (la, parsed from listen): bind it
 * once to refuse a held port in one line with its errno. A host name is
 * left to gRPC (CZ_OK). */
cz_err cz_grpc_probe_tcp(const cz_listen_addr *la, const char *listen, char *msg, size_t msg_len);
/* After binding: give the socket at path its mode and, when gid >= 0, its
 * group. */
cz_err cz_grpc_set_socket_perms(const char *path, unsigned mode, long gid, char *msg,
                                size_t msg_len);

#endif
