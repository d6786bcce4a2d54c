/* Cache files that survive kill -9 and a full disk (internal).
 *
 * Every file cuzk keeps between runs (test parameters, recorded shapes,
 * digest stamps, cuzk-bench's outputs) is written to <path>.tmp.<pid> in
 * path's directory, fsynced, then renamed over path (and the directory
 * fsynced): a reader sees no file, the old one or the whole new one, never
 * a partial one. A process killed while writing leaves its temporary;
 * cz_atomic_sweep (called by every open, and by the readers at start)
 * removes the temporaries of processes that no longer run. */
#ifndef CUZK_UTIL_ATOMIC_FILE_H
#define CUZK_UTIL_ATOMIC_FILE_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/err.h"

typedef struct cz_atomic_file {
  int fd;
  char path[4096], tmp[4128];
  uint64_t written, total;     /* bytes so far; bytes the file will have (0: not said) */
  uint64_t dev, ino;           /* the temporary's, while open (0: none) */
  struct cz_atomic_file *next; /* the process's open temporaries (atomic_file.c) */
} cz_atomic_file;

/* The directory path's file lands in: "." when path has no '/', "/" for a
 * file at the root, else everything before the last '/' (cut to cap). */
void cz_atomic_dir_of(const char *path, char *dir, size_t cap);

/* Removes, in path's directory, each regular file named exactly
 * <basename(path)>.tmp.<pid> (pid all digits) whose process no longer runs
 * (kill(pid, 0) fails with ESRCH), and this process's own when no
 * cz_atomic_file of this process has it open (a pid reused after a
 * restart, as a container's daemon gets). A live process's temporary is
 * never touched. Returns how many. */
size_t cz_atomic_sweep(const char *path);

/* Sweeps, then creates <path>.tmp.<pid> (mode 0644). total: the bytes the
 * file will have, named in messages (0 when not known). CZ_ERR_IO with
 * "cannot create <temporary>: <strerror> (the temporary of <path>, <size>)" (EEXIST: another thread
 * of this process writes path now); CZ_ERR_INVALID_ARG when the path is too long. */
cz_err cz_atomic_open(cz_atomic_file *f, const char *path, uint64_t total, char *msg,
                      size_t msg_len);
/* Appends n bytes. On failure: CZ_ERR_IO with "<path>: <strerror> (writing
 * <size> at offset <N>)" (size: total when set, else n), and the temporary
 * is removed (f is then closed). */
cz_err cz_atomic_write(cz_atomic_file *f, const void *buf, size_t n, char *msg, size_t msg_len);
/* fsync, close, rename over path, fsync the directory. CZ_ERR_IO as above
 * (the temporary removed); f is closed either way. */
cz_err cz_atomic_commit(cz_atomic_file *f, char *msg, size_t msg_len);
/* Closes and removes the temporary (after an error; fine when closed). */
void cz_atomic_abort(cz_atomic_file *f);
/* open, write, commit: path holds buf[0..n) or is left as it was. */
cz_err cz_atomic_write_file(const char *path, const void *buf, size_t n, char *msg, size_t msg_len);

/* Test hook (process-wide, for a forked child): raise SIGKILL once a
 * write brings the temporary to at_bytes (it holds exactly at_bytes then),
 * or, with CZ_ATOMIC_KILL_BEFORE_RENAME, after fsync and before rename.
 * CZ_ATOMIC_KILL_NEVER (the default) turns it off. */
#define CZ_ATOMIC_KILL_NEVER UINT64_MAX
#define CZ_ATOMIC_KILL_BEFORE_RENAME (UINT64_MAX - 1)
void cz_atomic_test_kill_at(uint64_t at_bytes);
#endif
