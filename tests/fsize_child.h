/* A write cut short, for the tests of every cache writer: fn runs in a
 * forked child whose files may grow to at most limit bytes (RLIMIT_FSIZE,
 * with SIGXFSZ ignored, so the write fails with EFBIG instead of killing
 * it) and whose stderr goes back through a pipe into got (len bytes, NUL
 * terminated). fn returns true when it failed as the test expects. True
 * when the child exited normally and fn returned true. */
#ifndef CUZK_TESTS_FSIZE_CHILD_H
#define CUZK_TESTS_FSIZE_CHILD_H

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static inline bool fsize_child(rlim_t limit, bool (*fn)(void *ctx), void *ctx, char *got,
                               size_t len) {
  int fds[2];
  if (len == 0 || pipe(fds) != 0) return false;
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], 2);
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl = {limit, limit};
    setrlimit(RLIMIT_FSIZE, &rl);
    bool ok = fn(ctx);
    fflush(stderr);
    _exit(ok ? 0 : 2);
  }
  close(fds[1]);
  size_t n = 0;
  for (ssize_t k; n < len - 1 && (k = read(fds[0], got + n, len - 1 - n)) > 0;) n += (size_t)k;
  got[n] = 0;
  close(fds[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  fprintf(stderr, "cut short at %llu bytes: %s\n", (unsigned long long)limit, got);
  return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* A cut-short write's message says what a reader needs: the path, the
 * reason (EFBIG's strerror) and where it stopped ("... bytes) at offset at"). */
static inline bool cut_message_ok(const char *got, const char *path, unsigned long long at) {
  char where[64];
  snprintf(where, sizeof where, "bytes) at offset %llu", at);
  return strstr(got, path) && strstr(got, strerror(EFBIG)) && strstr(got, where);
}

#endif
