/* cz_porep_seal_sparse: the C1 of a committed-capacity sector of any
 * registered size (2 KiB to 64 GiB) without sealing it. A TEST INPUT, not
 * a sealed sector: only the nodes the vanilla proofs open are labelled.
 *
 * The sector's data is all zero, so tree D has no set leaf and comm_d is
 * the all-zero-data root; replica_id and the interactive challenges follow
 * from it (they do not depend on comm_r). The "touched" nodes are the
 * challenges and their 14 parents. Each touched node gets a pseudo-random
 * label per layer; each challenged node's labels are then recomputed by the
 * SDR rule, layer by layer and in node order, from its DRG parents in the
 * same layer and its expander parents in the layer below (so a challenge
 * that is another's parent is consistent everywhere). Every untouched node
 * has label zero in every layer. Tree C (column hashes) and tree R-last
 * (last label + zero data) are sparse trees over the touched leaves with
 * the all-zero column's hash and zero as the default leaves. Cost: a few
 * thousand nodes x tree depth, whatever the sector size. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/porep.h"
#include "cuzk/sha256.h"
#include "filecoin/porep/porep_c1_trees.h"
#include "filecoin/porep/porep_challenge.h"
#include "util/msg.h"

#define NODE CZ_SDR_NODE_BYTES

typedef struct {
  uint32_t layers;
  uint64_t nodes;
  cz_sdr_graph g;
  uint8_t replica_id[32];
  uint64_t *challenges; /* partitions x challenges */
  size_t n_challenges;
  size_t n_touched;
  uint32_t *touched;  /* ascending, distinct */
  bool *challenged;   /* per touched node */
  uint8_t *labels;    /* per touched node, layers x 32 bytes */
  uint8_t zero[NODE]; /* the label of every untouched node */
  cz_merkle_sparse tree_d, tree_c, tree_r;
} sparse_sector;

static void sparse_free(sparse_sector *s) {
  free(s->challenges);
  free(s->touched);
  free(s->challenged);
  free(s->labels);
  cz_merkle_sparse_free(&s->tree_d);
  cz_merkle_sparse_free(&s->tree_c);
  cz_merkle_sparse_free(&s->tree_r);
}

/* The position of node among the touched ones, or SIZE_MAX. */
static size_t touched_at(const sparse_sector *s, uint32_t node) {
  size_t lo = 0, hi = s->n_touched;
  while (lo < hi) {
    size_t m = lo + (hi - lo) / 2;
    if (s->touched[m] < node) lo = m + 1;
    else hi = m;
  }
  return lo < s->n_touched && s->touched[lo] == node ? lo : SIZE_MAX;
}

static uint8_t *label_of(const sparse_sector *s, size_t t, uint32_t layer) {
  return s->labels + (t * s->layers + layer - 1) * NODE;
}

static const uint8_t *view_label(const void *ctx, uint32_t layer, uint32_t node) {
  const sparse_sector *s = ctx;
  size_t t = touched_at(s, node);
  return t == SIZE_MAX ? s->zero : label_of(s, t, layer);
}

static cz_err view_prove(const void *ctx, cz_porep_tree_id tree, uint32_t node,
                         cz_merkle_proof *p) {
  const sparse_sector *s = ctx;
  const cz_merkle_sparse *t = tree == CZ_POREP_TREE_D   ? &s->tree_d
                              : tree == CZ_POREP_TREE_C ? &s->tree_c
                                                        : &s->tree_r;
  return cz_merkle_sparse_prove(t, node, p);
}

static int u32_cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* The touched nodes (challenges and their parents), sorted and distinct,
 * which of them are challenged, and their pseudo-random labels. */
static cz_err touch(sparse_sector *s) {
  size_t cap = s->n_challenges * (1 + CZ_SDR_DEGREE), n = 0;
  s->touched = malloc(cap * sizeof *s->touched);
  if (!s->touched) return CZ_ERR_NOMEM;
  for (size_t i = 0; i < s->n_challenges; i++) {
    s->touched[n++] = (uint32_t)s->challenges[i];
    cz_sdr_parents(&s->g, (uint32_t)s->challenges[i], s->touched + n);
    n += CZ_SDR_DEGREE;
  }
  qsort(s->touched, n, sizeof *s->touched, u32_cmp);
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (m == 0 || s->touched[i] != s->touched[m - 1]) s->touched[m++] = s->touched[i];
  s->n_touched = m;
  s->challenged = calloc(m, sizeof *s->challenged);
  s->labels = malloc(m * s->layers * NODE);
  if (!s->challenged || !s->labels) return CZ_ERR_NOMEM;
  for (size_t i = 0; i < s->n_challenges; i++)
    s->challenged[touched_at(s, (uint32_t)s->challenges[i])] = true;
  /* Label (node, layer) = SHA-256(tag | node | layer) trimmed to 254 bits. */
  static const char tag[] = "cuzk sparse porep test label";
  uint8_t buf[sizeof tag - 1 + 8];
  memcpy(buf, tag, sizeof tag - 1);
  for (size_t t = 0; t < m; t++)
    for (uint32_t l = 1; l <= s->layers; l++) {
      for (int b = 0; b < 4; b++) {
        buf[sizeof tag - 1 + b] = (uint8_t)(s->touched[t] >> (8 * b));
        buf[sizeof tag + 3 + b] = (uint8_t)(l >> (8 * b));
      }
      cz_sha256_trimmed(label_of(s, t, l), buf, sizeof buf);
    }
  return CZ_OK;
}

/* The challenged nodes' labels by the SDR rule: layer by layer, and in
 * node order within a layer (DRG parents are earlier nodes). */
static cz_err label_challenges(sparse_sector *s) {
  for (uint32_t l = 1; l <= s->layers; l++) {
    size_t n = l == 1 ? CZ_SDR_BASE_DEGREE : CZ_SDR_DEGREE;
    for (size_t t = 0; t < s->n_touched; t++) {
      if (!s->challenged[t]) continue;
      uint32_t node = s->touched[t], p[CZ_SDR_DEGREE];
      uint8_t pl[CZ_SDR_DEGREE][32];
      cz_sdr_parents(&s->g, node, p);
      for (size_t i = 0; node > 0 && i < n; i++)
        memcpy(pl[i], view_label(s, i < CZ_SDR_BASE_DEGREE ? l : l - 1, p[i]), NODE);
      cz_err e = cz_sdr_label_from_parents(label_of(s, t, l), s->replica_id, l, node,
                                           (const uint8_t(*)[32])pl, node > 0 ? n : 0);
      if (e != CZ_OK) return e;
    }
  }
  return CZ_OK;
}

/* Tree C over the column hashes and tree R-last over the replica (last
 * label + zero data) of the touched nodes; untouched columns are all zero. */
static cz_err build_trees(sparse_sector *s, const cz_registered_porep *k) {
  uint64_t *idx = malloc((s->n_touched + 1) * sizeof *idx);
  cz_fr *col = malloc((s->n_touched + 1) * sizeof *col);
  cz_fr *rep = malloc((s->n_touched + 1) * sizeof *rep);
  cz_fr rows[CZ_POREP_MAX_LAYERS], def_c, def_r;
  uint8_t replica[32];
  cz_err e = idx && col && rep ? CZ_OK : CZ_ERR_NOMEM;
  for (size_t t = 0; e == CZ_OK && t <= s->n_touched; t++) {
    for (uint32_t l = 1; e == CZ_OK && l <= s->layers; l++) /* t == n_touched: the default column */
      e = cz_fr_from_bytes_le(&rows[l - 1], t < s->n_touched ? label_of(s, t, l) : s->zero);
    cz_fr *c = t < s->n_touched ? &col[t] : &def_c, *r = t < s->n_touched ? &rep[t] : &def_r;
    if (e == CZ_OK) e = cz_sdr_column_hash(c, rows, s->layers);
    if (e == CZ_OK) {
      e = cz_sdr_encode(replica, t < s->n_touched ? label_of(s, t, s->layers) : s->zero, s->zero);
      if (e == CZ_OK) e = cz_fr_from_bytes_le(r, replica);
    }
    if (t < s->n_touched) idx[t] = s->touched[t];
  }
  const cz_merkle_shape *shape = &k->shape.tree_r;
  if (e == CZ_OK)
    e = cz_merkle_sparse_build(&s->tree_c, shape, (size_t)s->nodes, &def_c, idx, col, s->n_touched);
  if (e == CZ_OK)
    e = cz_merkle_sparse_build(&s->tree_r, shape, (size_t)s->nodes, &def_r, idx, rep, s->n_touched);
  free(idx);
  free(col);
  free(rep);
  return e;
}

/* comm_d, replica_id, the challenges, the labels and the trees. */
static cz_err build_sector(sparse_sector *s, const cz_porep_seal_input *in,
                           const cz_porep_config *cfg, uint8_t comm_d[32]) {
  const cz_registered_porep *k = in->registered;
  s->layers = k->shape.layers;
  s->nodes = k->shape.nodes;
  cz_fr zero_fr = {0};
  cz_err e = cz_sdr_graph_init(&s->g, s->nodes, cfg->porep_id, cfg->api);
  if (e == CZ_OK)
    e = cz_merkle_sparse_build(&s->tree_d, &CZ_POREP_TREE_D_SHAPE, (size_t)s->nodes, &zero_fr, NULL,
                               NULL, 0);
  if (e != CZ_OK) return e;
  cz_fr_to_bytes_le(comm_d, &s->tree_d.root);
  cz_sdr_replica_id(s->replica_id, in->prover_id, in->sector_id, in->ticket, comm_d, cfg->porep_id);
  s->n_challenges = (size_t)k->partitions * k->shape.challenges;
  s->challenges = malloc(s->n_challenges * sizeof *s->challenges);
  if (!s->challenges) return CZ_ERR_NOMEM;
  /* Interactive challenges: from replica_id and seed only (comm_r unused). */
  for (uint32_t p = 0; p < k->partitions; p++)
    cz_porep_challenges(s->challenges + (size_t)p * k->shape.challenges, cfg, s->replica_id,
                        s->zero, in->seed, p);
  if ((e = touch(s)) != CZ_OK || (e = label_challenges(s)) != CZ_OK) return e;
  return build_trees(s, k);
}

/* The C1: the commitments and the vanilla proof of every challenge. */
static cz_err write_c1(const sparse_sector *s, const cz_porep_seal_input *in,
                       const uint8_t comm_d[32], cz_porep_c1 *out) {
  cz_err e = cz_porep_c1_alloc(out, in->registered);
  if (e != CZ_OK) return e;
  uint8_t comm_c[32], comm_r_last[32];
  cz_fr_to_bytes_le(comm_c, &s->tree_c.root);
  cz_fr_to_bytes_le(comm_r_last, &s->tree_r.root);
  memcpy(out->comm_d, comm_d, 32);
  if ((e = cz_sdr_comm_r(out->comm_r, comm_c, comm_r_last)) != CZ_OK) return e;
  memcpy(out->replica_id, s->replica_id, 32);
  memcpy(out->seed, in->seed, 32);
  memcpy(out->ticket, in->ticket, 32);
  const cz_porep_sector_view v = {s, s->layers, view_label, view_prove};
  for (size_t i = 0; e == CZ_OK && i < s->n_challenges; i++) {
    uint32_t p[CZ_SDR_DEGREE];
    cz_sdr_parents(&s->g, (uint32_t)s->challenges[i], p);
    e = cz_porep_prove_challenge(&v, s->challenges[i], p, &out->proofs[i]);
  }
  return e;
}

cz_err cz_porep_seal_sparse(const cz_porep_seal_input *in, const cz_porep_config *cfg,
                            cz_porep_c1 *out, size_t *n_touched, char *msg, size_t msg_len) {
  if (out) memset(out, 0, sizeof *out);
  if (n_touched) *n_touched = 0;
  cz_porep_config own;
  cz_err e = cz_porep_check_seal_input(in, out != NULL, &cfg, &own, msg, msg_len);
  if (e != CZ_OK) return e;
  if (cfg->rule != CZ_POREP_INTERACTIVE)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "%s: a sparse sector needs interactive challenges (its synthetic and "
                      "non-interactive challenges would depend on comm_r)",
                      in->registered->name);
  if (in->data)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "%s: a sparse sector's data is all zero; it takes no data",
                      in->registered->name);
  sparse_sector s;
  memset(&s, 0, sizeof s);
  uint8_t comm_d[32];
  e = build_sector(&s, in, cfg, comm_d);
  if (e == CZ_OK) e = write_c1(&s, in, comm_d, out);
  if (e == CZ_OK && n_touched) *n_touched = s.n_touched;
  sparse_free(&s);
  if (e != CZ_OK) {
    cz_porep_c1_free(out);
    return cz_msg_err(msg, msg_len, e, "%s: building the sparse sector failed (%s)",
                      in->registered->name, cz_err_str(e));
  }
  return CZ_OK;
}
