/* The shapes of the C1's Merkle proofs (internal: shared by the C1 reader,
 * writer and synthetic generator). */
#ifndef CUZK_FILECOIN_POREP_C1_TREES_H
#define CUZK_FILECOIN_POREP_C1_TREES_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/merkle.h"

/* Tree D: binary SHA-256 over the sector's nodes, no sub or top tree. */
static const cz_merkle_shape CZ_POREP_TREE_D_SHAPE = {CZ_MERKLE_SHA256, 2, 0, 0};

/* What a Merkle proof of one tree must look like: its shape and the levels
 * of its base path (the sub and top trees add one level each). */
typedef struct {
  cz_merkle_shape shape;
  size_t base_levels;
} cz_porep_tree_spec;

static inline void cz_porep_tree_spec_init(cz_porep_tree_spec *t, const cz_merkle_shape *s,
                                           uint64_t nodes) {
  t->shape = *s;
  t->base_levels =
      cz_merkle_proof_levels(s, (size_t)nodes) - (s->sub_arity != 0) - (s->top_arity != 0);
}

#endif
