/* Layer: hash */
/* Native Merkle trees and inclusion proofs, as rust-fil-proofs builds them
 * (storage-proofs-core merkle/ on the merkletree crate; src/hash/merkle.c).
 * The circuits over them (PoR, insert, pick) are in cuzk/por.h.
 *
 * Shapes: a base tree of arity base_arity over its leaves; optionally
 * sub_arity base trees whose roots are hashed by one sub_arity-ary node
 * (a "sub" tree, e.g. merkletree-poseidon_hasher-8-8-0); optionally
 * top_arity such sub trees under one top_arity-ary node (-8-8-2). Arities
 * are powers of two (sub 0 / top 0: absent; top needs sub).
 *
 * Nodes: SHA-256 trees (tree D): node = SHA-256(child_0 | ... | child_k-1)
 * over the 32-byte little-endian Fr encodings, trimmed to 254 bits
 * (filecoin-hashers Sha256Function::node / multi_node). Poseidon trees:
 * node = Poseidon_arity(children) (neptune, Merkle-tree domain tag). Leaves
 * are not hashed (merkletree's try_from_iter), they are the Fr values.
 * Everything here holds Fr in Montgomery form; SHA-256 nodes are canonical
 * below 2^254 by construction.
 *
 * Threads: a built tree is read-only, so any number of threads may prove
 * from it at once; every other function keeps no state. */
#ifndef CUZK_MERKLE_H
#define CUZK_MERKLE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/err.h"
#include "cuzk/fr.h"

typedef enum { CZ_MERKLE_SHA256 = 0, CZ_MERKLE_POSEIDON = 1 } cz_merkle_hasher;

typedef struct {
  cz_merkle_hasher hasher;
  unsigned base_arity; /* 2, 4 or 8, for either hasher */
  unsigned sub_arity;  /* 0 (none), 2, 4 or 8 */
  unsigned top_arity;  /* 0 (none), 2, 4 or 8; needs sub */
} cz_merkle_shape;

#define CZ_MERKLE_MAX_ARITY 8
/* 64 GiB tree D has 31 levels; 40 leaves room while keeping a proof ~9 KB
 * (a 32 GiB C1 holds 30k of them). */
#define CZ_MERKLE_MAX_LEVELS 40

/* One node from `arity` children (the hasher's node function). Poseidon
 * needs arity 2, 4, 8 or 11; SHA-256 any arity >= 1 (tree shapes allow only
 * 2, 4 and 8). CZ_ERR_INVALID_ARG otherwise. out may alias children. */
CZ_MUST_CHECK cz_err cz_merkle_hash_node(cz_merkle_hasher h, unsigned arity, const cz_fr *children,
                                         cz_fr *out);

/* Leaves from bytes as Filecoin stores them (fr32-padded data, labels):
 * out[i] = the little-endian Fr of data[32 i .. 32 i + 32), i < n.
 * CZ_ERR_INVALID_ARG when a chunk is not below r (fr32 data, whose top two
 * bits are clear, never is); out is then partly written. */
CZ_MUST_CHECK cz_err cz_merkle_leaves_from_bytes(cz_fr *out, const uint8_t *data, size_t n);

/* A built tree. Base tree b's levels are stored flat at
 * nodes[b * base_tree_nodes ...]: its leaves, then each level up to its
 * root. */
typedef struct {
  cz_merkle_shape shape;
  size_t n_leaves, n_base_trees, base_leaves, base_levels, base_tree_nodes;
  cz_fr *nodes;     /* n_base_trees * base_tree_nodes */
  cz_fr *sub_roots; /* with a top tree: the top_arity sub-tree roots; else NULL */
  cz_fr root;
} cz_merkle_tree;

/* True when the shape is valid for n_leaves leaves: arities as above, each
 * base tree has base_arity^k leaves (k >= 1), and the proof fits
 * CZ_MERKLE_MAX_LEVELS. False for s NULL. */
bool cz_merkle_shape_ok(const cz_merkle_shape *s, size_t n_leaves);
/* Number of proof levels: base levels, plus one for sub, plus one for top
 * (0 when the shape is invalid). */
size_t cz_merkle_proof_levels(const cz_merkle_shape *s, size_t n_leaves);

/* Build the tree over leaves[0..n_leaves) (copied: leaves may be freed
 * afterwards). t owns about n_leaves * base_arity / (base_arity - 1) * 32
 * bytes; free it with cz_merkle_tree_free. CZ_ERR_INVALID_ARG for a bad
 * shape or NULL leaves, CZ_ERR_NOMEM when allocation fails; on error t is
 * left empty (zeroed). A Poseidon level of 4096 or more nodes is hashed on
 * every online core (there is no thread budget). */
CZ_MUST_CHECK cz_err cz_merkle_tree_build(cz_merkle_tree *t, const cz_merkle_shape *s,
                                          const cz_fr *leaves, size_t n_leaves);
void cz_merkle_tree_free(cz_merkle_tree *t); /* idempotent on a zeroed tree */

/* An inclusion proof: the leaf, for each level (from the leaves up) the
 * arity, the position of the running node among its arity siblings
 * (index[l]) and the arity - 1 other nodes in order, and the root. */
typedef struct {
  cz_merkle_shape shape;
  size_t challenge, n_levels;
  cz_fr leaf, root;
  unsigned arity[CZ_MERKLE_MAX_LEVELS];
  unsigned index[CZ_MERKLE_MAX_LEVELS];
  cz_fr siblings[CZ_MERKLE_MAX_LEVELS][CZ_MERKLE_MAX_ARITY - 1];
} cz_merkle_proof;

/* Proof for leaf `challenge` (< n_leaves, else CZ_ERR_INVALID_ARG, also for
 * an empty tree; *p is then untouched). */
CZ_MUST_CHECK cz_err cz_merkle_prove(const cz_merkle_tree *t, size_t challenge, cz_merkle_proof *p);
/* Recompute the root from leaf and path; true when it equals p->root and
 * the indices agree with p->challenge. */
bool cz_merkle_verify(const cz_merkle_proof *p);

/* ---- Sparse trees (src/hash/merkle_sparse.c) ----------------------------- */

/* A tree of the same shape and root as cz_merkle_tree_build over n_leaves
 * leaves that all equal default_leaf except n_set given ones. Only the
 * given leaves' ancestors are stored (sorted per level); every other node
 * is the default node of its level (level 0: default_leaf, level l + 1:
 * the hash of arity copies of level l's), computed once. Memory and time
 * grow with n_set x levels, not with n_leaves: a 32 GiB sector's tree of
 * a few thousand touched leaves is built in milliseconds. Levels are
 * numbered as in cz_merkle_proof: the base levels, then sub, then top. */
typedef struct {
  cz_merkle_shape shape;
  size_t n_leaves, n_levels;
  unsigned arity[CZ_MERKLE_MAX_LEVELS];
  cz_fr defaults[CZ_MERKLE_MAX_LEVELS + 1];  /* [n_levels] is the all-default root */
  size_t count[CZ_MERKLE_MAX_LEVELS + 1];    /* stored nodes per level */
  uint64_t *index[CZ_MERKLE_MAX_LEVELS + 1]; /* their positions in the level, ascending */
  cz_fr *value[CZ_MERKLE_MAX_LEVELS + 1];
  cz_fr root;
} cz_merkle_sparse;

/* Build the sparse tree: leaf idx[i] is leaves[i] (i < n_set), every other
 * leaf *default_leaf. idx need not be sorted but must be distinct and
 * < n_leaves; n_set may be 0 (idx and leaves may then be NULL).
 * CZ_ERR_INVALID_ARG for a bad shape (cz_merkle_shape_ok), an index out of
 * range or repeated, or a NULL pointer that is needed; CZ_ERR_NOMEM. On
 * error t is left empty (zeroed). Free with cz_merkle_sparse_free. */
CZ_MUST_CHECK cz_err cz_merkle_sparse_build(cz_merkle_sparse *t, const cz_merkle_shape *s,
                                            size_t n_leaves, const cz_fr *default_leaf,
                                            const uint64_t *idx, const cz_fr *leaves, size_t n_set);
void cz_merkle_sparse_free(cz_merkle_sparse *t); /* idempotent on a zeroed tree */

/* Proof for any leaf `challenge` (< n_leaves, else CZ_ERR_INVALID_ARG and
 * *p untouched), the same proof cz_merkle_prove gives on the dense tree of
 * the same leaves. */
CZ_MUST_CHECK cz_err cz_merkle_sparse_prove(const cz_merkle_sparse *t, size_t challenge,
                                            cz_merkle_proof *p);

#endif
