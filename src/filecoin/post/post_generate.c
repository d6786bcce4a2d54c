/* The native vanilla PoSt prover: filecoin-proofs post_util.rs
 * generate_single_vanilla_proof over storage-proofs-post fallback/vanilla.rs
 * vanilla_proof (the per-sector half of FallbackPoSt::prove_all_partitions).
 *
 * Per challenged leaf, tree.gen_cached_proof(leaf) converted to a
 * MerkleProof: merkle/proof.rs picks the ProofData variant from the tree's
 * type (Single for a base tree alone, Sub with a sub tree, Top with a top
 * tree), and splits the path at the base tree's root (base_proof) and at
 * the sub tree's root (sub_proof: one level, top_proof: one level). Each
 * proof is validated against its leaf and comm_r_last before it is kept,
 * as vanilla_proof ensures. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/poseidon.h"
#include "cuzk/post.h"
#include "filecoin/bincode/bincode.h"
#include "filecoin/post/post_internal.h"
#include "util/msg.h"

cz_err cz_post_inclusion_prove(const cz_merkle_tree *t, uint64_t challenge,
                               cz_post_inclusion *out) {
  if (!out) return CZ_ERR_INVALID_ARG;
  memset(out, 0, sizeof *out);
  if (!t || t->shape.hasher != CZ_MERKLE_POSEIDON) return CZ_ERR_INVALID_ARG;
  return cz_bc_merkle_prove(t, challenge, out);
}

/* The tree must be the registered proof's tree R-last: Poseidon, the registered proof's arities,
 * sector_size / 32 leaves. */
static cz_err check_tree(const cz_registered_post *k, const cz_merkle_tree *t, char *msg,
                         size_t msg_len) {
  const cz_merkle_shape *w = &k->tree_r, *s = &t->shape;
  uint64_t leaves = k->sector_size / 32;
  if (!t->nodes || s->hasher != CZ_MERKLE_POSEIDON || s->base_arity != w->base_arity ||
      s->sub_arity != w->sub_arity || s->top_arity != w->top_arity ||
      (uint64_t)t->n_leaves != leaves)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "tree_r_last: a %s %u-%u-%u tree over %zu leaves; %s needs Poseidon "
                      "%u-%u-%u over %llu",
                      !t->nodes                         ? "missing"
                      : s->hasher == CZ_MERKLE_POSEIDON ? "Poseidon"
                                                        : "SHA-256",
                      s->base_arity, s->sub_arity, s->top_arity, t->n_leaves, k->name,
                      w->base_arity, w->sub_arity, w->top_arity, (unsigned long long)leaves);
  return CZ_OK;
}

/* comm_r_last is the tree's root and comm_r = Poseidon-2(comm_c,
 * comm_r_last): what the verifier will check, refused here rather than
 * written into a proof that cannot hold. */
static cz_err check_commitments(const cz_merkle_tree *t, const cz_fr *comm_c,
                                const cz_fr *comm_r_last, const cz_fr *comm_r, char *msg,
                                size_t msg_len) {
  if (!cz_fr_eq(&t->root, comm_r_last))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "comm_r_last: differs from the root of tree_r_last");
  cz_fr pair[2] = {*comm_c, *comm_r_last}, h;
  cz_err e = cz_poseidon_hash(2, pair, &h);
  if (e != CZ_OK) return cz_msg_err(msg, msg_len, e, "comm_r: Poseidon-2 unavailable");
  if (!cz_fr_eq(&h, comm_r))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "comm_r: is not Poseidon-2(comm_c, comm_r_last)");
  return CZ_OK;
}

cz_err cz_post_vanilla_prove(const cz_registered_post *k, const cz_post_replica *rep,
                             const uint64_t *challenges, size_t n_challenges, cz_post_vanilla *out,
                             char *msg, size_t msg_len) {
  if (msg && msg_len) msg[0] = 0;
  if (!out) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "generate vanilla: NULL output");
  memset(out, 0, sizeof *out);
  if (!rep) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "generate vanilla: no replica");
  uint64_t sector_id = rep->sector_id;
  const uint8_t *comm_r = rep->comm_r;
  const cz_fr *comm_c = rep->comm_c, *comm_r_last = rep->comm_r_last;
  const cz_merkle_tree *tree_r_last = rep->tree_r_last;
  if (!k || !comm_r || !comm_c || !comm_r_last || !tree_r_last || (!challenges && n_challenges))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "generate vanilla: NULL argument");
  /* generate_single_vanilla_proof: ensure!(!challenges.is_empty()). */
  if (n_challenges == 0)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "challenges: none supplied");
  cz_fr r;
  cz_err e = cz_post_check_fr(comm_r, "comm_r", &r, msg, msg_len);
  if (e == CZ_OK) e = check_tree(k, tree_r_last, msg, msg_len);
  if (e == CZ_OK) e = check_commitments(tree_r_last, comm_c, comm_r_last, &r, msg, msg_len);
  if (e != CZ_OK) return e;
  for (size_t i = 0; i < n_challenges; i++)
    if (challenges[i] >= tree_r_last->n_leaves)
      return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                        "challenges[%zu]: leaf %llu is not below the %zu leaves", i,
                        (unsigned long long)challenges[i], tree_r_last->n_leaves);

  cz_post_sector_proof *sp = calloc(1, sizeof *sp);
  cz_post_inclusion *inc = sp ? calloc(n_challenges, sizeof *inc) : NULL;
  if (!inc) {
    free(sp);
    return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory for %zu inclusion proofs",
                      n_challenges);
  }
  out->sector_id = sector_id;
  out->comm_r = r;
  out->sectors = sp;
  out->n_sectors = 1;
  sp->inclusions = inc;
  sp->comm_c = *comm_c;
  sp->comm_r_last = *comm_r_last;
  for (size_t i = 0; i < n_challenges; i++) {
    e = cz_post_inclusion_prove(tree_r_last, challenges[i], &inc[i]);
    /* vanilla_proof: proof.validate(challenge) && proof.root() == comm_r_last. */
    if (e == CZ_OK && !cz_merkle_verify(&inc[i].proof)) e = CZ_ERR_INVALID_ARG;
    if (e != CZ_OK) {
      cz_post_vanilla_free(out);
      return cz_msg_err(msg, msg_len, e,
                        "challenges[%zu]: the inclusion proof of leaf %llu "
                        "does not verify (a damaged tree)",
                        i, (unsigned long long)challenges[i]);
    }
    sp->n_inclusions++;
  }
  return CZ_OK;
}
