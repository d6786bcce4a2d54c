/* The temporary file of the streaming setup (stream_file.h). */
#include "groth16/stream_file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>
#include "util/msg.h"

cz_err cz_g16_stream_open(cz_atomic_file *f, const char *path, uint64_t total, uint64_t keep_free,
                          char *msg, size_t msg_len) {
  memset(f, 0, sizeof *f);
  f->fd = -1;
  cz_atomic_sweep(path); /* a killed run's temporary would count against the space */
  char dir[4096];
  cz_atomic_dir_of(path, dir, sizeof dir);
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
  return cz_atomic_open(f, path, total, msg, msg_len);
}
