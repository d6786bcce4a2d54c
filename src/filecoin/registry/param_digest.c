/* Official parameter files against parameters.json's digests
 * (cuzk/param_digest.h): the table lookup, paramfetch's file digest, and
 * the stamp that lets later starts skip the hash. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/blake2b.h"
#include "cuzk/clock.h"
#include "cuzk/log.h"
#include "cuzk/param_digest.h"
#include "filecoin/registry/param_digests.h"
#include "util/atomic_file.h"
#include "util/msg.h"

#define READ_CHUNK (8u << 20) /* large reads; the hash, not the copy, is the cost */
#define STAMP_TAG "cuzk-param-digest 1"

const char *cz_param_digest_v28(const char *file) {
  if (!file) return NULL;
  for (size_t i = 0; i < cz_param_digest_n_rows; i++)
    if (!strcmp(cz_param_digest_rows[i].file, file)) return cz_param_digest_rows[i].digest;
  return NULL;
}

static void hex_prefix(char *out, const uint8_t *d, size_t n_hex) {
  static const char digits[] = "0123456789abcdef";
  for (size_t i = 0; i < n_hex; i++) out[i] = digits[(d[i / 2] >> (i % 2 ? 0 : 4)) & 15];
  out[n_hex] = 0;
}

cz_err cz_param_file_digest(const char *path, char hex[CZ_PARAM_DIGEST_HEX + 1], char *msg,
                            size_t msg_len) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "cannot open %s: %s", path, strerror(errno));
  posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  uint8_t *buf = malloc(READ_CHUNK);
  if (!buf) {
    close(fd);
    return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  }
  cz_blake2b_state s;
  cz_blake2b_init(&s, 64);
  ssize_t got;
  while ((got = read(fd, buf, READ_CHUNK)) != 0) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;
    cz_blake2b_update(&s, buf, (size_t)got);
  }
  int read_errno = got < 0 ? errno : 0;
  free(buf);
  close(fd);
  if (read_errno)
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "cannot read %s: %s", path, strerror(read_errno));
  uint8_t d[64];
  cz_blake2b_final(&s, d);
  hex_prefix(hex, d, CZ_PARAM_DIGEST_HEX);
  return CZ_OK;
}

/* ---- Stamps ----------------------------------------------------------------- */

/* The two places a stamp of path may be: beside it, else in stamp_dir. */
static void stamp_paths(const char *path, const char *stamp_dir, char *beside, char *other,
                        size_t cap) {
  const char *slash = strrchr(path, '/');
  snprintf(beside, cap, "%s" CZ_PARAM_STAMP_SUFFIX, path);
  other[0] = 0;
  if (stamp_dir && *stamp_dir)
    snprintf(other, cap, "%s/%s" CZ_PARAM_STAMP_SUFFIX, stamp_dir, slash ? slash + 1 : path);
}

static void stamp_line(char *out, size_t cap, const struct stat *st, const char *hex) {
  snprintf(out, cap, STAMP_TAG " %lld %lld.%09ld %s\n", (long long)st->st_size,
           (long long)st->st_mtim.tv_sec, (long)st->st_mtim.tv_nsec, hex);
}

/* The digest a stamp at stamp records for the file as it is now (st); false
 * when there is no stamp or it describes another size or mtime. */
static bool stamp_read(const char *stamp, const struct stat *st,
                       char hex[CZ_PARAM_DIGEST_HEX + 1]) {
  FILE *f = *stamp ? fopen(stamp, "r") : NULL;
  if (!f) return false;
  char line[160] = "", want[160];
  bool ok = fgets(line, sizeof line, f) != NULL;
  fclose(f);
  if (!ok || strlen(line) < CZ_PARAM_DIGEST_HEX + 2) return false;
  size_t n = strlen(line) - 1 - CZ_PARAM_DIGEST_HEX; /* where the digest starts */
  memcpy(hex, line + n, CZ_PARAM_DIGEST_HEX);
  hex[CZ_PARAM_DIGEST_HEX] = 0;
  stamp_line(want, sizeof want, st, hex);
  return !strcmp(line, want);
}

/* Write the stamp atomically (util/atomic_file.h); false with the reason
 * in why. */
static bool stamp_write(const char *stamp, const struct stat *st, const char *hex, char *why,
                        size_t why_len) {
  if (!*stamp) return false;
  char line[160];
  stamp_line(line, sizeof line, st, hex);
  return cz_atomic_write_file(stamp, line, strlen(line), why, why_len) == CZ_OK;
}

/* ---- The check ------------------------------------------------------------- */

/* The file's digest: from a stamp that still stands, else hashed now (and
 * stamped beside the file, else in stamp_dir). */
static cz_err digest_of(const char *path, const struct stat *st, const char *stamp_dir,
                        cz_param_check_info *info, char hex[CZ_PARAM_DIGEST_HEX + 1], char *msg,
                        size_t msg_len) {
  char beside[sizeof info->stamp], other[sizeof info->stamp];
  stamp_paths(path, stamp_dir, beside, other, sizeof beside);
  cz_atomic_sweep(beside); /* a stamp write that a kill -9 cut short */
  if (*other) cz_atomic_sweep(other);
  const char *found = stamp_read(beside, st, hex)  ? beside
                      : stamp_read(other, st, hex) ? other
                                                   : NULL;
  if (found) {
    snprintf(info->stamp, sizeof info->stamp, "%s", found);
    return CZ_OK;
  }
  cz_log(CZ_LOG_INFO, "params", "%s: checking it against parameters.json's digest (%.1f GiB), once",
         path, (double)st->st_size / (1u << 30));
  uint64_t t0 = cz_now_ns();
  cz_err e = cz_param_file_digest(path, hex, msg, msg_len);
  if (e != CZ_OK) return e;
  info->hashed = true;
  info->hash_seconds = (double)(cz_now_ns() - t0) / 1e9;
  if (*other && stamp_dir) mkdir(stamp_dir, 0755); /* the fallback's folder may not exist yet */
  char why1[1024] = "", why2[1024] = "";
  const char *kept = stamp_write(beside, st, hex, why1, sizeof why1)  ? beside
                     : stamp_write(other, st, hex, why2, sizeof why2) ? other
                                                                      : "";
  snprintf(info->stamp, sizeof info->stamp, "%s", kept);
  if (!*kept) /* the next start hashes the file again */
    cz_log(CZ_LOG_WARN, "params", "%s: could not write its digest stamp: %s%s%s", path, why1,
           *why2 ? "; " : "", why2);
  return CZ_OK;
}

cz_err cz_param_file_check(const char *path, const char *want, const char *stamp_dir,
                           cz_param_check_info *info, char *msg, size_t msg_len) {
  cz_param_check_info none;
  if (!info) info = &none;
  memset(info, 0, sizeof *info);
  struct stat st;
  if (stat(path, &st) != 0)
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "cannot open %s: %s", path, strerror(errno));
  char hex[CZ_PARAM_DIGEST_HEX + 1];
  cz_err e = digest_of(path, &st, stamp_dir, info, hex, msg, msg_len);
  if (e != CZ_OK) return e;
  if (!strcmp(hex, want)) {
    if (info->hashed)
      cz_log(CZ_LOG_INFO, "params", "%s: digest %s matches parameters.json (%.1f s)%s%s", path, hex,
             info->hash_seconds, *info->stamp ? "; stamp " : "; no stamp could be written",
             info->stamp);
    return CZ_OK;
  }
  cz_msg(msg, msg_len,
         "%s: BLAKE2b digest %s, but parameters.json says %s (%lld bytes): the file is corrupt or "
         "truncated and is not used; fetch it again",
         path, hex, want, (long long)st.st_size);
  cz_log(CZ_LOG_ERROR, "params", "%s", msg);
  return CZ_ERR_IO;
}

cz_err cz_official_params_check(const char *name, const cz_params_store_opts *o, char *msg,
                                size_t msg_len) {
  static const cz_params_store_opts defaults;
  if (!o) o = &defaults;
  char official[CZ_PARAMS_PATH_MAX], test[CZ_PARAMS_PATH_MAX], file[320];
  if (o->no_official || cz_params_store_paths(name, o, official, test) != CZ_OK) return CZ_OK;
  snprintf(file, sizeof file, "%s.params", name);
  const char *want = cz_param_digest_v28(file);
  if (!want || access(official, F_OK) != 0) return CZ_OK;
  char *slash = strrchr(test, '/'); /* the test directory holds the fallback stamps */
  if (slash) *slash = 0;
  return cz_param_file_check(official, want, slash ? test : NULL, NULL, msg, msg_len);
}
