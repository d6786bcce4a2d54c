/* Sparse Merkle trees (see cuzk/merkle.h): only the given leaves and their
 * ancestors are stored, per level as ascending (position, value) arrays;
 * every other node is its level's default node. */
#include "cuzk/merkle.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  uint64_t index;
  cz_fr value;
} sparse_entry;

static int entry_cmp(const void *a, const void *b) {
  uint64_t x = ((const sparse_entry *)a)->index, y = ((const sparse_entry *)b)->index;
  return (x > y) - (x < y);
}

/* Node i of level l: the stored one, or the level's default. */
static const cz_fr *node_at(const cz_merkle_sparse *t, size_t l, uint64_t i) {
  size_t lo = 0, hi = t->count[l];
  while (lo < hi) {
    size_t m = lo + (hi - lo) / 2;
    if (t->index[l][m] < i) lo = m + 1;
    else hi = m;
  }
  return lo < t->count[l] && t->index[l][lo] == i ? &t->value[l][lo] : &t->defaults[l];
}

void cz_merkle_sparse_free(cz_merkle_sparse *t) {
  if (!t) return;
  for (size_t l = 0; l <= CZ_MERKLE_MAX_LEVELS; l++) {
    free(t->index[l]);
    free(t->value[l]);
  }
  memset(t, 0, sizeof *t);
}

/* Arities from the leaves up and the default node of every level. */
static cz_err shape_levels(cz_merkle_sparse *t, const cz_fr *default_leaf) {
  const cz_merkle_shape *s = &t->shape;
  size_t levels = cz_merkle_proof_levels(s, t->n_leaves);
  if (levels == 0) return CZ_ERR_INVALID_ARG;
  size_t base = levels - (s->sub_arity != 0) - (s->top_arity != 0);
  t->n_levels = levels;
  t->defaults[0] = *default_leaf;
  for (size_t l = 0; l < levels; l++) {
    t->arity[l] = l < base                    ? s->base_arity
                  : l == base && s->sub_arity ? s->sub_arity
                                              : s->top_arity;
    cz_fr kids[CZ_MERKLE_MAX_ARITY];
    for (unsigned c = 0; c < t->arity[l]; c++) kids[c] = t->defaults[l];
    cz_err e = cz_merkle_hash_node(s->hasher, t->arity[l], kids, &t->defaults[l + 1]);
    if (e != CZ_OK) return e;
  }
  return CZ_OK;
}

/* Level 0 from the given leaves, sorted; repeated indices are refused. */
static cz_err leaf_level(cz_merkle_sparse *t, const uint64_t *idx, const cz_fr *leaves, size_t n) {
  sparse_entry *e = malloc((n ? n : 1) * sizeof *e);
  t->index[0] = malloc((n ? n : 1) * sizeof *t->index[0]);
  t->value[0] = malloc((n ? n : 1) * sizeof *t->value[0]);
  if (!e || !t->index[0] || !t->value[0]) {
    free(e);
    return CZ_ERR_NOMEM;
  }
  for (size_t i = 0; i < n; i++) e[i] = (sparse_entry){idx[i], leaves[i]};
  qsort(e, n, sizeof *e, entry_cmp);
  cz_err err = CZ_OK;
  for (size_t i = 0; i < n; i++) {
    if (e[i].index >= t->n_leaves || (i > 0 && e[i].index == e[i - 1].index))
      err = CZ_ERR_INVALID_ARG;
    t->index[0][i] = e[i].index;
    t->value[0][i] = e[i].value;
  }
  t->count[0] = n;
  free(e);
  return err;
}

/* Level l + 1 from level l: the parent of every stored node is stored. */
static cz_err parent_level(cz_merkle_sparse *t, size_t l) {
  unsigned a = t->arity[l];
  const uint64_t *in = t->index[l];
  size_t n = t->count[l], m = 0;
  for (size_t k = 0; k < n; k++) m += k == 0 || in[k] / a != in[k - 1] / a;
  t->index[l + 1] = malloc((m ? m : 1) * sizeof *t->index[l + 1]);
  t->value[l + 1] = malloc((m ? m : 1) * sizeof *t->value[l + 1]);
  if (!t->index[l + 1] || !t->value[l + 1]) return CZ_ERR_NOMEM;
  size_t j = 0;
  for (size_t k = 0; k < n; j++) {
    uint64_t g = in[k] / a;
    cz_fr kids[CZ_MERKLE_MAX_ARITY];
    for (unsigned c = 0; c < a; c++) kids[c] = t->defaults[l];
    for (; k < n && in[k] / a == g; k++) kids[in[k] % a] = t->value[l][k];
    t->index[l + 1][j] = g;
    cz_err e = cz_merkle_hash_node(t->shape.hasher, a, kids, &t->value[l + 1][j]);
    if (e != CZ_OK) return e;
  }
  t->count[l + 1] = m;
  return CZ_OK;
}

cz_err cz_merkle_sparse_build(cz_merkle_sparse *t, const cz_merkle_shape *s, size_t n_leaves,
                              const cz_fr *default_leaf, const uint64_t *idx, const cz_fr *leaves,
                              size_t n_set) {
  if (!t) return CZ_ERR_INVALID_ARG;
  memset(t, 0, sizeof *t);
  if (!s || !default_leaf || (n_set && (!idx || !leaves))) return CZ_ERR_INVALID_ARG;
  t->shape = *s;
  t->n_leaves = n_leaves;
  cz_err e = shape_levels(t, default_leaf);
  if (e == CZ_OK) e = leaf_level(t, idx, leaves, n_set);
  for (size_t l = 0; e == CZ_OK && l < t->n_levels; l++) e = parent_level(t, l);
  if (e != CZ_OK) {
    cz_merkle_sparse_free(t);
    return e;
  }
  t->root = *node_at(t, t->n_levels, 0);
  return CZ_OK;
}

cz_err cz_merkle_sparse_prove(const cz_merkle_sparse *t, size_t challenge, cz_merkle_proof *p) {
  if (!t || !p || t->n_levels == 0 || challenge >= t->n_leaves) return CZ_ERR_INVALID_ARG;
  memset(p, 0, sizeof *p);
  p->shape = t->shape;
  p->challenge = challenge;
  p->root = t->root;
  p->leaf = *node_at(t, 0, challenge);
  p->n_levels = t->n_levels;
  uint64_t i = challenge;
  for (size_t l = 0; l < t->n_levels; l++) {
    unsigned a = t->arity[l], pos = (unsigned)(i % a), k = 0;
    uint64_t g = i / a;
    p->arity[l] = a;
    p->index[l] = pos;
    for (unsigned c = 0; c < a; c++)
      if (c != pos) p->siblings[l][k++] = *node_at(t, l, g * a + c);
    i = g;
  }
  return CZ_OK;
}
