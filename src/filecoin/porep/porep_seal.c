/* Sealing test sectors, as storage-proofs-porep's StackedDrg does it
 * (stacked/vanilla/proof.rs replicate + prove_layers_generate), and the
 * checks of a seal's input. The native vanilla-proof verifier is in
 * porep_verify.c.
 *
 * Sealing keeps everything in memory: it is for test sectors (2 KiB to
 * 512 MiB), not for production sectors. */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/parallel.h"
#include "cuzk/porep.h"
#include "cuzk/sha256.h"
#include "filecoin/porep/porep_challenge.h"
#include "util/msg.h"

#define NODE CZ_SDR_NODE_BYTES
#define SEAL_MAX_SECTOR (512ull << 20)

/* ---- Default data ---------------------------------------------------------- */

void cz_porep_default_data(uint8_t *out, uint64_t sector_size) {
  /* Chunk i = SHA-256(tag | i as u64 LE) trimmed to 254 bits: below r (so
   * valid fr32 data), distinct per chunk, and reproducible anywhere. */
  static const char tag[] = "cuzk porep default data";
  uint8_t buf[sizeof tag - 1 + 8], d[32];
  memcpy(buf, tag, sizeof tag - 1);
  for (uint64_t i = 0; i < sector_size / NODE; i++) {
    for (int b = 0; b < 8; b++) buf[sizeof tag - 1 + b] = (uint8_t)(i >> (8 * b));
    cz_sha256_trimmed(d, buf, sizeof buf);
    memcpy(out + i * NODE, d, NODE);
  }
  /* A size that is not a multiple of 32 ends in zero bytes. */
  memset(out + sector_size / NODE * NODE, 0, sector_size % NODE);
}

/* ---- Sealing ------------------------------------------------------------- */

typedef struct {
  const cz_registered_porep *registered;
  cz_sdr_graph g;
  uint64_t nodes;
  uint32_t layers;
  unsigned n_threads;
  uint8_t replica_id[32];
  uint32_t *parents;   /* nodes x 14: the parent cache */
  uint8_t *labels;     /* layers x nodes x 32: layer l (from 1) at (l - 1) */
  const uint8_t *data; /* nodes x 32 */
  cz_fr *leaves;       /* scratch: nodes leaves */
  cz_merkle_tree tree_d, tree_c, tree_r;
  atomic_int err;         /* an error of a parallel step (workers may race to set it) */
  cz_progress_counter pc; /* phase "seal" (cz_porep_seal_input.progress) */
} sealer;

/* Nodes labelled between progress reports: 8 MiB sectors have 262,144 per
 * layer, so a report every few milliseconds. */
#define SEAL_REPORT_NODES 4096

static const uint8_t *label_at(const sealer *s, uint32_t layer, uint64_t node) {
  return s->labels + ((size_t)(layer - 1) * s->nodes + node) * NODE;
}

static void parents_range(void *ctx, size_t begin, size_t end, unsigned worker) {
  (void)worker;
  sealer *s = ctx;
  cz_sdr_parents_range(&s->g, (uint32_t)begin, (uint32_t)(end - begin),
                       s->parents + begin * CZ_SDR_DEGREE);
}

/* The labels of one layer in node order (each node needs the earlier ones:
 * its DRG parents are in the same layer), from the parent cache. */
static cz_err label_layer(sealer *s, uint32_t layer) {
  uint8_t *cur = s->labels + (size_t)(layer - 1) * s->nodes * NODE;
  const uint8_t *prev = layer > 1 ? cur - s->nodes * NODE : NULL;
  size_t n = layer == 1 ? CZ_SDR_BASE_DEGREE : CZ_SDR_DEGREE;
  uint8_t pl[CZ_SDR_DEGREE][32];
  for (uint64_t node = 0; node < s->nodes; node++) {
    const uint32_t *p = s->parents + node * CZ_SDR_DEGREE;
    for (size_t i = 0; node > 0 && i < n; i++)
      memcpy(pl[i], (i < CZ_SDR_BASE_DEGREE ? cur : prev) + (size_t)p[i] * NODE, NODE);
    cz_err e = cz_sdr_label_from_parents(cur + node * NODE, s->replica_id, layer, node,
                                         (const uint8_t(*)[32])pl, node > 0 ? n : 0);
    if (e != CZ_OK) return e;
    if ((node + 1) % SEAL_REPORT_NODES == 0) cz_progress_add(&s->pc, SEAL_REPORT_NODES);
  }
  cz_progress_add(&s->pc, s->nodes % SEAL_REPORT_NODES);
  return CZ_OK;
}

static cz_err column_of(const sealer *s, uint64_t node, cz_fr *rows) {
  cz_err e = CZ_OK; /* labels are < 2^254: never fails */
  for (uint32_t l = 1; e == CZ_OK && l <= s->layers; l++)
    e = cz_fr_from_bytes_le(&rows[l - 1], label_at(s, l, node));
  return e;
}

static void column_hashes(void *ctx, size_t begin, size_t end, unsigned worker) {
  (void)worker;
  sealer *s = ctx;
  cz_fr rows[CZ_POREP_MAX_LAYERS];
  for (size_t i = begin; i < end; i++) {
    cz_err e = column_of(s, i, rows);
    if (e == CZ_OK && cz_sdr_column_hash(&s->leaves[i], rows, s->layers) != CZ_OK)
      e = CZ_ERR_INVALID_ARG;
    if (e != CZ_OK) atomic_store(&s->err, e);
  }
  cz_progress_add(&s->pc, end - begin);
}

/* replica node = last layer's label (the key) + data node, in Fr. */
static void encode_range(void *ctx, size_t begin, size_t end, unsigned worker) {
  (void)worker;
  sealer *s = ctx;
  for (size_t i = begin; i < end; i++) {
    cz_fr key, d;
    /* labels are < 2^254 and the data was checked canonical before */
    cz_err e = cz_fr_from_bytes_le(&key, label_at(s, s->layers, i));
    if (e == CZ_OK) e = cz_fr_from_bytes_le(&d, s->data + i * NODE);
    if (e != CZ_OK) atomic_store(&s->err, e);
    else cz_fr_add(&s->leaves[i], &key, &d);
  }
}

/* The sealer as a sector view: its labels and its dense trees. */
static const uint8_t *view_label(const void *ctx, uint32_t layer, uint32_t node) {
  return label_at(ctx, layer, node);
}

static cz_err view_prove(const void *ctx, cz_porep_tree_id tree, uint32_t node,
                         cz_merkle_proof *p) {
  const sealer *s = ctx;
  const cz_merkle_tree *t = tree == CZ_POREP_TREE_D   ? &s->tree_d
                            : tree == CZ_POREP_TREE_C ? &s->tree_c
                                                      : &s->tree_r;
  return cz_merkle_prove(t, node, p);
}

static cz_err prove_challenge(const sealer *s, uint64_t challenge, cz_porep_challenge_proof *pr) {
  const cz_porep_sector_view v = {s, s->layers, view_label, view_prove};
  return cz_porep_prove_challenge(&v, challenge, s->parents + (size_t)challenge * CZ_SDR_DEGREE,
                                  pr);
}

typedef struct {
  const sealer *s;
  const uint64_t *challenges;
  cz_porep_challenge_proof *proofs;
  atomic_int err;
  cz_progress_counter *pc;
} prove_ctx;

static void prove_range(void *ctx, size_t begin, size_t end, unsigned worker) {
  (void)worker;
  prove_ctx *c = ctx;
  for (size_t i = begin; i < end; i++) {
    cz_err e = prove_challenge(c->s, c->challenges[i], &c->proofs[i]);
    if (e != CZ_OK) atomic_store(&c->err, e);
  }
  cz_progress_add(c->pc, end - begin);
}

static void sealer_free(sealer *s) {
  free(s->parents);
  free(s->labels);
  free(s->leaves);
  cz_merkle_tree_free(&s->tree_d);
  cz_merkle_tree_free(&s->tree_c);
  cz_merkle_tree_free(&s->tree_r);
}

/* See porep_challenge.h. */
cz_err cz_porep_check_registered(const cz_registered_porep *k, const cz_porep_config *cfg,
                                 char *msg, size_t msg_len) {
  if (!k) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "no registered proof");
  if ((k->shape.layers != 2 && k->shape.layers != 11) || k->shape.layers > CZ_POREP_MAX_LAYERS ||
      k->shape.nodes < 2 || k->shape.nodes > UINT32_MAX || k->shape.challenges == 0 ||
      k->partitions == 0 || !cz_merkle_shape_ok(&k->shape.tree_r, (size_t)k->shape.nodes))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "%s: unsupported shape", k->name);
  if (cfg->sector_size != k->sector_size || cfg->challenges != k->shape.challenges ||
      cfg->partitions != k->partitions || cfg->rule != k->rule)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "%s: configuration does not match the registered proof", k->name);
  return CZ_OK;
}

cz_err cz_porep_check_seal_input(const cz_porep_seal_input *in, bool has_out,
                                 const cz_porep_config **cfg, cz_porep_config *own, char *msg,
                                 size_t msg_len) {
  if (!in || !has_out) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "no input or output");
  if (!in->registered) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "no registered proof");
  if (!*cfg) {
    cz_registered_porep_config(in->registered, own);
    *cfg = own;
  }
  return cz_porep_check_registered(in->registered, *cfg, msg, msg_len);
}

/* Tree D: the binary SHA-256 tree over the data, and its root comm_d. */
static cz_err build_tree_d(sealer *s, uint8_t comm_d[32], char *msg, size_t msg_len) {
  for (uint64_t i = 0; i < s->nodes; i++)
    if (cz_fr_from_bytes_le(&s->leaves[i], s->data + i * NODE) != CZ_OK)
      return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                        "data chunk %" PRIu64 " (bytes %" PRIu64 "..%" PRIu64 ") is not below r", i,
                        i * NODE, i * NODE + NODE - 1);
  const cz_merkle_shape shape_d = {CZ_MERKLE_SHA256, 2, 0, 0};
  cz_err e = cz_merkle_tree_build(&s->tree_d, &shape_d, s->leaves, (size_t)s->nodes);
  if (e != CZ_OK)
    return cz_msg_err(msg, msg_len, e, "%s: building a Merkle tree failed", s->registered->name);
  cz_progress_add(&s->pc, s->nodes);
  cz_fr_to_bytes_le(comm_d, &s->tree_d.root);
  return CZ_OK;
}

static cz_err seal_sector(sealer *s, const cz_porep_seal_input *in, const cz_porep_config *cfg,
                          cz_porep_c1 *out, char *msg, size_t msg_len) {
  const cz_registered_porep *k = in->registered;
  s->registered = k;
  s->nodes = k->shape.nodes;
  s->layers = k->shape.layers;
  cz_err e = cz_sdr_graph_init(&s->g, s->nodes, cfg->porep_id, cfg->api);
  if (e != CZ_OK) {
    cz_msg(msg, msg_len, "%s: cannot build the SDR graph", k->name);
    return e;
  }
  size_t bytes = (size_t)s->nodes * NODE;
  s->leaves = malloc((size_t)s->nodes * sizeof(cz_fr));
  s->parents = malloc((size_t)s->nodes * CZ_SDR_DEGREE * sizeof(uint32_t));
  s->labels = malloc(bytes * s->layers);
  if (!s->leaves || !s->parents || !s->labels) goto nomem;
  size_t n_proofs = (size_t)k->partitions * k->shape.challenges;
  cz_progress_counter_init(&s->pc, in->progress, "seal", "nodes",
                           s->nodes * (s->layers + 3) + n_proofs);

  uint8_t comm_d[32], comm_c[32], comm_r_last[32];
  if ((e = build_tree_d(s, comm_d, msg, msg_len)) != CZ_OK) return e;
  cz_sdr_replica_id(s->replica_id, in->prover_id, in->sector_id, in->ticket, comm_d, cfg->porep_id);

  /* The SDR layers from the parent cache (computed once, in parallel). */
  cz_parallel_for((size_t)s->nodes, s->n_threads, parents_range, s);
  for (uint32_t l = 1; l <= s->layers; l++)
    if ((e = label_layer(s, l)) != CZ_OK) return e;

  /* Tree C over the column hashes, tree R-last over the replica. */
  cz_parallel_for((size_t)s->nodes, s->n_threads, column_hashes, s);
  if ((e = (cz_err)atomic_load(&s->err)) != CZ_OK) return e;
  if ((e = cz_merkle_tree_build(&s->tree_c, &k->shape.tree_r, s->leaves, (size_t)s->nodes)) !=
      CZ_OK)
    goto tree_fail;
  cz_parallel_for((size_t)s->nodes, s->n_threads, encode_range, s);
  if ((e = (cz_err)atomic_load(&s->err)) != CZ_OK) return e;
  if ((e = cz_merkle_tree_build(&s->tree_r, &k->shape.tree_r, s->leaves, (size_t)s->nodes)) !=
      CZ_OK)
    goto tree_fail;
  cz_progress_add(&s->pc, s->nodes);
  free(s->leaves);
  s->leaves = NULL;
  cz_fr_to_bytes_le(comm_c, &s->tree_c.root);
  cz_fr_to_bytes_le(comm_r_last, &s->tree_r.root);

  /* C1: the commitments, then every partition's interactive challenges. */
  if ((e = cz_porep_c1_alloc(out, k)) != CZ_OK) goto nomem;
  memcpy(out->comm_d, comm_d, 32);
  if ((e = cz_sdr_comm_r(out->comm_r, comm_c, comm_r_last)) != CZ_OK) return e;
  memcpy(out->replica_id, s->replica_id, 32);
  memcpy(out->seed, in->seed, 32);
  memcpy(out->ticket, in->ticket, 32);
  size_t n = (size_t)out->n_partitions * out->n_challenges;
  uint64_t *challenges = malloc(n * sizeof *challenges);
  if (!challenges) goto nomem;
  for (uint32_t p = 0; p < out->n_partitions; p++)
    cz_porep_challenges(challenges + (size_t)p * out->n_challenges, cfg, s->replica_id, out->comm_r,
                        in->seed, p);
  prove_ctx pc = {s, challenges, out->proofs, CZ_OK, &s->pc};
  cz_parallel_for(n, s->n_threads, prove_range, &pc);
  free(challenges);
  if ((e = (cz_err)atomic_load(&pc.err)) != CZ_OK)
    cz_msg(msg, msg_len, "%s: generating an inclusion proof failed", k->name);
  return e;

nomem:
  return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "%s: out of memory sealing %" PRIu64 " nodes",
                    k->name, s->nodes);
tree_fail:
  cz_msg(msg, msg_len, "%s: building a Merkle tree failed", k->name);
  return e;
}

cz_err cz_porep_seal_replica(const cz_porep_seal_input *in, const cz_porep_config *cfg,
                             cz_porep_c1 *out, cz_porep_replica *replica, unsigned n_threads,
                             char *msg, size_t msg_len) {
  if (replica) memset(replica, 0, sizeof *replica);
  if (out) memset(out, 0, sizeof *out);
  cz_porep_config own;
  cz_err e = cz_porep_check_seal_input(in, out != NULL, &cfg, &own, msg, msg_len);
  if (e != CZ_OK) return e;
  if (in->registered->sector_size > SEAL_MAX_SECTOR)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "%s: sealing in memory is for test sectors up to 512 MiB",
                      in->registered->name);
  sealer s;
  memset(&s, 0, sizeof s);
  s.n_threads = n_threads;
  uint8_t *own_data = NULL;
  if (in->data) {
    s.data = in->data;
  } else {
    own_data = malloc(in->registered->sector_size);
    if (!own_data)
      return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "%s: out of memory for the default data",
                        in->registered->name);
    cz_porep_default_data(own_data, in->registered->sector_size);
    s.data = own_data;
  }
  e = seal_sector(&s, in, cfg, out, msg, msg_len);
  if (e == CZ_OK && replica) {
    /* Hand tree R-last over instead of freeing it with the sealer. */
    replica->tree_r_last = s.tree_r;
    memset(&s.tree_r, 0, sizeof s.tree_r);
    replica->comm_c = s.tree_c.root;
    replica->comm_r_last = replica->tree_r_last.root;
    memcpy(replica->comm_r, out->comm_r, 32);
  }
  sealer_free(&s);
  free(own_data);
  if (e != CZ_OK) cz_porep_c1_free(out);
  return e;
}

cz_err cz_porep_seal_config(const cz_porep_seal_input *in, const cz_porep_config *cfg,
                            cz_porep_c1 *out, unsigned n_threads, char *msg, size_t msg_len) {
  return cz_porep_seal_replica(in, cfg, out, NULL, n_threads, msg, msg_len);
}

void cz_porep_replica_free(cz_porep_replica *r) {
  if (!r) return;
  cz_merkle_tree_free(&r->tree_r_last);
  memset(r, 0, sizeof *r);
}

cz_err cz_porep_seal(const cz_porep_seal_input *in, cz_porep_c1 *out, unsigned n_threads, char *msg,
                     size_t msg_len) {
  return cz_porep_seal_config(in, NULL, out, n_threads, msg, msg_len);
}
