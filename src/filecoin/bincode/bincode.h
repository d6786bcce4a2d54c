/* bincode 1 reading and writing shared by the vanilla-proof readers of the
 * proof families (post/post_vanilla.c, snap/snap_vanilla.c): the primitives
 * and rust-fil-proofs' MerkleProof.
 *
 * bincode::serialize with the default options: integers little-endian at
 * full width (fixint), Vec and usize as u64, enum variants as u32, [u8; 32]
 * as 32 raw bytes (a tuple: no length), struct fields in declaration order
 * with no names or tags. MerkleProof (storage-proofs-core merkle/proof.rs):
 *
 *   MerkleProof  { data: ProofData }
 *   ProofData    = 0 Single { root, leaf, path: InclusionPath }
 *                | 1 Sub    { base_proof, sub_proof, root, leaf }
 *                | 2 Top    { base_proof, sub_proof, top_proof, root, leaf }
 *   InclusionPath { path: Vec<PathElement> }
 *   PathElement  { hashes: Vec<[u8;32]>, index: usize }
 *
 * PathElement's _arity is #[serde(skip)].
 *
 * Distrust of lengths: every Vec length is checked against the bytes left
 * (at the smallest encoding of one element) before anything is allocated,
 * so a length of 2^63 costs nothing. Messages name the field being read
 * ("vanilla_proofs[0].challenge_proofs[2].proof_d_new.path[1].hashes:
 * unexpected end of input"). A reader is used by one thread. */
#ifndef CUZK_FILECOIN_BINCODE_H
#define CUZK_FILECOIN_BINCODE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/err.h"
#include "cuzk/fr.h"
#include "cuzk/vanilla_merkle.h"

/* The fewest bytes a MerkleProof can take: variant + empty Single path +
 * root + leaf. */
#define CZ_BC_MIN_MERKLE (4 + 8 + 32 + 32)
#define CZ_BC_HASH 32

typedef struct {
  const uint8_t *p;
  size_t left;
  char path[256]; /* the field being read */
  size_t plen;
  char *msg;
  size_t msg_len;
} cz_bc_reader;

/* A reader over in[0..len) writing messages into msg. */
void cz_bc_init(cz_bc_reader *r, const uint8_t *in, size_t len, char *msg, size_t msg_len);
/* Append a segment to the field path; returns the length to pop back to. */
size_t cz_bc_push(cz_bc_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cz_bc_pop(cz_bc_reader *r, size_t old);
/* One whole document: in[0..len) read by get(r, out) under the path
 * "vanilla_proofs[index]", and nothing may follow it (CZ_ERR_TRAILING).
 * The message is cleared first; get's errors pass through. */
cz_err cz_bc_read_all(const uint8_t *in, size_t len, size_t index,
                      cz_err (*get)(cz_bc_reader *r, void *out), void *out, char *msg,
                      size_t msg_len);
/* Write "<path>: <why>" into the message; returns e. */
cz_err cz_bc_fail(cz_bc_reader *r, cz_err e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A u64 (or usize) in field `field` (appended to the path for messages):
 * CZ_ERR_TRUNCATED at the end of input. */
cz_err cz_bc_u64(cz_bc_reader *r, const char *field, uint64_t *v);
/* A [u8; 32] field element (a Domain) in field `field`: CZ_ERR_TRUNCATED,
 * CZ_ERR_NONCANONICAL when it is not below r. "" reads at the current path. */
cz_err cz_bc_fr(cz_bc_reader *r, const char *field, cz_fr *v);
/* A Vec length at the current path, which must leave room for n elements
 * of at least min_elem (> 0) bytes each: CZ_ERR_TRUNCATED otherwise. */
cz_err cz_bc_len(cz_bc_reader *r, size_t min_elem, uint64_t *n);
/* One MerkleProof of a tree hashed with h into *out (zeroed first). Beyond
 * serde it requires what a cz_merkle_proof can hold, which every real proof
 * satisfies: each value < r; each PathElement with 1, 3 or 7 hashes (arity
 * 2, 4 or 8) and index < arity; at most CZ_MERKLE_MAX_LEVELS levels in all;
 * a path index below 2^64. Errors: CZ_ERR_TRUNCATED, CZ_ERR_PARSE (unknown
 * variant, a bad hash count or index, too many levels), CZ_ERR_NONCANONICAL. */
cz_err cz_bc_merkle(cz_bc_reader *r, cz_merkle_hasher h, cz_vanilla_merkle *out);

/* One MerkleProof of leaf `challenge` of tree t, as merkle/proof.rs builds
 * it from the tree's type: variant 0 Single (base tree alone), 1 Sub, 2
 * Top; n_base = the base tree's levels, n_sub / n_top = 1 with a sub / top
 * tree; proof as cz_merkle_prove writes it. Either hasher. Errors:
 * CZ_ERR_INVALID_ARG (NULL, an empty tree, an arity other than 2, 4 or 8,
 * challenge >= t->n_leaves); *out is then zeroed. t is only read. */
cz_err cz_bc_merkle_prove(const cz_merkle_tree *t, uint64_t challenge, cz_vanilla_merkle *out);

/* "Single", "Sub", "Top" for ProofData variants 0, 1, 2; else "unknown". */
const char *cz_bc_variant_name(uint32_t variant);

/* ---- Writing ------------------------------------------------------------- */

/* True when m is something cz_bc_merkle could have produced (variant
 * consistent with n_base / n_sub / n_top, n_levels their sum, each arity
 * 2, 4 or 8, each index below it). */
bool cz_bc_merkle_ok(const cz_vanilla_merkle *m);
/* The bincode size of m (which must satisfy cz_bc_merkle_ok). */
size_t cz_bc_merkle_bytes(const cz_vanilla_merkle *m);
/* Each writes at o and returns the byte after what it wrote. */
uint8_t *cz_bc_put_u64(uint8_t *o, uint64_t v);
uint8_t *cz_bc_put_fr(uint8_t *o, const cz_fr *v);
uint8_t *cz_bc_put_merkle(uint8_t *o, const cz_vanilla_merkle *m);

#endif
