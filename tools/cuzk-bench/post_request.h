/* PoSt request files of cuzk-bench: what gen-vanilla winning-post |
 * window-post writes and prove, verify-vanilla, verify-post, single and
 * batch read.
 *
 *   vanilla.json  a JSON array of the partition's vanilla proofs, each the
 *                 standard padded base64 of one bincode
 *                 FallbackPoStSectorProof, exactly as Go's
 *                 json.Marshal([][]byte) writes it (upstream cuzk-bench's
 *                 gen-vanilla output, its `single --vanilla` input):
 *                 ["<base64>","<base64>"], no spaces, no newline.
 *   request.json  {"proof_kind": "winning-post" | "window-post",
 *                  "registered_proof": N (0-14, or the filecoin-ffi name),
 *                  "randomness": "<64 hex: 32 bytes>",
 *                  "miner_id": N,
 *                  "partition": K (optional, 0),
 *                  "sectors": [{"sector_id": N, "comm_r": "<64 hex>"}, ...],
 *                  "vanilla": "vanilla.json"}
 *                 with "vanilla" relative to the request's directory (or
 *                 absolute); one proof per sector, in the same order.
 *                 Unknown fields are ignored.
 * Hex is the bytes in order (comm_r and randomness: the 32-byte
 * little-endian Fr filecoin-proofs takes), an optional 0x prefix. */
#ifndef CUZK_BENCH_POST_REQUEST_H
#define CUZK_BENCH_POST_REQUEST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/err.h"
#include "cuzk/post.h"

/* One raw bincode vanilla proof. */
typedef struct {
  uint8_t *bytes; /* heap-owned */
  size_t len;
} cz_bench_blob;

typedef struct {
  const cz_registered_post *registered;
  uint8_t randomness[32];
  bool has_miner_id; /* a request has one; a bare vanilla.json need not */
  uint64_t miner_id;
  uint8_t prover_id[32]; /* cz_prover_id_of_miner(miner_id), or as given */
  uint32_t partition;
  cz_post_sector *sectors; /* heap-owned; NULL for a bare vanilla.json */
  size_t n_sectors;
  cz_bench_blob *vanilla; /* heap-owned, the raw bincode proofs */
  size_t n_vanilla;
} cz_bench_post_request;

/* What command-line options supply for a bare vanilla.json (a request
 * carries its own and these are not consulted). NULL / false: not given. */
typedef struct {
  const cz_registered_post *registered;
  const uint8_t *randomness; /* 32 bytes */
  const uint8_t *prover_id;  /* 32 bytes */
  bool has_partition;
  uint32_t partition;
} cz_bench_post_options;

/* Read a request.json, or a bare vanilla.json (a top-level array) with the
 * registered proof, randomness and prover id from opt (partition default 0). Checks the
 * form only: every field present and well formed, proof_kind agreeing with
 * registered_proof, WinningPoSt at partition 0, one proof per sector, each
 * proof valid base64; the proofs are not parsed. Returns CZ_OK with *out
 * owned by the caller (cz_bench_post_request_free), or CZ_ERR_IO /
 * CZ_ERR_PARSE / CZ_ERR_INVALID_ARG / CZ_ERR_NOMEM with one line in why
 * naming the file and field ("r.json: sectors[1].comm_r: 63 hex digits,
 * expected 64"); *out is then empty. */
cz_err cz_bench_post_request_read(const char *path, const cz_bench_post_options *opt,
                                  cz_bench_post_request *out, char *why, size_t whylen);

/* Write dir/request.json (vanilla "vanilla.json") and dir/vanilla.json
 * from r (miner_id required). CZ_ERR_IO / CZ_ERR_INVALID_ARG /
 * CZ_ERR_NOMEM with why. */
cz_err cz_bench_post_request_write(const char *dir, const cz_bench_post_request *r, char *why,
                                   size_t whylen);

void cz_bench_post_request_free(cz_bench_post_request *r); /* idempotent on a zeroed one */

/* The vanilla.json text of v[0..n) (see above), NUL-terminated, malloc'd;
 * NULL when out of memory. */
char *cz_bench_vanilla_json(const cz_bench_blob *v, size_t n, size_t *len);

/* Append the proofs of one file to *list / *n: a vanilla.json array (first
 * non-blank byte '[' and no NUL byte: bincode always holds zero bytes) or
 * else one raw bincode proof. CZ_ERR_IO / CZ_ERR_PARSE / CZ_ERR_NOMEM with
 * why naming the file (and the array index). */
cz_err cz_bench_vanilla_load(const char *path, cz_bench_blob **list, size_t *n, char *why,
                             size_t whylen);

void cz_bench_blobs_free(cz_bench_blob *list, size_t n);

/* ---- What every request file shares (SnapDeals' too, snap_request.c) ---- */

struct json_t; /* jansson's */

/* cz_bench_vanilla_load of the file name a request at path `request` gives
 * (relative to the request's folder unless absolute); why then reads
 * "<request>: vanilla: <reason>". */
cz_err cz_bench_request_vanilla_load(const char *request, const char *name, cz_bench_blob **list,
                                     size_t *n, char *why, size_t whylen);

/* Write dir/vanilla.json (v[0..n)), then dir/request.json (request,
 * indented, one final newline), each atomically. request NULL (out of
 * memory building it) is CZ_ERR_NOMEM. CZ_ERR_IO / CZ_ERR_NOMEM with why. */
cz_err cz_bench_request_files_write(const char *dir, const struct json_t *request,
                                    const cz_bench_blob *v, size_t n, char *why, size_t whylen);

/* The 64 lower-case hex digits of 32 bytes, in order, NUL-terminated. */
void cz_bench_hex32_text(char out[65], const uint8_t b[32]);

/* A --registered-proof argument: a decimal number 0-14 or a filecoin-ffi
 * name ("StackedDrgWindow2KiBV1_1"); NULL when it is neither. */
const cz_registered_post *cz_bench_registered_post_arg(const char *arg);

/* "winning-post" / "window-post" for a PoSt type, and back (-1: neither). */
const char *cz_bench_post_type_name(cz_post_type t);
int cz_bench_post_type_of(const char *name);

#endif
