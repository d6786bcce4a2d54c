/* The file side of the streaming setup (stream_file.c): a cz_atomic_file
 * (util/atomic_file.h, <path>.tmp.<pid> renamed over path) opened once the
 * file system is known to hold the whole file. */
#ifndef CUZK_GROTH16_STREAM_FILE_H
#define CUZK_GROTH16_STREAM_FILE_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/err.h"
#include "util/atomic_file.h"

/* Removes the temporaries of path that dead processes left
 * (cz_atomic_sweep), checks that path's file system has total + keep_free
 * bytes free (statvfs, for an unprivileged writer), then opens the
 * temporary. CZ_ERR_IO with path, the bytes needed and free, or strerror. */
cz_err cz_g16_stream_open(cz_atomic_file *f, const char *path, uint64_t total, uint64_t keep_free,
                          char *msg, size_t msg_len);
#endif
