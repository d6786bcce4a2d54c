/* The daemon's listening socket before and after gRPC binds it: a unix
 * socket's directory and stale file, a TCP port held by another process,
 * the socket's mode and group (rpc_server.c calls these). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include "server/grpc/listen_socket.h"
#include "util/msg.h"

static int mkdir_p(char *dir) {
  for (char *p = dir + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    int rc = mkdir(dir, 0755);
    *p = '/';
    if (rc != 0 && errno != EEXIST) return -1;
  }
  return mkdir(dir, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

/* Create the socket's directory and remove a stale socket (one nobody
 * answers on); a live one or a non-socket file is an error. */
cz_err cz_grpc_prepare_unix(const char *path, char *msg, size_t msg_len) {
  struct sockaddr_un sa;
  if (path[0] != '/' || strlen(path) >= sizeof sa.sun_path)
    return cz_msg_err(msg, msg_len, CZ_ERR_IO,
                      "unix socket path must be absolute and shorter than %zu bytes",
                      sizeof sa.sun_path);
  char dir[sizeof sa.sun_path];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash && slash != dir) {
    *slash = 0;
    if (mkdir_p(dir) != 0)
      return cz_msg_err(msg, msg_len, CZ_ERR_IO, "cannot create %s: %s", dir, strerror(errno));
  }
  struct stat st;
  if (lstat(path, &st) != 0) return CZ_OK;
  if (!S_ISSOCK(st.st_mode))
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "%s exists and is not a socket", path);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  memset(&sa, 0, sizeof sa);
  sa.sun_family = AF_UNIX;
  memcpy(sa.sun_path, path, strlen(path));
  bool live = fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
  if (fd >= 0) close(fd);
  if (live)
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "%s: another daemon is listening there", path);
  if (unlink(path) != 0)
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "cannot remove stale socket %s: %s", path,
                      strerror(errno));
  return CZ_OK;
}

/* Bind a numeric host:port ourselves first, as gRPC does (SO_REUSEADDR,
 * no SO_REUSEPORT), so that a held port is refused in one line with its
 * errno: gRPC's own refusal is "cannot listen" after several log lines.
 * Names are left to gRPC (they may resolve to several addresses). */
cz_err cz_grpc_probe_tcp(const cz_listen_addr *la, const char *listen, char *msg, size_t msg_len) {
  struct sockaddr_in6 s6 = {0};
  struct sockaddr_in s4 = {0};
  struct sockaddr *sa;
  socklen_t len;
  if (inet_pton(AF_INET, la->host, &s4.sin_addr) == 1) {
    s4.sin_family = AF_INET;
    s4.sin_port = htons((uint16_t)la->port);
    sa = (struct sockaddr *)&s4;
    len = sizeof s4;
  } else if (inet_pton(AF_INET6, la->host, &s6.sin6_addr) == 1) {
    s6.sin6_family = AF_INET6;
    s6.sin6_port = htons((uint16_t)la->port);
    sa = (struct sockaddr *)&s6;
    len = sizeof s6;
  } else {
    return CZ_OK;
  }
  int fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return CZ_OK; /* gRPC will say */
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (sa->sa_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
  int rc = bind(fd, sa, len), err = errno;
  close(fd);
  if (rc == 0) return CZ_OK;
  return cz_msg_err(msg, msg_len, CZ_ERR_IO, "cannot listen on %s: %s%s", listen, strerror(err),
                    err == EADDRINUSE ? " (another daemon on this port?)" : "");
}

/* Give the bound socket its mode and group. The socket exists with the
 * umask's mode for the moment before; connecting needs write permission,
 * which the usual umask 022 withholds from group and others. */
cz_err cz_grpc_set_socket_perms(const char *path, unsigned mode, long gid, char *msg,
                                size_t msg_len) {
  if (gid >= 0 && chown(path, (uid_t)-1, (gid_t)gid) != 0)
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "cannot give %s group %ld: %s", path, gid,
                      strerror(errno));
  if (chmod(path, (mode_t)mode) != 0)
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "cannot chmod %s to %04o: %s", path, mode,
                      strerror(errno));
  return CZ_OK;
}
