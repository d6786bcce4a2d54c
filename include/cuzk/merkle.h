/* Merkle trees, inclusion proofs and the proof-of-retrievability (PoR)
 * circuit, as rust-fil-proofs builds them (storage-proofs-core merkle/ on
 * the merkletree crate; gadgets/por.rs, gadgets/insertion.rs).
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
 * below 2^254 by construction. */
#ifndef CUZK_MERKLE_H
#define CUZK_MERKLE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "cuzk/fr.h"
#include "cuzk/gadgets.h"

typedef enum { CZ_MERKLE_SHA256 = 0, CZ_MERKLE_POSEIDON = 1 } cz_merkle_hasher;

typedef struct {
  cz_merkle_hasher hasher;
  unsigned base_arity; /* 2, 4 or 8 (any power of two >= 2 for SHA-256) */
  unsigned sub_arity;  /* 0 (none) or a power of two >= 2 */
  unsigned top_arity;  /* 0 (none) or a power of two >= 2; needs sub */
} cz_merkle_shape;

#define CZ_MERKLE_MAX_ARITY 8
/* 64 GiB tree D has 31 levels; 40 leaves room while keeping a proof ~9 KB
 * (a 32 GiB C1 holds 30k of them). */
#define CZ_MERKLE_MAX_LEVELS 40

/* One node from `arity` children (the hasher's node function). Poseidon
 * needs arity 2, 4, 8 or 11; SHA-256 any arity >= 1. CZ_ERR_INVALID_ARG
 * otherwise. */
cz_err cz_merkle_hash_node(cz_merkle_hasher h, unsigned arity, const cz_fr *children, cz_fr *out);

/* Leaves from bytes as Filecoin stores them (fr32-padded data, labels):
 * out[i] = the little-endian Fr of data[32 i .. 32 i + 32), i < n.
 * CZ_ERR_INVALID_ARG when a chunk is not below r (fr32 data, whose top two
 * bits are clear, never is); out is then partly written. */
cz_err cz_merkle_leaves_from_bytes(cz_fr *out, const uint8_t *data, size_t n);

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
 * base tree has base_arity^k leaves (k >= 1). */
bool cz_merkle_shape_ok(const cz_merkle_shape *s, size_t n_leaves);
/* Number of proof levels: base levels, plus one for sub, plus one for top
 * (0 when the shape is invalid). */
size_t cz_merkle_proof_levels(const cz_merkle_shape *s, size_t n_leaves);

/* Build the tree over leaves[0..n_leaves). CZ_ERR_INVALID_ARG for a bad
 * shape, CZ_ERR_NOMEM when allocation fails (t is then left empty). */
cz_err cz_merkle_tree_build(cz_merkle_tree *t, const cz_merkle_shape *s, const cz_fr *leaves,
                            size_t n_leaves);
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

/* Proof for leaf `challenge` (< n_leaves, else CZ_ERR_INVALID_ARG). */
cz_err cz_merkle_prove(const cz_merkle_tree *t, size_t challenge, cz_merkle_proof *p);
/* Recompute the root from leaf and path; true when it equals p->root and
 * the indices agree with p->challenge. */
bool cz_merkle_verify(const cz_merkle_proof *p);

/* ---- Circuits ----------------------------------------------------------- */

/* insertion.rs pick: c = cond ? a : b, namespace "pick result" for c and
 * one constraint "pick": (b - a) * cond = (b - c). */
cz_err cz_pick(cz_cs *cs, cz_anum *out, const cz_bool *cond, const cz_anum *a, const cz_anum *b);
/* insertion.rs insert: element inserted among elements[0..n) at the
 * position given by bits (LSB first; n + 1 == 1 << nbits), out has n + 1
 * entries. Sizes 2, 4, 8 use the hand-optimised insert_2/4/8 (2, 8 and 22
 * constraints; insert_8 needs allocated, unnegated bits b0, b1, else
 * CZ_ERR_INVALID_ARG); other sizes the generic select per position. */
cz_err cz_insert(cz_cs *cs, cz_anum *out, const cz_anum *element, const cz_bool *bits, size_t nbits,
                 const cz_anum *elements, size_t n);
/* HashFunction::hash_multi_leaf_circuit of the hasher: Poseidon: neptune's
 * poseidon_hash; SHA-256: per leaf to_bits_le in "<i>_num_into_bits", the
 * bytes (LE) hashed in "hash", the first 254 LE bits packed in "pack_le". */
cz_err cz_merkle_hash_circuit(cz_cs *cs, cz_merkle_hasher h, unsigned arity,
                              const cz_anum *children, cz_anum *out);

/* HashFunction::hash2_circuit: Poseidon: neptune's poseidon_hash of arity
 * 2; SHA-256: as hash_multi_leaf_circuit of arity 2 but with the bit
 * decompositions in "a_bits" and "b_bits" (same constraints otherwise). */
cz_err cz_merkle_hash2_circuit(cz_cs *cs, cz_merkle_hasher h, const cz_anum *a, const cz_anum *b,
                               cz_anum *out);

/* PoRCircuit::synthesize for a tree of the shape with n_leaves leaves:
 * value in "value", base / sub / top paths in "base", "sub", "top" (per
 * level "merkle tree hash <i>": index bits, "path element <j>", insert,
 * hash in "computation of commitment hash"), the packed index bits as
 * inputs in "path", the root in "root_value", "enforce root is correct",
 * and unless private_root the root inputized in "root". p supplies the
 * witness; it may be NULL when !cz_cs_needs_values(cs). */
cz_err cz_por_circuit(cz_cs *cs, const cz_merkle_shape *s, size_t n_leaves,
                      const cz_merkle_proof *p, bool private_root);

/* PoRCircuit::synthesize with Root::Var leaf and root, as
 * storage-proofs-porep's enforce_inclusion (stacked/circuit/params.rs)
 * calls it: the same circuit as cz_por_circuit except that the leaf and
 * the root are the caller's variables, so "value" and "root_value"
 * allocate nothing and "enforce root is correct" binds the computed root
 * to *root. p supplies only the path (index bits, siblings; its leaf and
 * root are not used) and may be NULL when !cz_cs_needs_values(cs).
 * leaf or root NULL: CZ_ERR_INVALID_ARG. */
cz_err cz_por_circuit_allocated(cz_cs *cs, const cz_merkle_shape *s, size_t n_leaves,
                                const cz_merkle_proof *p, const cz_anum *leaf,
                                const cz_anum *root, bool private_root);

/* PoRCircuit::synthesize with a Root::Val leaf and a Root::Var root, as
 * storage-proofs-post's fallback circuit (fallback/circuit.rs,
 * Sector::synthesize) calls it: the leaf is allocated from p->leaf in
 * "value" as in cz_por_circuit, the root is the caller's variable, so
 * "root_value" allocates nothing and "enforce root is correct" binds the
 * computed root to *root. p supplies the leaf and the path (its root is not
 * used) and may be NULL when !cz_cs_needs_values(cs). Returns the sticky
 * error; CZ_ERR_INVALID_ARG for root NULL, a bad shape, or a proof whose
 * levels, arities or hasher do not match the shape. */
cz_err cz_por_circuit_var_root(cz_cs *cs, const cz_merkle_shape *s, size_t n_leaves,
                               const cz_merkle_proof *p, const cz_anum *root, bool private_root);

/* por_no_challenge_input: challenge_bits (LSB first, log2(n_leaves) of
 * them), leaf, path (per level arity - 1 nums, concatenated, levels as
 * cz_merkle_proof_levels) and root already allocated by the caller; per
 * level "merkle proof insert (height=h)" and "merkle proof hash
 * (height=h)", then "calculated root == provided root". */
cz_err cz_por_no_challenge_input(cz_cs *cs, const cz_merkle_shape *s, size_t n_leaves,
                                 const cz_abit *challenge_bits, const cz_anum *leaf,
                                 const cz_anum *path, const cz_anum *root);

#endif
