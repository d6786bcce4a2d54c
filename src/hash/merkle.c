/* Native Merkle trees and inclusion proofs (see cuzk/merkle.h). */
#include "cuzk/merkle.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/poseidon.h"
#include "cuzk/sha256.h"

static bool pow2_ge2(unsigned a) { return a >= 2 && (a & (a - 1)) == 0; }

static bool arity_ok(cz_merkle_hasher h, unsigned a) {
  if (!pow2_ge2(a) || a > CZ_MERKLE_MAX_ARITY) return false;
  return h == CZ_MERKLE_SHA256 || cz_poseidon_arity_supported(a);
}

cz_err cz_merkle_hash_node(cz_merkle_hasher h, unsigned arity, const cz_fr *children, cz_fr *out) {
  if (h == CZ_MERKLE_POSEIDON) return cz_poseidon_hash(arity, children, out);
  if (h != CZ_MERKLE_SHA256 || arity == 0) return CZ_ERR_INVALID_ARG;
  uint8_t d[CZ_SHA256_BYTES];
  if (arity <= 16) { /* every Filecoin tree: one OpenSSL call */
    uint8_t b[16 * CZ_FR_BYTES];
    for (unsigned i = 0; i < arity; i++) cz_fr_to_bytes_le(b + CZ_FR_BYTES * i, &children[i]);
    cz_sha256_digest(d, b, (size_t)arity * CZ_FR_BYTES);
  } else {
    cz_sha256_ctx ctx;
    cz_err e = cz_sha256_init(&ctx);
    if (e != CZ_OK) return e;
    for (unsigned i = 0; i < arity; i++) {
      uint8_t b[CZ_FR_BYTES];
      cz_fr_to_bytes_le(b, &children[i]);
      cz_sha256_update(&ctx, b, sizeof b);
    }
    cz_sha256_final(&ctx, d);
  }
  cz_sha256_trim254(d);
  return cz_fr_from_bytes_le(out, d); /* < 2^254 < r: never rejected */
}

cz_err cz_merkle_leaves_from_bytes(cz_fr *out, const uint8_t *data, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (cz_fr_from_bytes_le(&out[i], data + 32 * i) != CZ_OK) return CZ_ERR_INVALID_ARG;
  return CZ_OK;
}

/* Levels of a base tree with `leaves` leaves, or -1 when not a power of
 * the arity (at least one level). */
static int base_levels(unsigned arity, size_t leaves) {
  int k = 0;
  while (leaves > 1) {
    if (leaves % arity) return -1;
    leaves /= arity;
    k++;
  }
  return k >= 1 ? k : -1;
}

static size_t base_tree_count(const cz_merkle_shape *s) {
  size_t n = 1;
  if (s->sub_arity) n *= s->sub_arity;
  if (s->top_arity) n *= s->top_arity;
  return n;
}

bool cz_merkle_shape_ok(const cz_merkle_shape *s, size_t n_leaves) {
  if (!s || (s->hasher != CZ_MERKLE_SHA256 && s->hasher != CZ_MERKLE_POSEIDON)) return false;
  if (!arity_ok(s->hasher, s->base_arity)) return false;
  if (s->sub_arity && !arity_ok(s->hasher, s->sub_arity)) return false;
  if (s->top_arity && (!s->sub_arity || !arity_ok(s->hasher, s->top_arity))) return false;
  size_t nb = base_tree_count(s);
  if (n_leaves == 0 || n_leaves % nb) return false;
  int k = base_levels(s->base_arity, n_leaves / nb);
  return k > 0 && (size_t)k + 2 <= CZ_MERKLE_MAX_LEVELS;
}

size_t cz_merkle_proof_levels(const cz_merkle_shape *s, size_t n_leaves) {
  if (!cz_merkle_shape_ok(s, n_leaves)) return 0;
  return (size_t)base_levels(s->base_arity, n_leaves / base_tree_count(s)) + (s->sub_arity != 0) +
         (s->top_arity != 0);
}

void cz_merkle_tree_free(cz_merkle_tree *t) {
  free(t->nodes);
  free(t->sub_roots);
  memset(t, 0, sizeof *t);
}

cz_err cz_merkle_tree_build(cz_merkle_tree *t, const cz_merkle_shape *s, const cz_fr *leaves,
                            size_t n_leaves) {
  memset(t, 0, sizeof *t);
  if (!leaves || !cz_merkle_shape_ok(s, n_leaves)) return CZ_ERR_INVALID_ARG;
  t->shape = *s;
  t->n_leaves = n_leaves;
  t->n_base_trees = base_tree_count(s);
  t->base_leaves = n_leaves / t->n_base_trees;
  t->base_levels = (size_t)base_levels(s->base_arity, t->base_leaves);
  /* leaves * (1 + 1/a + 1/a^2 + ...) down to the root. */
  size_t nodes = 0;
  for (size_t w = t->base_leaves;; w /= s->base_arity) {
    nodes += w;
    if (w == 1) break;
  }
  t->base_tree_nodes = nodes;
  if (t->n_base_trees > SIZE_MAX / sizeof(cz_fr) / nodes) return CZ_ERR_NOMEM;
  t->nodes = malloc(t->n_base_trees * nodes * sizeof(cz_fr));
  if (s->top_arity) t->sub_roots = malloc(s->top_arity * sizeof(cz_fr));
  if (!t->nodes || (s->top_arity && !t->sub_roots)) {
    cz_merkle_tree_free(t);
    return CZ_ERR_NOMEM;
  }
  cz_fr roots[CZ_MERKLE_MAX_ARITY * CZ_MERKLE_MAX_ARITY];
  const cz_poseidon_params *pp =
      s->hasher == CZ_MERKLE_POSEIDON ? cz_poseidon_params_get(s->base_arity) : NULL;
  for (size_t b = 0; b < t->n_base_trees; b++) {
    cz_fr *level = t->nodes + b * nodes;
    memcpy(level, leaves + b * t->base_leaves, t->base_leaves * sizeof(cz_fr));
    for (size_t w = t->base_leaves; w > 1; w /= s->base_arity) {
      cz_fr *up = level + w;
      if (pp) {
        /* A level's groups are contiguous: one batched call, split over
         * the cores when the level is large enough to pay for threads. */
        size_t groups = w / s->base_arity;
        if (groups >= 4096) cz_poseidon_hash_many_par(pp, level, up, groups, 0);
        else cz_poseidon_hash_many(pp, level, up, groups);
        level = up;
        continue;
      }
      for (size_t i = 0; i < w / s->base_arity; i++) {
        cz_err e = cz_merkle_hash_node(s->hasher, s->base_arity, level + i * s->base_arity, &up[i]);
        if (e != CZ_OK) {
          cz_merkle_tree_free(t);
          return e;
        }
      }
      level = up;
    }
    roots[b] = level[0];
  }
  cz_err e = CZ_OK;
  if (!s->sub_arity) {
    t->root = roots[0];
  } else if (!s->top_arity) {
    e = cz_merkle_hash_node(s->hasher, s->sub_arity, roots, &t->root);
  } else {
    for (unsigned j = 0; j < s->top_arity && e == CZ_OK; j++)
      e = cz_merkle_hash_node(s->hasher, s->sub_arity, roots + j * s->sub_arity, &t->sub_roots[j]);
    if (e == CZ_OK) e = cz_merkle_hash_node(s->hasher, s->top_arity, t->sub_roots, &t->root);
  }
  if (e != CZ_OK) cz_merkle_tree_free(t);
  return e;
}

/* Fill proof level l from the arity-wide group around position pos. */
static void put_level(cz_merkle_proof *p, size_t l, unsigned arity, const cz_fr *group,
                      unsigned pos) {
  p->arity[l] = arity;
  p->index[l] = pos;
  unsigned k = 0;
  for (unsigned i = 0; i < arity; i++)
    if (i != pos) p->siblings[l][k++] = group[i];
}

static const cz_fr *base_root(const cz_merkle_tree *t, size_t b) {
  return t->nodes + (b + 1) * t->base_tree_nodes - 1;
}

cz_err cz_merkle_prove(const cz_merkle_tree *t, size_t challenge, cz_merkle_proof *p) {
  if (!t->nodes || challenge >= t->n_leaves) return CZ_ERR_INVALID_ARG;
  memset(p, 0, sizeof *p);
  const cz_merkle_shape *s = &t->shape;
  p->shape = *s;
  p->challenge = challenge;
  p->root = t->root;
  size_t b = challenge / t->base_leaves, i = challenge % t->base_leaves, l = 0;
  const cz_fr *level = t->nodes + b * t->base_tree_nodes;
  p->leaf = level[i];
  for (size_t w = t->base_leaves; w > 1; w /= s->base_arity, l++) {
    size_t g = i / s->base_arity;
    put_level(p, l, s->base_arity, level + g * s->base_arity, (unsigned)(i % s->base_arity));
    level += w;
    i = g;
  }
  cz_fr group[CZ_MERKLE_MAX_ARITY];
  if (s->sub_arity) {
    size_t first = s->top_arity ? b / s->sub_arity * s->sub_arity : 0;
    for (unsigned j = 0; j < s->sub_arity; j++) group[j] = *base_root(t, first + j);
    put_level(p, l++, s->sub_arity, group, (unsigned)(b % s->sub_arity));
  }
  if (s->top_arity) put_level(p, l++, s->top_arity, t->sub_roots, (unsigned)(b / s->sub_arity));
  p->n_levels = l;
  return CZ_OK;
}

bool cz_merkle_verify(const cz_merkle_proof *p) {
  if (p->n_levels == 0 || p->n_levels > CZ_MERKLE_MAX_LEVELS) return false;
  cz_fr cur = p->leaf;
  size_t c = p->challenge;
  for (size_t l = 0; l < p->n_levels; l++) {
    unsigned a = p->arity[l], pos = p->index[l];
    if (!pow2_ge2(a) || a > CZ_MERKLE_MAX_ARITY || pos >= a || c % a != pos) return false;
    c /= a;
    cz_fr group[CZ_MERKLE_MAX_ARITY];
    unsigned k = 0;
    for (unsigned i = 0; i < a; i++) group[i] = i == pos ? cur : p->siblings[l][k++];
    if (cz_merkle_hash_node(p->shape.hasher, a, group, &cur) != CZ_OK) return false;
  }
  return c == 0 && cz_fr_eq(&cur, &p->root);
}
