/* Cache files written to a temporary, fsynced and renamed (atomic_file.h). */
#include "util/atomic_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/msg.h"

static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;
static cz_atomic_file *open_files; /* this process's temporaries being written */
static uint64_t kill_at = CZ_ATOMIC_KILL_NEVER;

void cz_atomic_test_kill_at(uint64_t at_bytes) { kill_at = at_bytes; }

void cz_atomic_dir_of(const char *path, char *dir, size_t cap) {
  const char *slash = strrchr(path, '/');
  if (!slash) snprintf(dir, cap, ".");
  else if (slash == path) snprintf(dir, cap, "/");
  else snprintf(dir, cap, "%.*s", (int)(slash - path), path);
}

/* The directory and base name of path (cz_atomic_dir_of). */
static void split_path(const char *path, char *dir, size_t cap, const char **base) {
  const char *slash = strrchr(path, '/');
  *base = slash ? slash + 1 : path;
  cz_atomic_dir_of(path, dir, cap);
}

/* Whether this process writes the file st describes (open_lock held). */
static bool open_here(const struct stat *st) {
  for (const cz_atomic_file *f = open_files; f; f = f->next)
    if (f->dev == (uint64_t)st->st_dev && f->ino == (uint64_t)st->st_ino) return true;
  return false;
}

static void unlist(cz_atomic_file *f) {
  pthread_mutex_lock(&open_lock);
  for (cz_atomic_file **p = &open_files; *p; p = &(*p)->next)
    if (*p == f) {
      *p = f->next;
      break;
    }
  pthread_mutex_unlock(&open_lock);
}

/* The pid of a name <base>.tmp.<digits>, else 0. */
static long temp_pid(const char *name, const char *base, size_t bl) {
  if (strncmp(name, base, bl) != 0 || strncmp(name + bl, ".tmp.", 5) != 0) return 0;
  const char *d = name + bl + 5;
  long pid = 0;
  if (!*d || *d == '0') return 0;
  for (; *d; d++) {
    if (*d < '0' || *d > '9' || pid > 999999999) return 0;
    pid = pid * 10 + (*d - '0');
  }
  return pid;
}

size_t cz_atomic_sweep(const char *path) {
  char dir[4096];
  const char *base;
  split_path(path, dir, sizeof dir, &base);
  DIR *d = opendir(dir);
  if (!d) return 0;
  size_t bl = strlen(base), removed = 0;
  struct dirent *ent;
  pthread_mutex_lock(&open_lock);
  while ((ent = readdir(d)) != NULL) {
    long pid = temp_pid(ent->d_name, base, bl);
    if (pid <= 0) continue;
    char full[8400];
    snprintf(full, sizeof full, "%s/%s", dir, ent->d_name);
    struct stat st;
    if (lstat(full, &st) != 0 || !S_ISREG(st.st_mode)) continue;
    bool dead =
        pid == (long)getpid() ? !open_here(&st) : kill((pid_t)pid, 0) != 0 && errno == ESRCH;
    if (dead && unlink(full) == 0) removed++;
  }
  pthread_mutex_unlock(&open_lock);
  closedir(d);
  return removed;
}

/* "38.5 MB (38512345 bytes)" */
static void size_text(char *out, size_t cap, uint64_t n) {
  if (n < 10000) snprintf(out, cap, "%llu bytes", (unsigned long long)n);
  else if (n < 1000000)
    snprintf(out, cap, "%.1f kB (%llu bytes)", (double)n / 1e3, (unsigned long long)n);
  else if (n < 1000000000)
    snprintf(out, cap, "%.1f MB (%llu bytes)", (double)n / 1e6, (unsigned long long)n);
  else snprintf(out, cap, "%.1f GB (%llu bytes)", (double)n / 1e9, (unsigned long long)n);
}

cz_err cz_atomic_open(cz_atomic_file *f, const char *path, uint64_t total, char *msg,
                      size_t msg_len) {
  memset(f, 0, sizeof *f);
  f->fd = -1;
  f->total = total;
  if ((size_t)snprintf(f->path, sizeof f->path, "%s", path) >= sizeof f->path ||
      (size_t)snprintf(f->tmp, sizeof f->tmp, "%s.tmp.%ld", path, (long)getpid()) >= sizeof f->tmp)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "path too long: %s", path);
  cz_atomic_sweep(path); /* also a temporary of ours from a former process with our pid */
  /* O_EXCL: a temporary still there is another thread's of this process */
  pthread_mutex_lock(&open_lock); /* a sweep sees it listed as soon as it exists */
  f->fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  struct stat st;
  bool ok = f->fd >= 0 && fstat(f->fd, &st) == 0;
  int err = errno;
  if (ok) {
    f->dev = (uint64_t)st.st_dev, f->ino = (uint64_t)st.st_ino;
    f->next = open_files;
    open_files = f;
  } else if (f->fd >= 0) {
    close(f->fd);
    unlink(f->tmp);
    f->fd = -1;
  }
  pthread_mutex_unlock(&open_lock);
  if (ok) return CZ_OK;
  char size[64];
  size_text(size, sizeof size, total);
  return cz_msg_err(msg, msg_len, CZ_ERR_IO, "cannot create %s: %s (the temporary of %s, %s)",
                    f->tmp, strerror(err), path, total ? size : "size not known");
}

void cz_atomic_abort(cz_atomic_file *f) {
  if (f->fd >= 0) close(f->fd);
  if (f->tmp[0] && f->ino) {
    unlink(f->tmp);
    unlist(f);
  }
  f->fd = -1;
  f->tmp[0] = 0;
}

static cz_err failed(cz_atomic_file *f, int err, const char *what, uint64_t n, char *msg,
                     size_t msg_len) {
  char size[64];
  size_text(size, sizeof size, f->total ? f->total : n);
  cz_msg(msg, msg_len, "%s: %s%s%s (writing %s at offset %llu)", f->path, what, *what ? ": " : "",
         strerror(err), size, (unsigned long long)f->written);
  cz_atomic_abort(f);
  return CZ_ERR_IO;
}

cz_err cz_atomic_write(cz_atomic_file *f, const void *buf, size_t n, char *msg, size_t msg_len) {
  if (f->fd < 0) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "%s: not open", f->path);
  const uint8_t *p = buf;
  while (n) {
    size_t chunk = n > ((size_t)1 << 30) ? (size_t)1 << 30 : n;
    bool die = kill_at < CZ_ATOMIC_KILL_BEFORE_RENAME && f->written + chunk >= kill_at;
    if (die) chunk = (size_t)(kill_at - f->written);
    ssize_t w = chunk ? write(f->fd, p, chunk) : 0;
    if (die && w == (ssize_t)chunk) raise(SIGKILL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return failed(f, w < 0 ? errno : ENOSPC, "", n, msg, msg_len);
    p += w;
    n -= (size_t)w;
    f->written += (uint64_t)w;
  }
  return CZ_OK;
}

/* fsync of path's directory, so that the rename survives a power loss. */
static void sync_dir(const char *path) {
  char dir[4096];
  const char *base;
  split_path(path, dir, sizeof dir, &base);
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)fsync(fd);
  close(fd);
}

cz_err cz_atomic_commit(cz_atomic_file *f, char *msg, size_t msg_len) {
  if (f->fd < 0) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "%s: not open", f->path);
  if (f->total && f->written != f->total)
    return failed(f, EIO, "size mismatch", f->total, msg, msg_len);
  if (fsync(f->fd) != 0) return failed(f, errno, "fsync", f->written, msg, msg_len);
  int fd = f->fd;
  f->fd = -1;
  if (close(fd) != 0) return failed(f, errno, "close", f->written, msg, msg_len);
  if (kill_at == CZ_ATOMIC_KILL_BEFORE_RENAME) raise(SIGKILL);
  if (rename(f->tmp, f->path) != 0) {
    int err = errno;
    cz_msg(msg, msg_len, "%s: rename from %s: %s", f->path, f->tmp, strerror(err));
    cz_atomic_abort(f);
    return CZ_ERR_IO;
  }
  unlist(f);
  f->tmp[0] = 0;
  f->ino = 0;
  sync_dir(f->path);
  return CZ_OK;
}

cz_err cz_atomic_write_file(const char *path, const void *buf, size_t n, char *msg,
                            size_t msg_len) {
  cz_atomic_file f;
  cz_err e = cz_atomic_open(&f, path, n, msg, msg_len);
  if (e == CZ_OK) e = cz_atomic_write(&f, buf, n, msg, msg_len);
  if (e == CZ_OK) e = cz_atomic_commit(&f, msg, msg_len);
  return e;
}
