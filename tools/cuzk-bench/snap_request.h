/* SnapDeals request files of cuzk-bench: what gen-vanilla snap-prove writes
 * and single -t snap --request, prove and verify-update read.
 *
 *   vanilla.json  a JSON array of the update's partition proofs, each the
 *                 padded base64 of one bincode PartitionProof, partition 0
 *                 first (the vanilla.json form of post_request.h).
 *   request.json  {"proof_kind": "snap-deals",
 *                  "registered_proof": N (0-4, or the filecoin-ffi name),
 *                  "comm_r_old": "<64 hex>", "comm_d_new": "<64 hex>",
 *                  "comm_r_new": "<64 hex>",
 *                  "vanilla": "vanilla.json"}
 *                 vanilla relative to the request's directory (or absolute).
 * Hex is the bytes in order: the 32-byte little-endian Fr encodings. */
#ifndef CUZK_BENCH_SNAP_REQUEST_H
#define CUZK_BENCH_SNAP_REQUEST_H
#include <stddef.h>
#include <stdint.h>

#include "cuzk/err.h"
#include "cuzk/registry.h"
#include "post_request.h" /* cz_bench_blob, vanilla.json */

typedef struct {
  const cz_registered_snap *registered;
  uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
  cz_bench_blob *vanilla; /* heap-owned, one raw bincode PartitionProof each */
  size_t n_vanilla;
} cz_bench_snap_request;

/* Write dir/request.json and dir/vanilla.json (dir must exist). CZ_ERR_IO /
 * CZ_ERR_INVALID_ARG / CZ_ERR_NOMEM with one line in why. */
cz_err cz_bench_snap_request_write(const char *dir, const cz_bench_snap_request *r, char *why,
                                   size_t whylen);
/* Read a request.json: every field present and well formed, the proofs
 * valid base64 (not parsed). CZ_OK with *out owned by the caller
 * (cz_bench_snap_request_free), else CZ_ERR_IO / CZ_ERR_PARSE /
 * CZ_ERR_INVALID_ARG / CZ_ERR_NOMEM with one line in why naming the file
 * and field; *out is then empty. */
cz_err cz_bench_snap_request_read(const char *path, cz_bench_snap_request *out, char *why,
                                  size_t whylen);
void cz_bench_snap_request_free(cz_bench_snap_request *r); /* idempotent on a zeroed one */

/* A --registered-proof argument for updates: 0-4 or a filecoin-ffi name
 * ("StackedDrg2KiBV1"); NULL when neither. */
const cz_registered_snap *cz_bench_registered_snap_arg(const char *arg);

#endif
