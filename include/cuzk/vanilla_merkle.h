/* Layer: filecoin */
/* One rust-fil-proofs MerkleProof as the bincode vanilla proofs of every
 * family carry it (storage-proofs-core merkle/proof.rs): PoSt's inclusion
 * proofs (cuzk/post.h) and SnapDeals' three proofs per challenge
 * (cuzk/snap.h). The reader and writer are internal to the filecoin layer
 * (src/filecoin/bincode/). Plain data; no functions here. */
#ifndef CUZK_VANILLA_MERKLE_H
#define CUZK_VANILLA_MERKLE_H
#include <stdint.h>

#include "cuzk/merkle.h"

/* variant is the ProofData enum index: 0 Single {root, leaf, path}, 1 Sub
 * {base_proof, sub_proof, root, leaf}, 2 Top {base_proof, sub_proof,
 * top_proof, root, leaf}. n_base, n_sub, n_top count the PathElements of
 * each InclusionPath (n_sub = 0 for Single, n_top = 0 unless Top). proof
 * holds them as one cz_merkle_proof: levels [0, n_base) the base path, then
 * the sub, then the top; per level arity = hashes + 1 and index; leaf and
 * root; challenge = the leaf index the path spells (merkle/proof.rs
 * path_index: sum of index[l] times the product of the arities below l);
 * shape = the tree's hasher (which the bytes do not say: the reader is
 * told) with the arities of each path's first level (0 when absent). */
typedef struct {
  uint32_t variant;
  uint32_t n_base, n_sub, n_top;
  cz_merkle_proof proof;
} cz_vanilla_merkle;

#endif
