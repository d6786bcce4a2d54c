/* The file side of the streaming setup (stream_file.c): a temporary
 * <path>.tmp.<pid> written in order, then renamed over path. */
#ifndef CUZK_GROTH16_STREAM_FILE_H
#define CUZK_GROTH16_STREAM_FILE_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/err.h"

typedef struct {
  int fd;
  char path[4200], tmp[4240];
  uint64_t written, total; /* bytes so far, bytes the file needs */
} g16_stream_file;

/* Removes <path>.tmp.<pid> files whose process no longer runs (a killed
 * earlier run's); returns how many. */
size_t cz_g16_stream_remove_stale(const char *path);
/* Checks that path's file system has total + keep_free bytes free
 * (statvfs, for an unprivileged writer), then creates the temporary
 * (O_EXCL). CZ_ERR_IO with path, the bytes needed and free, or strerror. */
cz_err cz_g16_stream_open(g16_stream_file *f, const char *path, uint64_t total, uint64_t keep_free,
                          char *msg, size_t msg_len);
/* Appends n bytes. CZ_ERR_IO naming the temporary, strerror, the offset
 * and the bytes the file needs; the temporary is then removed. */
cz_err cz_g16_stream_write(g16_stream_file *f, const void *buf, size_t n, char *msg,
                           size_t msg_len);
/* fsync, close, check the size, rename over path (CZ_ERR_IO as above). */
cz_err cz_g16_stream_commit(g16_stream_file *f, char *msg, size_t msg_len);
/* Closes and removes the temporary (after an error; fine when closed). */
void cz_g16_stream_abort(g16_stream_file *f);
#endif
