/* Error paths for readers of nested input (internal).
 *
 * A reader keeps a stack of where it is, field names and array indices,
 * and on its first error writes one line that names the place:
 *   vanilla_proofs[0][1].comm_d_proofs.leaf: unexpected end of input
 * The C1 JSON reader uses it through cz_json (util/json_scan.h); binary
 * readers (bincode) can use it directly.
 *
 * Contract:
 * - The first error sticks: cz_errpath_fail records it and later calls
 *   change nothing, so a reader may keep going after an error and test
 *   ep->err where convenient.
 * - The message is "<prefix><path>: <what>", or "<prefix><what>" at depth
 *   0. The path joins the frames: a key as "name" (".name" after another
 *   frame), an index as "[i]". Bytes below 0x20 become '?', so it stays one
 *   line whatever the input held; it is cut to msg_len - 1 bytes.
 * - Frames beyond CZ_ERRPATH_MAX_DEPTH are counted (push and pop stay
 *   paired) but not printed.
 * - Keys are not copied: each must outlive its frame (string literals).
 * - No global state: one cz_errpath per thread at a time. */
#ifndef CUZK_UTIL_ERRPATH_H
#define CUZK_UTIL_ERRPATH_H
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/err.h"

/* The C1's deepest path (a byte of a tree-C sibling hash, vanilla_proofs[p][c]
 * .replica_column_proofs.drg_parents[i].inclusion_proof.data.Sub.base_proof
 * .path[l].hashes[h][k]) is 15 frames. */
#define CZ_ERRPATH_MAX_DEPTH 24

/* One step of the path: a key, or (key NULL) an index. */
typedef struct {
  const char *key;
  uint64_t idx;
} cz_errpath_frame;

typedef struct {
  cz_err err; /* the first error, CZ_OK until one is recorded */
  char *msg;  /* where the message goes; NULL: none is written */
  size_t msg_len;
  const char *prefix; /* put before the path (e.g. "Phase1Out: "); may be NULL */
  cz_errpath_frame stack[CZ_ERRPATH_MAX_DEPTH];
  int depth;
} cz_errpath;

/* An empty path with no error. msg (may be NULL) is not touched until an
 * error is recorded. */
static inline void cz_errpath_init(cz_errpath *ep, char *msg, size_t msg_len, const char *prefix) {
  ep->err = CZ_OK;
  ep->msg = msg;
  ep->msg_len = msg_len;
  ep->prefix = prefix;
  ep->depth = 0;
}

/* Push and pop are inline: the C1 reader pushes a frame per array element
 * of a 32 GiB C1 (~10^6 of them). */
static inline void cz_errpath_push_key(cz_errpath *ep, const char *key) {
  if (ep->depth < CZ_ERRPATH_MAX_DEPTH) ep->stack[ep->depth] = (cz_errpath_frame){key, 0};
  ep->depth++;
}

static inline void cz_errpath_push_idx(cz_errpath *ep, uint64_t idx) {
  if (ep->depth < CZ_ERRPATH_MAX_DEPTH) ep->stack[ep->depth] = (cz_errpath_frame){NULL, idx};
  ep->depth++;
}

/* Replace the index of the innermost frame (an index frame: the next
 * element of the same array). Needs depth >= 1. */
static inline void cz_errpath_set_idx(cz_errpath *ep, uint64_t idx) {
  if (ep->depth - 1 < CZ_ERRPATH_MAX_DEPTH) ep->stack[ep->depth - 1].idx = idx;
}

/* Needs depth >= 1. */
static inline void cz_errpath_pop(cz_errpath *ep) { ep->depth--; }

/* Record e with the message above, unless an error is already recorded.
 * Returns false always, so that `return cz_errpath_fail(...)` fails. */
bool cz_errpath_fail(cz_errpath *ep, cz_err e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
bool cz_errpath_failv(cz_errpath *ep, cz_err e, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

#endif
