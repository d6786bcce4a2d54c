/* The update's encoding and the native vanilla prover (storage-proofs-update
 * vanilla.rs encode_into / EmptySectorUpdate::prove), over in-memory trees:
 * what a test sector or cuzk-bench gen-vanilla snap-prove needs. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/snap.h"
#include "filecoin/bincode/bincode.h"
#include "util/msg.h"

static unsigned log2u64(uint64_t v) {
  unsigned k = 0;
  while (k < 63 && (1ull << k) < v) k++;
  return k;
}

cz_err cz_snap_encode(const cz_snap_shape *s, uint32_t h, const cz_fr *comm_d_new,
                      const cz_fr *comm_r_old, const cz_fr *labels_r_old, const cz_fr *data,
                      cz_fr *out) {
  if (!s || !comm_d_new || !comm_r_old || !labels_r_old || !data || !out) return CZ_ERR_INVALID_ARG;
  bool allowed = false;
  for (unsigned i = 0; i < CZ_SNAP_N_HS; i++) allowed |= s->hs[i] == h;
  unsigned bits = log2u64(s->nodes);
  if (!allowed || h > bits || h > 16) return CZ_ERR_INVALID_ARG;
  /* One rho per value of the h high bits: 1024 hashes in production. */
  cz_fr *rho = malloc(((size_t)1 << h) * sizeof *rho);
  if (!rho) return CZ_ERR_NOMEM;
  cz_fr phi;
  cz_snap_phi(&phi, comm_d_new, comm_r_old);
  for (uint32_t v = 0; v < 1u << h; v++) cz_snap_rho(&rho[v], &phi, v);
  for (uint64_t i = 0; i < s->nodes; i++) {
    cz_fr t;
    cz_fr_mul(&t, &data[i], &rho[i >> (bits - h)]);
    cz_fr_add(&out[i], &labels_r_old[i], &t);
  }
  free(rho);
  return CZ_OK;
}

static bool tree_is(const cz_merkle_tree *t, const cz_merkle_shape *want, uint64_t leaves) {
  const cz_merkle_shape *s = &t->shape;
  return t->nodes && s->hasher == want->hasher && s->base_arity == want->base_arity &&
         s->sub_arity == want->sub_arity && s->top_arity == want->top_arity &&
         (uint64_t)t->n_leaves == leaves;
}

/* The apex leaves of partition k: tree D's nodes `row` levels above the
 * leaves (a binary tree stores its levels one after another). */
static void apex_leaves(const cz_snap_shape *s, uint32_t k, const cz_merkle_tree *d, cz_fr *out) {
  unsigned row = log2u64(s->nodes) - log2u64(s->partitions) - log2u64(s->apex_leaves);
  size_t start = 0;
  for (unsigned i = 0; i < row; i++) start += (size_t)(s->nodes >> i);
  memcpy(out, d->nodes + start + (size_t)k * s->apex_leaves, s->apex_leaves * sizeof *out);
}

static cz_err prove_one(const cz_merkle_tree *t, uint32_t c, cz_vanilla_merkle *m, const char *what,
                        size_t i, char *msg, size_t msg_len) {
  cz_err e = cz_bc_merkle_prove(t, c, m);
  if (e == CZ_OK && !cz_merkle_verify(&m->proof)) e = CZ_ERR_INVALID_ARG;
  if (e != CZ_OK)
    return cz_msg_err(msg, msg_len, e, "challenge %zu: the %s proof of node %u does not verify", i,
                      what, c);
  return CZ_OK;
}

cz_err cz_snap_vanilla_prove(const cz_snap_shape *s, uint32_t k, const cz_snap_trees *t,
                             cz_snap_partition_proof *out, char *msg, size_t msg_len) {
  if (!out) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "out: missing");
  memset(out, 0, sizeof *out);
  static const cz_merkle_shape tree_d = {CZ_MERKLE_SHA256, 2, 0, 0};
  if (!s || !t || !t->tree_r_old || !t->tree_d_new || !t->tree_r_new || k >= s->partitions)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "partition %u: missing argument or not a "
                      "partition of this sector size",
                      k);
  if (!tree_is(t->tree_r_old, &s->tree_r, s->nodes) ||
      !tree_is(t->tree_r_new, &s->tree_r, s->nodes))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "tree R: not Poseidon %u-%u-%u over %llu nodes", s->tree_r.base_arity,
                      s->tree_r.sub_arity, s->tree_r.top_arity, (unsigned long long)s->nodes);
  if (!tree_is(t->tree_d_new, &tree_d, s->nodes))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "tree D: not binary SHA-256 over %llu nodes", (unsigned long long)s->nodes);
  uint32_t *ch = malloc(s->challenges * sizeof *ch);
  out->apex_leaves = malloc(s->apex_leaves * sizeof *out->apex_leaves);
  out->challenges = calloc(s->challenges, sizeof *out->challenges);
  if (!ch || !out->apex_leaves || !out->challenges) {
    free(ch);
    cz_snap_vanilla_free(out);
    return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory for the partition proof");
  }
  out->comm_c = t->comm_c;
  out->n_apex = s->apex_leaves;
  apex_leaves(s, k, t->tree_d_new, out->apex_leaves);
  cz_fr pair[2] = {t->comm_c, t->tree_r_new->root}, comm_r_new;
  cz_err e = cz_merkle_hash_node(CZ_MERKLE_POSEIDON, 2, pair, &comm_r_new);
  if (e == CZ_OK) e = cz_snap_challenges(s, &comm_r_new, k, ch);
  for (size_t i = 0; e == CZ_OK && i < s->challenges; i++) {
    cz_snap_challenge_proof *c = &out->challenges[i];
    e = prove_one(t->tree_r_old, ch[i], &c->proof_r_old, "tree R old", i, msg, msg_len);
    if (e == CZ_OK)
      e = prove_one(t->tree_d_new, ch[i], &c->proof_d_new, "tree D new", i, msg, msg_len);
    if (e == CZ_OK)
      e = prove_one(t->tree_r_new, ch[i], &c->proof_r_new, "tree R new", i, msg, msg_len);
    out->n_challenges++;
  }
  free(ch);
  if (e != CZ_OK) cz_snap_vanilla_free(out);
  return e;
}
