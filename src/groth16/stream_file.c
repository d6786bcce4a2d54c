/* The temporary file of the streaming setup (stream_file.h). */
#include "groth16/stream_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "util/msg.h"

/* The directory and base name of path ("." when it has no '/'). */
static void split_path(const char *path, char *dir, size_t cap, const char **base) {
  const char *slash = strrchr(path, '/');
  if (!slash) {
    snprintf(dir, cap, ".");
    *base = path;
  } else if (slash == path) {
    snprintf(dir, cap, "/");
    *base = slash + 1;
  } else {
    snprintf(dir, cap, "%.*s", (int)(slash - path), path);
    *base = slash + 1;
  }
}

size_t cz_g16_stream_remove_stale(const char *path) {
  char dir[4200];
  const char *base;
  split_path(path, dir, sizeof dir, &base);
  DIR *d = opendir(dir);
  if (!d) return 0;
  size_t bl = strlen(base), removed = 0;
  struct dirent *ent;
  while ((ent = readdir(d)) != NULL) {
    const char *n = ent->d_name;
    if (strncmp(n, base, bl) != 0 || strncmp(n + bl, ".tmp.", 5) != 0) continue;
    char *end;
    long pid = strtol(n + bl + 5, &end, 10);
    if (*end || pid <= 0 || end == n + bl + 5) continue;
    if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
    char full[8400];
    snprintf(full, sizeof full, "%s/%s", dir, n);
    if (unlink(full) == 0) removed++;
  }
  closedir(d);
  return removed;
}

cz_err cz_g16_stream_open(g16_stream_file *f, const char *path, uint64_t total, uint64_t keep_free,
                          char *msg, size_t msg_len) {
  memset(f, 0, sizeof *f);
  f->fd = -1;
  f->total = total;
  if (strlen(path) >= sizeof f->path)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "path too long: %s", path);
  snprintf(f->path, sizeof f->path, "%s", path);
  snprintf(f->tmp, sizeof f->tmp, "%s.tmp.%ld", path, (long)getpid());
  char dir[4200];
  const char *base;
  split_path(path, dir, sizeof dir, &base);
  struct statvfs sv;
  if (statvfs(dir, &sv) != 0)
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "%s: statvfs of %s: %s (the file needs %llu bytes)",
                      path, dir, strerror(errno), (unsigned long long)total);
  uint64_t avail = (uint64_t)sv.f_bavail * (uint64_t)sv.f_frsize;
  if (avail < total || avail - total < keep_free)
    return cz_msg_err(msg, msg_len, CZ_ERR_IO,
                      "%s: not enough free disk space: the file needs %llu bytes (%.2f GiB) plus "
                      "%llu kept free; %s has %llu bytes free (%.2f GiB)",
                      path, (unsigned long long)total, (double)total / (1u << 30),
                      (unsigned long long)keep_free, dir, (unsigned long long)avail,
                      (double)avail / (1u << 30));
  f->fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (f->fd < 0)
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "cannot create %s: %s (the file needs %llu bytes)",
                      f->tmp, strerror(errno), (unsigned long long)total);
  return CZ_OK;
}

void cz_g16_stream_abort(g16_stream_file *f) {
  if (f->fd >= 0) close(f->fd);
  f->fd = -1;
  if (f->tmp[0]) unlink(f->tmp);
}

static cz_err write_failed(g16_stream_file *f, int err, const char *what, char *msg,
                           size_t msg_len) {
  cz_msg(msg, msg_len, "%s %s: %s at byte %llu (the file needs %llu bytes, %llu more)", what,
         f->tmp, strerror(err), (unsigned long long)f->written, (unsigned long long)f->total,
         (unsigned long long)(f->total - f->written));
  cz_g16_stream_abort(f);
  return CZ_ERR_IO;
}

cz_err cz_g16_stream_write(g16_stream_file *f, const void *buf, size_t n, char *msg,
                           size_t msg_len) {
  const uint8_t *p = buf;
  while (n) {
    ssize_t w = write(f->fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return write_failed(f, w < 0 ? errno : ENOSPC, "write", msg, msg_len);
    p += w;
    n -= (size_t)w;
    f->written += (uint64_t)w;
  }
  return CZ_OK;
}

cz_err cz_g16_stream_commit(g16_stream_file *f, char *msg, size_t msg_len) {
  if (f->written != f->total) return write_failed(f, EIO, "size mismatch in", msg, msg_len);
  if (fsync(f->fd) != 0) return write_failed(f, errno, "fsync", msg, msg_len);
  int fd = f->fd;
  f->fd = -1;
  if (close(fd) != 0) return write_failed(f, errno, "close", msg, msg_len);
  if (rename(f->tmp, f->path) != 0) {
    int err = errno;
    cz_msg(msg, msg_len, "rename %s to %s: %s", f->tmp, f->path, strerror(err));
    unlink(f->tmp);
    return CZ_ERR_IO;
  }
  return CZ_OK;
}
