/* cz_porep_c1_synthetic: a C1 of the right shape filled from splitmix64, for
 * the JSON tests, the fuzzer's seed and the production-size benchmarks
 * (cuzk-bench c1-parse, synth-only --sector-size). Not a proof, but
 * consistent where synthesis checks: the challenges and parents are the
 * ones the public inputs derive, and a partition's challenges share their
 * tree-R and tree-C roots. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/porep.h"
#include "cuzk/registry.h"
#include "cuzk/sdr.h"
#include "filecoin/porep/porep_c1_trees.h"

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static void rand_fr(uint64_t *s, cz_fr *x) {
  uint8_t w[64];
  for (int i = 0; i < 64; i += 8) {
    uint64_t v = splitmix(s);
    memcpy(w + i, &v, 8);
  }
  cz_fr_from_wide_le(x, w);
}

/* A canonical non-zero Fr's bytes. */
static void rand_fr_bytes(uint64_t *s, uint8_t out[32]) {
  cz_fr x;
  do rand_fr(s, &x);
  while (cz_fr_is_zero(&x));
  cz_fr_to_bytes_le(out, &x);
}

/* A Merkle proof of the shape for leaf `leaf` of a tree of `nodes` leaves. */
static void rand_merkle(uint64_t *s, const cz_merkle_shape *shape, uint64_t nodes, uint64_t leaf,
                        cz_merkle_proof *p) {
  cz_porep_tree_spec t;
  cz_porep_tree_spec_init(&t, shape, nodes);
  memset(p, 0, sizeof *p);
  p->shape = *shape;
  p->challenge = (size_t)leaf;
  p->n_levels = t.base_levels + (shape->sub_arity != 0) + (shape->top_arity != 0);
  rand_fr(s, &p->leaf);
  rand_fr(s, &p->root);
  uint64_t c = leaf;
  for (size_t l = 0; l < p->n_levels; l++) {
    unsigned a = l < t.base_levels    ? shape->base_arity
                 : l == t.base_levels ? shape->sub_arity
                                      : shape->top_arity;
    p->arity[l] = a;
    p->index[l] = (unsigned)(c % a);
    c /= a;
    for (unsigned i = 0; i + 1 < a; i++) rand_fr(s, &p->siblings[l][i]);
  }
}

static void rand_column(uint64_t *s, const cz_registered_porep *k, uint32_t index,
                        cz_porep_column *c) {
  c->index = index;
  for (uint32_t l = 0; l < k->shape.layers; l++) rand_fr(s, &c->rows[l]);
  rand_merkle(s, &k->shape.tree_r, k->shape.nodes, index, &c->tree_c);
}

static void rand_labeling(uint64_t *s, uint32_t layer, uint64_t node, cz_porep_labeling *lp) {
  lp->layer = layer;
  lp->node = node;
  for (int i = 0; i < CZ_POREP_LABEL_PARENTS; i++) rand_fr(s, &lp->parents[i]);
}

/* Challenge i of a partition: the derived node, its graph parents' columns
 * and random paths, with the partition's shared roots. */
static void rand_challenge(uint64_t *s, const cz_registered_porep *k, const cz_sdr_graph *g,
                           uint64_t ch, const cz_fr roots[2], cz_porep_challenge_proof *cp) {
  uint32_t parents[CZ_SDR_DEGREE];
  cz_sdr_parents(g, (uint32_t)ch, parents);
  cp->challenge = ch;
  rand_merkle(s, &CZ_POREP_TREE_D_SHAPE, k->shape.nodes, ch, &cp->tree_d);
  rand_merkle(s, &k->shape.tree_r, k->shape.nodes, ch, &cp->tree_r_last);
  rand_column(s, k, (uint32_t)ch, &cp->c_x);
  for (int d = 0; d < CZ_SDR_BASE_DEGREE; d++) rand_column(s, k, parents[d], &cp->drg[d]);
  for (int d = 0; d < CZ_SDR_EXP_DEGREE; d++)
    rand_column(s, k, parents[CZ_SDR_BASE_DEGREE + d], &cp->exp[d]);
  for (uint32_t l = 0; l < k->shape.layers; l++) rand_labeling(s, l + 1, ch, &cp->labeling[l]);
  rand_labeling(s, k->shape.layers, ch, &cp->encoding);
  cp->tree_r_last.root = roots[0];
  cp->c_x.tree_c.root = roots[1];
}

cz_err cz_porep_c1_synthetic(cz_porep_c1 *c1, const cz_registered_porep *registered,
                             uint64_t seed) {
  cz_err e = cz_porep_c1_alloc(c1, registered);
  if (e != CZ_OK) return e;
  uint64_t s = seed;
  rand_fr_bytes(&s, c1->comm_d);
  rand_fr_bytes(&s, c1->comm_r);
  rand_fr_bytes(&s, c1->replica_id);
  for (int i = 0; i < 32; i += 8) {
    uint64_t v = splitmix(&s) | 1, t = splitmix(&s);
    memcpy(c1->seed + i, &v, 8);
    memcpy(c1->ticket + i, &t, 8);
  }
  cz_porep_config cfg;
  cz_registered_porep_config(registered, &cfg);
  cz_sdr_graph g;
  if ((e = cz_sdr_graph_init(&g, registered->shape.nodes, cfg.porep_id, cfg.api)) != CZ_OK) {
    cz_porep_c1_free(c1);
    return e;
  }
  uint64_t *ch = malloc(c1->n_challenges * sizeof *ch);
  if (!ch) {
    cz_porep_c1_free(c1);
    return CZ_ERR_NOMEM;
  }
  for (uint32_t p = 0; p < c1->n_partitions; p++) {
    cz_porep_challenges(ch, &cfg, c1->replica_id, c1->comm_r, c1->seed, p);
    cz_fr roots[2];
    rand_fr(&s, &roots[0]);
    rand_fr(&s, &roots[1]);
    for (uint32_t i = 0; i < c1->n_challenges; i++)
      rand_challenge(&s, registered, &g, ch[i], roots,
                     &c1->proofs[(size_t)p * c1->n_challenges + i]);
  }
  free(ch);
  return CZ_OK;
}
