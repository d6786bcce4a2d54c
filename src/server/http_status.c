/* GET /status, /metrics, /healthz and /readyz over plain HTTP/1.0 from one
 * thread: an operator's curl or a Prometheus scrape, not a web server.
 * Requests are read with a short timeout and answered one at a time, each
 * from one engine snapshot (cz_engine_get_stats). */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/in.h>
#include "cuzk/log.h"
#include "cuzk/server.h"
#include "util/msg.h"

struct cz_http_status {
  int fd, port;
  cz_engine *e;
  atomic_bool stop;
  pthread_t thread;
};

static void send_all(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
    if (w <= 0) return;
    p += w;
    n -= (size_t)w;
  }
}

static void respond(int fd, const char *status, const char *type, const char *body) {
  char head[256];
  int hl = snprintf(head, sizeof head,
                    "HTTP/1.0 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                    "Connection: close\r\n\r\n",
                    status, type, strlen(body));
  send_all(fd, head, (size_t)hl);
  send_all(fd, body, strlen(body));
}

/* "GET /path[?query] HTTP/..." -> path; false for another method or a path
 * that does not fit. */
static bool request_path(const char *req, char *path, size_t cap) {
  if (strncmp(req, "GET /", 5) != 0) return false;
  const char *p = req + 4;
  size_t n = strcspn(p, " ?\r\n");
  if (n >= cap) return false;
  memcpy(path, p, n);
  path[n] = 0;
  return true;
}

static void answer(cz_http_status *h, int fd, const char *peer) {
  struct timeval tv = {2, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  char req[2048];
  size_t n = 0;
  while (n + 1 < sizeof req) {
    ssize_t r = recv(fd, req + n, sizeof req - 1 - n, 0);
    if (r <= 0) break;
    n += (size_t)r;
    req[n] = 0;
    if (strstr(req, "\r\n\r\n") || strstr(req, "\n\n")) break;
  }
  req[n] = 0;
  char path[64];
  size_t line = strcspn(req, "\r\n");
  if (!request_path(req, path, sizeof path)) {
    cz_log(CZ_LOG_WARN, "http", "refused (404) peer=%s: %.*s", peer, (int)(line < 120 ? line : 120),
           n ? req : "(no request line)");
    respond(fd, "404 Not Found", "text/plain", "not found\n");
    return;
  }
  cz_log(CZ_LOG_DEBUG, "http", "GET %s peer=%s", path, peer);
  cz_engine_stats s;
  if (strcmp(path, "/healthz") == 0) {
    respond(fd, "200 OK", "text/plain", "ok\n");
  } else if (strcmp(path, "/readyz") == 0) {
    cz_engine_get_stats(h->e, &s);
    char *json = cz_ready_json(&s);
    if (json)
      respond(fd, s.accepting ? "200 OK" : "503 Service Unavailable", "application/json", json);
    else respond(fd, "500 Internal Server Error", "text/plain", "out of memory\n");
    free(json);
  } else if (strcmp(path, "/metrics") == 0) {
    cz_engine_get_stats(h->e, &s);
    char *text = cz_metrics_text(&s);
    if (text) respond(fd, "200 OK", "text/plain; version=0.0.4; charset=utf-8", text);
    else respond(fd, "500 Internal Server Error", "text/plain", "out of memory\n");
    free(text);
  } else if (strcmp(path, "/status") == 0) {
    cz_engine_get_stats(h->e, &s);
    enum { MAX_JOBS = 64 };
    cz_job_info *jobs = malloc(MAX_JOBS * sizeof *jobs);
    size_t nj = jobs ? cz_engine_list_jobs(h->e, jobs, MAX_JOBS) : 0;
    char backend[32], note[256];
    cz_engine_get_backend_info(h->e, backend, sizeof backend, note, sizeof note);
    char *json = cz_status_json_full(&s, jobs, nj, backend, note);
    free(jobs);
    if (json) respond(fd, "200 OK", "application/json", json);
    else respond(fd, "500 Internal Server Error", "text/plain", "out of memory\n");
    free(json);
  } else {
    cz_log(CZ_LOG_WARN, "http", "refused (404) peer=%s: %.*s", peer, (int)(line < 120 ? line : 120),
           req);
    respond(fd, "404 Not Found", "text/plain", "not found\n");
  }
}

static void *serve(void *arg) {
  cz_http_status *h = arg;
  while (!atomic_load(&h->stop)) {
    struct pollfd p = {h->fd, POLLIN, 0};
    if (poll(&p, 1, 200) <= 0) continue;
    struct sockaddr_storage sa;
    socklen_t sl = sizeof sa;
    int c = accept(h->fd, (struct sockaddr *)&sa, &sl);
    if (c < 0) continue;
    char host[INET6_ADDRSTRLEN] = "?", peer[INET6_ADDRSTRLEN + 16];
    int port = 0;
    if (sa.ss_family == AF_INET) {
      inet_ntop(AF_INET, &((struct sockaddr_in *)&sa)->sin_addr, host, sizeof host);
      port = ntohs(((struct sockaddr_in *)&sa)->sin_port);
      snprintf(peer, sizeof peer, "ipv4:%s:%d", host, port);
    } else if (sa.ss_family == AF_INET6) {
      inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&sa)->sin6_addr, host, sizeof host);
      port = ntohs(((struct sockaddr_in6 *)&sa)->sin6_port);
      snprintf(peer, sizeof peer, "ipv6:[%s]:%d", host, port);
    } else {
      snprintf(peer, sizeof peer, "?");
    }
    answer(h, c, peer);
    close(c);
  }
  return NULL;
}

cz_err cz_http_status_start(cz_http_status **out, cz_engine *e, const char *host_port, char *msg,
                            size_t msg_len) {
  *out = NULL;
  char host[256];
  const char *colon = strrchr(host_port, ':');
  if (!colon || colon == host_port || (size_t)(colon - host_port) >= sizeof host)
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "status_listen %s: expected host:port", host_port);
  memcpy(host, host_port, (size_t)(colon - host_port));
  host[colon - host_port] = 0;
  struct addrinfo hints = {0}, *ai = NULL;
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  int rc = getaddrinfo(host, colon + 1, &hints, &ai);
  if (rc != 0)
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "status_listen %s: %s", host_port, gai_strerror(rc));
  int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 16) != 0) {
    cz_msg(msg, msg_len, "status_listen %s: %s", host_port, strerror(errno));
    if (fd >= 0) close(fd);
    freeaddrinfo(ai);
    return CZ_ERR_IO;
  }
  freeaddrinfo(ai);
  cz_http_status *h = calloc(1, sizeof *h);
  if (!h) {
    close(fd);
    return CZ_ERR_NOMEM;
  }
  struct sockaddr_storage ss;
  socklen_t sl = sizeof ss;
  getsockname(fd, (struct sockaddr *)&ss, &sl);
  h->port = ss.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port)
                                     : ntohs(((struct sockaddr_in *)&ss)->sin_port);
  h->fd = fd;
  h->e = e;
  atomic_init(&h->stop, false);
  if (pthread_create(&h->thread, NULL, serve, h) != 0) {
    close(fd);
    free(h);
    return CZ_ERR_NOMEM;
  }
  *out = h;
  return CZ_OK;
}

int cz_http_status_port(const cz_http_status *h) { return h ? h->port : 0; }

void cz_http_status_stop(cz_http_status *h) {
  if (!h) return;
  atomic_store(&h->stop, true);
  pthread_join(h->thread, NULL);
  close(h->fd);
  free(h);
}
