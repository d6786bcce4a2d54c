/* Layer: gadgets */
/* The proof-of-retrievability (PoR) circuit and its parts, as
 * rust-fil-proofs builds them (storage-proofs-core gadgets/por.rs,
 * gadgets/insertion.rs), over the shapes and proofs of cuzk/merkle.h
 * (src/gadgets/por.c).
 *
 * Every function returns the sticky error of cs, except that the argument
 * checks named below return CZ_ERR_INVALID_ARG without touching cs (not
 * sticky: check the return, not only cz_cs_error). */
#ifndef CUZK_POR_H
#define CUZK_POR_H
#include <stdbool.h>
#include <stddef.h>

#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "cuzk/gadgets.h"
#include "cuzk/merkle.h"

/* insertion.rs pick: c = cond ? a : b, namespace "pick result" for c and
 * one constraint "pick": (b - a) * cond = (b - c). out may alias a or b. */
CZ_MUST_CHECK cz_err cz_pick(cz_cs *cs, cz_anum *out, const cz_bool *cond, const cz_anum *a,
                             const cz_anum *b);
/* insertion.rs insert: element inserted among elements[0..n) at the
 * position given by bits (LSB first; n + 1 == 1 << nbits), out has n + 1
 * entries, n + 1 <= 64 (else CZ_ERR_INVALID_ARG); out must not overlap
 * elements. Sizes 2, 4, 8 use the hand-optimised insert_2/4/8 (2, 8 and 22
 * constraints; insert_8 needs allocated, unnegated bits b0, b1, else
 * CZ_ERR_INVALID_ARG); other sizes the generic select per position. */
CZ_MUST_CHECK cz_err cz_insert(cz_cs *cs, cz_anum *out, const cz_anum *element, const cz_bool *bits,
                               size_t nbits, const cz_anum *elements, size_t n);
/* insertion.rs select: from[bits] (bits LSB first, n == 1 << nbits, n <=
 * 128, else CZ_ERR_INVALID_ARG), by n - 1 picks "pick <i>, <j>", the most
 * significant bit first. */
#define CZ_SELECT_MAX 128
CZ_MUST_CHECK cz_err cz_select(cz_cs *cs, cz_anum *out, const cz_anum *from, size_t n,
                               const cz_bool *bits, size_t nbits);

/* HashFunction::hash_multi_leaf_circuit of the hasher: Poseidon: neptune's
 * poseidon_hash; SHA-256: per leaf to_bits_le in "<i>_num_into_bits", the
 * bytes (LE) hashed in "hash", the first 254 LE bits packed in "pack_le".
 * arity: Poseidon 2, 4, 8 or 11, SHA-256 1..8; else CZ_ERR_INVALID_ARG. */
CZ_MUST_CHECK cz_err cz_merkle_hash_circuit(cz_cs *cs, cz_merkle_hasher h, unsigned arity,
                                            const cz_anum *children, cz_anum *out);

/* HashFunction::hash2_circuit: Poseidon: neptune's poseidon_hash of arity
 * 2; SHA-256: as hash_multi_leaf_circuit of arity 2 but with the bit
 * decompositions in "a_bits" and "b_bits" (same constraints otherwise). */
CZ_MUST_CHECK cz_err cz_merkle_hash2_circuit(cz_cs *cs, cz_merkle_hasher h, const cz_anum *a,
                                             const cz_anum *b, cz_anum *out);

/* PoRCircuit::synthesize for a tree of the shape with n_leaves leaves:
 * value in "value", base / sub / top paths in "base", "sub", "top" (per
 * level "merkle tree hash <i>": index bits, "path element <j>", insert,
 * hash in "computation of commitment hash"), the packed index bits as
 * inputs in "path", the root in "root_value", "enforce root is correct",
 * and unless private_root the root inputized in "root". p supplies the
 * witness; it may be NULL when !cz_cs_needs_values(cs). CZ_ERR_INVALID_ARG
 * for a shape not valid for n_leaves, or (with values) a missing p or one
 * whose hasher, level count or arities differ from the shape's. */
CZ_MUST_CHECK cz_err cz_por_circuit(cz_cs *cs, const cz_merkle_shape *s, size_t n_leaves,
                                    const cz_merkle_proof *p, bool private_root);

/* PoRCircuit::synthesize with Root::Var leaf and root, as
 * storage-proofs-porep's enforce_inclusion (stacked/circuit/params.rs)
 * calls it: the same circuit as cz_por_circuit except that the leaf and
 * the root are the caller's variables, so "value" and "root_value"
 * allocate nothing and "enforce root is correct" binds the computed root
 * to *root. p supplies only the path (index bits, siblings; its leaf and
 * root are not used) and may be NULL when !cz_cs_needs_values(cs).
 * Errors as cz_por_circuit's, and CZ_ERR_INVALID_ARG for a NULL leaf or
 * root. */
CZ_MUST_CHECK cz_err cz_por_circuit_allocated(cz_cs *cs, const cz_merkle_shape *s, size_t n_leaves,
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
CZ_MUST_CHECK cz_err cz_por_circuit_var_root(cz_cs *cs, const cz_merkle_shape *s, size_t n_leaves,
                                             const cz_merkle_proof *p, const cz_anum *root,
                                             bool private_root);

/* por_no_challenge_input: challenge_bits (LSB first, log2(n_leaves) of
 * them), leaf, path (per level arity - 1 nums, concatenated, levels as
 * cz_merkle_proof_levels) and root already allocated by the caller; per
 * level "merkle proof insert (height=h)" and "merkle proof hash
 * (height=h)", then "calculated root == provided root". CZ_ERR_INVALID_ARG
 * for a shape not valid for n_leaves. */
CZ_MUST_CHECK cz_err cz_por_no_challenge_input(cz_cs *cs, const cz_merkle_shape *s, size_t n_leaves,
                                               const cz_abit *challenge_bits, const cz_anum *leaf,
                                               const cz_anum *path, const cz_anum *root);

#endif
