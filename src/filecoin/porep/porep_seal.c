/* Sealing test sectors and the native vanilla-proof verifier, as
 * storage-proofs-porep's StackedDrg does it (stacked/vanilla/proof.rs
 * replicate + prove_layers_generate, proof_scheme.rs verify_all_partitions,
 * params.rs Proof::verify).
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
#include "cuzk/poseidon.h"
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

static void column_of(const sealer *s, uint64_t node, cz_fr *rows) {
  for (uint32_t l = 1; l <= s->layers; l++)
    cz_fr_from_bytes_le(&rows[l - 1], label_at(s, l, node)); /* labels are < 2^254 */
}

static void column_hashes(void *ctx, size_t begin, size_t end, unsigned worker) {
  (void)worker;
  sealer *s = ctx;
  cz_fr rows[CZ_POREP_MAX_LAYERS];
  for (size_t i = begin; i < end; i++) {
    column_of(s, i, rows);
    if (cz_sdr_column_hash(&s->leaves[i], rows, s->layers) != CZ_OK)
      atomic_store(&s->err, CZ_ERR_INVALID_ARG);
  }
  cz_progress_add(&s->pc, end - begin);
}

/* replica node = last layer's label (the key) + data node, in Fr. */
static void encode_range(void *ctx, size_t begin, size_t end, unsigned worker) {
  (void)worker;
  sealer *s = ctx;
  for (size_t i = begin; i < end; i++) {
    cz_fr key, d;
    cz_fr_from_bytes_le(&key, label_at(s, s->layers, i));
    cz_fr_from_bytes_le(&d, s->data + i * NODE); /* checked canonical before */
    cz_fr_add(&s->leaves[i], &key, &d);
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

/* ---- The vanilla verifier -------------------------------------------------- */

typedef struct {
  const cz_porep_c1 *c1;
  cz_sdr_graph g;
  uint64_t nodes;
  uint32_t layers;
  cz_fr comm_d;
  const uint64_t *challenges; /* n_partitions x n_challenges */
  /* Per worker: the first failing proof index in its range and why. */
  size_t *fail_at;
  char (*why)[256];
} verifier;

/* The arity of each level of a proof of this shape, from the leaves up. */
static bool proof_shape_ok(const cz_merkle_proof *p, const cz_merkle_shape *s, uint64_t nodes) {
  size_t levels = cz_merkle_proof_levels(s, (size_t)nodes);
  if (levels == 0 || p->n_levels != levels || p->shape.hasher != s->hasher ||
      p->shape.base_arity != s->base_arity || p->shape.sub_arity != s->sub_arity ||
      p->shape.top_arity != s->top_arity)
    return false;
  size_t base = levels - (s->sub_arity != 0) - (s->top_arity != 0);
  for (size_t l = 0; l < levels; l++) {
    unsigned want = l < base                    ? s->base_arity
                    : l == base && s->sub_arity ? s->sub_arity
                                                : s->top_arity;
    if (p->arity[l] != want) return false;
  }
  return true;
}

/* An inclusion proof of `node` under `root`: shape, index and path. */
static const char *inclusion_fails(const cz_merkle_proof *p, const cz_merkle_shape *s,
                                   uint64_t nodes, uint64_t node, const cz_fr *root) {
  if (!proof_shape_ok(p, s, nodes)) return "has the wrong shape";
  if (p->challenge != node) return "is for another leaf";
  if (!cz_fr_eq(&p->root, root)) return "has another root";
  if (!cz_merkle_verify(p)) return "does not verify (leaf or path)";
  return NULL;
}

#define FAIL(...) \
  do { \
    cz_msg(why, why_len, __VA_ARGS__); \
    return false; \
  } while (0)

static bool column_ok(const verifier *v, const cz_porep_column *c, uint32_t node, const char *what,
                      const cz_fr *comm_c, char *why, size_t why_len) {
  if (c->index != node)
    FAIL("%s column has index %" PRIu32 ", expected %" PRIu32, what, c->index, node);
  const char *f =
      inclusion_fails(&c->tree_c, &v->c1->registered->shape.tree_r, v->nodes, node, comm_c);
  if (f) FAIL("%s column (node %" PRIu32 "): tree C inclusion proof %s", what, node, f);
  cz_fr h;
  if (cz_sdr_column_hash(&h, c->rows, v->layers) != CZ_OK || !cz_fr_eq(&h, &c->tree_c.leaf))
    FAIL("%s column (node %" PRIu32 "): column hash is not the tree C leaf (a row is wrong)", what,
         node);
  return true;
}

static bool label_ok(const verifier *v, const cz_porep_labeling *lp, uint8_t out[32]) {
  uint8_t parents[CZ_POREP_LABEL_PARENTS][32];
  for (size_t j = 0; j < CZ_POREP_LABEL_PARENTS; j++)
    cz_fr_to_bytes_le(parents[j], &lp->parents[j]);
  return cz_sdr_label_from_parents(out, v->c1->replica_id, lp->layer, lp->node,
                                   (const uint8_t(*)[32])parents, CZ_POREP_LABEL_PARENTS) == CZ_OK;
}

/* What the 37 parents of the label of `layer` must be: the parent columns'
 * rows, DRG parents at this layer, expander parents at the one below. */
static const cz_fr *expected_parent(const cz_porep_challenge_proof *pr, uint32_t layer, size_t j) {
  size_t n = layer == 1 ? CZ_SDR_BASE_DEGREE : CZ_SDR_DEGREE, i = j % n;
  return i < CZ_SDR_BASE_DEGREE ? &pr->drg[i].rows[layer - 1]
                                : &pr->exp[i - CZ_SDR_BASE_DEGREE].rows[layer - 2];
}

static bool labeling_ok(const cz_porep_challenge_proof *pr, const cz_porep_labeling *lp,
                        uint32_t layer, const char *what, char *why, size_t why_len) {
  if (lp->layer != layer || lp->node != pr->challenge)
    FAIL("%s proof is for layer %" PRIu32 " node %" PRIu64 ", expected layer %" PRIu32
         " node %" PRIu64,
         what, lp->layer, lp->node, layer, pr->challenge);
  for (size_t j = 0; j < CZ_POREP_LABEL_PARENTS; j++)
    if (!cz_fr_eq(&lp->parents[j], expected_parent(pr, layer, j)))
      FAIL("%s proof (layer %" PRIu32 "): parent %zu differs from the parent columns", what, layer,
           j);
  return true;
}

static bool challenge_ok(const verifier *v, const cz_porep_challenge_proof *pr, uint64_t challenge,
                         const cz_fr *comm_c, const cz_fr *comm_r_last, char *why, size_t why_len) {
  const cz_registered_porep *k = v->c1->registered;
  if (pr->challenge != challenge)
    FAIL("challenge index is %" PRIu64 ", expected %" PRIu64 " (derived from replica_id and seed)",
         pr->challenge, challenge);
  uint32_t node = (uint32_t)challenge;

  /* The data leaf under comm_d (Proof::verify checks only the index;
   * the circuit checks the path, so this verifier does too). */
  const cz_merkle_shape shape_d = {CZ_MERKLE_SHA256, 2, 0, 0};
  const char *f = inclusion_fails(&pr->tree_d, &shape_d, v->nodes, node, &v->comm_d);
  if (f) FAIL("tree D inclusion proof %s", f);

  /* ReplicaColumnProof::verify: c_x and the 14 parents' columns under comm_c. */
  if (!column_ok(v, &pr->c_x, node, "challenge", comm_c, why, why_len)) return false;
  uint32_t parents[CZ_SDR_DEGREE];
  cz_sdr_parents(&v->g, node, parents);
  char what[32];
  for (int i = 0; i < CZ_SDR_DEGREE; i++) {
    const cz_porep_column *c =
        i < CZ_SDR_BASE_DEGREE ? &pr->drg[i] : &pr->exp[i - CZ_SDR_BASE_DEGREE];
    snprintf(what, sizeof what, i < CZ_SDR_BASE_DEGREE ? "DRG parent %d" : "expander parent %d",
             i < CZ_SDR_BASE_DEGREE ? i : i - CZ_SDR_BASE_DEGREE);
    if (!column_ok(v, c, parents[i], what, comm_c, why, why_len)) return false;
  }

  /* verify_final_replica_layer: the replica leaf under comm_r_last. */
  f = inclusion_fails(&pr->tree_r_last, &k->shape.tree_r, v->nodes, node, comm_r_last);
  if (f) FAIL("tree R-last inclusion proof %s", f);

  /* verify_labels: each layer's label from its 37 parents equals c_x's row. */
  for (uint32_t l = 1; l <= v->layers; l++) {
    const cz_porep_labeling *lp = &pr->labeling[l - 1];
    if (!labeling_ok(pr, lp, l, "labeling", why, why_len)) return false;
    uint8_t label[32], row[32];
    cz_fr_to_bytes_le(row, &pr->c_x.rows[l - 1]);
    if (!label_ok(v, lp, label) || memcmp(label, row, 32) != 0)
      FAIL("labeling proof (layer %" PRIu32 "): the label hash is not the column's row", l);
  }

  /* EncodingProof::verify: key from the encoding parents, replica = key + data. */
  if (!labeling_ok(pr, &pr->encoding, v->layers, "encoding", why, why_len)) return false;
  uint8_t key[32], data[32], replica[32], want[32];
  cz_fr_to_bytes_le(data, &pr->tree_d.leaf);
  cz_fr_to_bytes_le(want, &pr->tree_r_last.leaf);
  if (!label_ok(v, &pr->encoding, key) || cz_sdr_encode(replica, key, data) != CZ_OK ||
      memcmp(replica, want, 32) != 0)
    FAIL("encoding: key + data leaf is not the replica leaf");
  return true;
}

static void verify_range(void *ctx, size_t begin, size_t end, unsigned worker) {
  verifier *v = ctx;
  const cz_porep_c1 *c1 = v->c1;
  for (size_t i = begin; i < end; i++) {
    const cz_porep_challenge_proof *first = &c1->proofs[i / c1->n_challenges * c1->n_challenges];
    const cz_porep_challenge_proof *pr = &c1->proofs[i];
    char why[160];
    bool ok;
    /* Every proof of a partition opens the same comm_c and comm_r_last. */
    if (!cz_fr_eq(&pr->c_x.tree_c.root, &first->c_x.tree_c.root)) {
      snprintf(why, sizeof why, "comm_c differs from the partition's first proof");
      ok = false;
    } else if (!cz_fr_eq(&pr->tree_r_last.root, &first->tree_r_last.root)) {
      snprintf(why, sizeof why, "comm_r_last differs from the partition's first proof");
      ok = false;
    } else {
      ok = challenge_ok(v, pr, v->challenges[i], &first->c_x.tree_c.root, &first->tree_r_last.root,
                        why, sizeof why);
    }
    if (!ok) {
      v->fail_at[worker] = i;
      snprintf(v->why[worker], sizeof v->why[worker], "partition %zu challenge %zu: %s",
               i / c1->n_challenges, i % c1->n_challenges, why);
      return;
    }
  }
}

cz_err cz_porep_vanilla_verify_config(const cz_porep_c1 *c1, const cz_porep_config *cfg, char *msg,
                                      size_t msg_len) {
  if (!c1 || !c1->registered || !c1->proofs)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "no C1 to verify");
  const cz_registered_porep *k = c1->registered;
  cz_porep_config own;
  if (!cfg) {
    cz_registered_porep_config(k, &own);
    cfg = &own;
  }
  cz_err e = cz_porep_check_registered(k, cfg, msg, msg_len);
  if (e != CZ_OK) return e;
  if (c1->n_partitions != k->partitions || c1->n_challenges != k->shape.challenges)
    return cz_msg_err(msg, msg_len, CZ_ERR_PROOF_INVALID,
                      "%s needs %" PRIu32 " partitions of %" PRIu32
                      " challenges, the C1 has %" PRIu32 " of %" PRIu32,
                      k->name, k->partitions, k->shape.challenges, c1->n_partitions,
                      c1->n_challenges);
  verifier v;
  memset(&v, 0, sizeof v);
  v.c1 = c1;
  v.nodes = k->shape.nodes;
  v.layers = k->shape.layers;
  if (cz_sdr_graph_init(&v.g, v.nodes, cfg->porep_id, cfg->api) != CZ_OK)
    return cz_msg_err(msg, msg_len, CZ_ERR_PROOF_INVALID, "%s: cannot build the SDR graph",
                      k->name);
  cz_fr comm_r;
  if (cz_fr_from_bytes_le(&v.comm_d, c1->comm_d) != CZ_OK)
    return cz_msg_err(msg, msg_len, CZ_ERR_PROOF_INVALID, "comm_d is not a field element");
  if (cz_fr_from_bytes_le(&comm_r, c1->comm_r) != CZ_OK)
    return cz_msg_err(msg, msg_len, CZ_ERR_PROOF_INVALID, "comm_r is not a field element");
  cz_fr rid;
  if (cz_fr_from_bytes_le(&rid, c1->replica_id) != CZ_OK)
    return cz_msg_err(msg, msg_len, CZ_ERR_PROOF_INVALID, "replica_id is not a field element");

  /* verify_all_partitions: comm_r = H(comm_c, comm_r_last) of each
   * partition's first proof. */
  for (uint32_t p = 0; p < c1->n_partitions; p++) {
    const cz_porep_challenge_proof *first = &c1->proofs[(size_t)p * c1->n_challenges];
    cz_fr in[2] = {first->c_x.tree_c.root, first->tree_r_last.root}, h;
    if (cz_poseidon_hash(2, in, &h) != CZ_OK || !cz_fr_eq(&h, &comm_r))
      return cz_msg_err(msg, msg_len, CZ_ERR_PROOF_INVALID,
                        "partition %" PRIu32 ": comm_r is not H(comm_c, comm_r_last)", p);
  }

  size_t n = (size_t)c1->n_partitions * c1->n_challenges;
  unsigned workers = cz_parallel_workers(n, 0);
  uint64_t *challenges = malloc(n * sizeof *challenges);
  v.fail_at = malloc(workers * sizeof *v.fail_at);
  v.why = malloc(workers * sizeof *v.why);
  if (!challenges || !v.fail_at || !v.why) {
    free(challenges);
    free(v.fail_at);
    free(v.why);
    return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory verifying the C1");
  }
  for (uint32_t p = 0; p < c1->n_partitions; p++)
    cz_porep_challenges(challenges + (size_t)p * c1->n_challenges, cfg, c1->replica_id, c1->comm_r,
                        c1->seed, p);
  v.challenges = challenges;
  for (unsigned w = 0; w < workers; w++) v.fail_at[w] = SIZE_MAX;
  cz_parallel_for(n, 0, verify_range, &v);
  /* Workers take ascending ranges: the lowest failure is the first one. */
  unsigned worst = 0;
  for (unsigned w = 1; w < workers; w++)
    if (v.fail_at[w] < v.fail_at[worst]) worst = w;
  e = v.fail_at[worst] == SIZE_MAX
          ? CZ_OK
          : cz_msg_err(msg, msg_len, CZ_ERR_PROOF_INVALID, "%s", v.why[worst]);
  free(challenges);
  free(v.fail_at);
  free(v.why);
  return e;
}

cz_err cz_porep_vanilla_verify(const cz_porep_c1 *c1, char *msg, size_t msg_len) {
  return cz_porep_vanilla_verify_config(c1, NULL, msg, msg_len);
}
