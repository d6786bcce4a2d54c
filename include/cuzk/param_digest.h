/* Layer: filecoin */
/* Filecoin's official parameter files checked against the digests
 * rust-fil-proofs publishes in parameters.json, as paramfetch checks them
 * after a download (src/filecoin/registry/param_digest.c). A truncated or
 * bit-flipped file is refused once, at load, with one line that names it,
 * instead of failing every proof made with it. Hashing a 32 GiB PoRep file
 * takes a while, so a stamp beside the file remembers a hash already done. */
#ifndef CUZK_PARAM_DIGEST_H
#define CUZK_PARAM_DIGEST_H
#include <stdbool.h>
#include <stddef.h>

#include "cuzk/err.h"
#include "cuzk/params_store.h"

#define CZ_PARAM_DIGEST_HEX 32 /* paramfetch compares this many hex digits */
#define CZ_PARAM_STAMP_SUFFIX ".cuzk-digest"

/* parameters.json's digest of the official file `file` ("v28-....params"
 * or ".vk", without a directory): 32 lower-case hex digits, or NULL when
 * the name is not one of the published v28 files. Pure; any thread. */
const char *cz_param_digest_v28(const char *file);

/* paramfetch's digest of the file at path: BLAKE2b-512 of all its bytes,
 * the first 32 hex digits, into hex (NUL-terminated). Reads the file once,
 * in order. CZ_ERR_IO (msg names the file) when it cannot be read. */
CZ_MUST_CHECK cz_err cz_param_file_digest(const char *path, char hex[CZ_PARAM_DIGEST_HEX + 1],
                                          char *msg, size_t msg_len);

typedef struct {
  bool hashed;                         /* the file was read and hashed now (no stamp stood) */
  double hash_seconds;                 /* how long that took */
  char stamp[CZ_PARAMS_PATH_MAX + 32]; /* the stamp used or written ("" if none) */
} cz_param_check_info;

/* Whether the file at path hashes to want (32 hex digits). A stamp
 * <path>.cuzk-digest, or <stamp_dir>/<file name>.cuzk-digest when the
 * file's own directory cannot take one (stamp_dir may be NULL), records
 * the size, mtime and digest of an earlier hash; while the file's size and
 * mtime are unchanged it stands for the hash. CZ_OK when the digest is
 * want's; otherwise CZ_ERR_IO, with msg naming the file, both digests and
 * what to do (a mismatch is also logged once at ERROR). info may be NULL.
 * Safe to call from several threads and processes at once. */
CZ_MUST_CHECK cz_err cz_param_file_check(const char *path, const char *want, const char *stamp_dir,
                                         cz_param_check_info *info, char *msg, size_t msg_len);

/* The official file of parameter set `name` (the v28 base name) under o
 * (cz_params_store_paths) checked with cz_param_file_check when it exists
 * and parameters.json lists it; stamps fall back to o's test directory.
 * CZ_OK when there is no such file, no digest is published for it, or
 * o->no_official is set. o may be NULL (defaults). */
CZ_MUST_CHECK cz_err cz_official_params_check(const char *name, const cz_params_store_opts *o,
                                              char *msg, size_t msg_len);

#endif
