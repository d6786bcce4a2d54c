/* The native PoRep vanilla-proof verifier, as storage-proofs-porep does it
 * (proof_scheme.rs verify_all_partitions, params.rs Proof::verify): every
 * challenge's inclusion proofs, columns, labels and encoding. It stands
 * apart from the sealer (porep_seal.c), with which it shares only the
 * registered-proof check (porep_challenge.h): it checks any C1, sealed here, read from
 * JSON or made synthetic. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/parallel.h"
#include "cuzk/porep.h"
#include "cuzk/poseidon.h"
#include "filecoin/porep/porep_challenge.h"
#include "util/msg.h"

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
