/* The native vanilla verifier of one update partition (storage-proofs-update
 * vanilla.rs EmptySectorUpdate::verify), with the checks the circuit makes
 * too (circuit.rs), so that a proof that passes here synthesizes a
 * satisfied circuit. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/snap.h"
#include "filecoin/bincode/bincode.h"
#include "filecoin/snap/snap_internal.h"
#include "util/msg.h"

static unsigned log2u64(uint64_t v) {
  unsigned k = 0;
  while (k < 63 && (1ull << k) < v) k++;
  return k;
}

typedef struct {
  const cz_snap_shape *s;
  unsigned bits, partition_bits, apex_bits;
  size_t r_levels;
  unsigned r_arity[CZ_MERKLE_MAX_LEVELS];
  char *msg;
  size_t msg_len;
  size_t index;
} vctx;

#define BAD(x, ...) cz_msg_err((x)->msg, (x)->msg_len, CZ_ERR_PROOF_INVALID, __VA_ARGS__)

/* The variant, levels and arities the tree's MerkleProofs have. */
static bool r_shape_ok(const vctx *x, const cz_vanilla_merkle *m) {
  const cz_merkle_shape *t = &x->s->tree_r;
  uint32_t variant = t->top_arity ? 2 : t->sub_arity ? 1 : 0;
  if (m->variant != variant || m->proof.n_levels != x->r_levels ||
      m->n_sub != (t->sub_arity != 0) || m->n_top != (t->top_arity != 0))
    return false;
  for (size_t l = 0; l < x->r_levels; l++)
    if (m->proof.arity[l] != x->r_arity[l]) return false;
  return true;
}

static bool d_shape_ok(const vctx *x, const cz_vanilla_merkle *m) {
  if (m->variant != 0 || m->proof.n_levels != x->bits || m->n_base != x->bits) return false;
  for (size_t l = 0; l < x->bits; l++)
    if (m->proof.arity[l] != 2) return false;
  return true;
}

/* The node `levels` levels above the leaf on a binary SHA-256 path. */
static cz_err d_climb(const cz_merkle_proof *p, size_t from, size_t levels, cz_fr *cur) {
  cz_err e = CZ_OK;
  for (size_t l = from; e == CZ_OK && l < from + levels; l++) {
    cz_fr ch[2];
    ch[p->index[l]] = *cur;
    ch[1 - p->index[l]] = p->siblings[l][0];
    e = cz_merkle_hash_node(CZ_MERKLE_SHA256, 2, ch, cur);
  }
  return e;
}

/* The apex leaves up to their root, then the first challenge's partition
 * path to comm_d_new at position k. */
static cz_err check_apex(const vctx *x, uint32_t k, const cz_snap_partition_proof *p,
                         const cz_fr *comm_d_new) {
  cz_fr *row = malloc(x->s->apex_leaves * sizeof *row);
  if (!row) return cz_msg_err(x->msg, x->msg_len, CZ_ERR_NOMEM, "out of memory");
  memcpy(row, p->apex_leaves, x->s->apex_leaves * sizeof *row);
  cz_err e = CZ_OK;
  for (size_t n = x->s->apex_leaves; e == CZ_OK && n > 1; n /= 2)
    for (size_t i = 0; e == CZ_OK && i < n / 2; i++)
      e = cz_merkle_hash_node(CZ_MERKLE_SHA256, 2, &row[2 * i], &row[i]);
  cz_fr root = row[0];
  free(row);
  if (e != CZ_OK) return e;
  const cz_merkle_proof *d0 = &p->challenges[0].proof_d_new.proof;
  size_t top = x->bits - x->partition_bits;
  uint32_t at = 0;
  for (unsigned i = 0; i < x->partition_bits; i++) at |= d0->index[top + i] << i;
  if (at != k)
    return BAD(x,
               "vanilla_proofs[%zu].challenge_proofs[0].proof_d_new: its partition path is "
               "partition %u's, not %u's",
               x->index, at, k);
  if ((e = d_climb(d0, top, x->partition_bits, &root)) != CZ_OK) return e;
  if (!cz_fr_eq(&root, comm_d_new))
    return BAD(x, "vanilla_proofs[%zu].apex_leafs: they do not hash to comm_d_new", x->index);
  return CZ_OK;
}

static cz_err check_challenge(const vctx *x, size_t i, uint32_t c,
                              const cz_snap_challenge_proof *cp, const cz_fr *root_old,
                              const cz_fr *root_new, const cz_fr *comm_d_new, const cz_fr *phi,
                              const cz_snap_partition_proof *p) {
  static const char *const names[3] = {"proof_r_old", "proof_d_new", "proof_r_new"};
  const cz_vanilla_merkle *m[3] = {&cp->proof_r_old, &cp->proof_d_new, &cp->proof_r_new};
  const cz_fr *roots[3] = {root_old, comm_d_new, root_new};
  for (int f = 0; f < 3; f++) {
    bool shape = f == 1 ? d_shape_ok(x, m[f]) : r_shape_ok(x, m[f]);
    if (!shape)
      return BAD(x,
                 "vanilla_proofs[%zu].challenge_proofs[%zu].%s: not a path of the sector's "
                 "tree %s",
                 x->index, i, names[f], f == 1 ? "D (binary, Single)" : "R");
    if (m[f]->proof.challenge != c)
      return BAD(x,
                 "vanilla_proofs[%zu].challenge_proofs[%zu].%s: opens node %zu, not the "
                 "challenge %u",
                 x->index, i, names[f], m[f]->proof.challenge, c);
    if (!cz_fr_eq(&m[f]->proof.root, roots[f]) || !cz_merkle_verify(&m[f]->proof))
      return BAD(x, "vanilla_proofs[%zu].challenge_proofs[%zu].%s: the path does not lead to %s",
                 x->index, i, names[f],
                 f == 0   ? "root_r_old"
                 : f == 1 ? "comm_d_new"
                          : "root_r_new");
  }
  /* The tree-D path meets the apex leaf the challenge's bits select. */
  size_t to_apex = x->bits - x->partition_bits - x->apex_bits;
  cz_fr cur = cp->proof_d_new.proof.leaf;
  cz_err e = d_climb(&cp->proof_d_new.proof, 0, to_apex, &cur);
  if (e != CZ_OK) return e;
  size_t sel = (c >> to_apex) & (x->s->apex_leaves - 1);
  if (!cz_fr_eq(&cur, &p->apex_leaves[sel]))
    return BAD(x,
               "vanilla_proofs[%zu].challenge_proofs[%zu].proof_d_new: does not reach apex "
               "leaf %zu",
               x->index, i, sel);
  cz_fr rho, want;
  cz_snap_rho(&rho, phi, c >> (x->bits - x->s->h));
  cz_fr_mul(&want, &cp->proof_d_new.proof.leaf, &rho);
  cz_fr_add(&want, &want, &cp->proof_r_old.proof.leaf);
  if (!cz_fr_eq(&want, &cp->proof_r_new.proof.leaf))
    return BAD(x,
               "vanilla_proofs[%zu].challenge_proofs[%zu].proof_r_new: leaf is not "
               "leaf_r_old + leaf_d_new * rho",
               x->index, i);
  return CZ_OK;
}

cz_err cz_snap_vanilla_verify(const cz_snap_shape *s, uint32_t k, const cz_snap_comms *c,
                              const cz_snap_partition_proof *p, size_t index, char *msg,
                              size_t msg_len) {
  if (!s || !c || !p || k >= s->partitions)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "partition %u: missing argument or not a partition of this sector size", k);
  cz_fr comms[3];
  cz_err e = cz_snap_comms_fr(c, comms, msg, msg_len);
  if (e != CZ_OK) return e;
  cz_fr r_old = comms[0], d_new = comms[1], r_new = comms[2];
  vctx x = {.s = s, .msg = msg, .msg_len = msg_len, .index = index};
  x.bits = log2u64(s->nodes);
  x.partition_bits = log2u64(s->partitions);
  x.apex_bits = log2u64(s->apex_leaves);
  x.r_levels = cz_merkle_proof_levels(&s->tree_r, s->nodes);
  size_t base = x.r_levels - (s->tree_r.sub_arity != 0) - (s->tree_r.top_arity != 0);
  for (size_t l = 0; l < x.r_levels; l++)
    x.r_arity[l] = l < base                           ? s->tree_r.base_arity
                   : l == base && s->tree_r.sub_arity ? s->tree_r.sub_arity
                                                      : s->tree_r.top_arity;
  if (p->n_apex != s->apex_leaves || !p->apex_leaves)
    return BAD(&x, "vanilla_proofs[%zu].apex_leafs: %zu leaves, the sector size has %u", index,
               p->n_apex, s->apex_leaves);
  if (p->n_challenges != s->challenges || !p->challenges)
    return BAD(&x,
               "vanilla_proofs[%zu].challenge_proofs: %zu proofs, the sector size has %u "
               "challenges",
               index, p->n_challenges, s->challenges);
  const cz_fr *root_old = &p->challenges[0].proof_r_old.proof.root;
  const cz_fr *root_new = &p->challenges[0].proof_r_new.proof.root;
  cz_fr pair[2] = {p->comm_c, *root_old}, h;
  if ((e = cz_merkle_hash_node(CZ_MERKLE_POSEIDON, 2, pair, &h)) != CZ_OK) return e;
  if (!cz_fr_eq(&h, &r_old))
    return BAD(&x, "vanilla_proofs[%zu]: comm_r_old is not Poseidon(comm_c, root_r_old)", index);
  pair[1] = *root_new;
  if ((e = cz_merkle_hash_node(CZ_MERKLE_POSEIDON, 2, pair, &h)) != CZ_OK) return e;
  if (!cz_fr_eq(&h, &r_new))
    return BAD(&x, "vanilla_proofs[%zu]: comm_r_new is not Poseidon(comm_c, root_r_new)", index);
  if (!d_shape_ok(&x, &p->challenges[0].proof_d_new))
    return BAD(&x,
               "vanilla_proofs[%zu].challenge_proofs[0].proof_d_new: not a path of the "
               "sector's tree D (binary, Single)",
               index);
  if ((e = check_apex(&x, k, p, &d_new)) != CZ_OK) return e;
  uint32_t *ch = malloc(s->challenges * sizeof *ch);
  if (!ch) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  e = cz_snap_challenges(s, &r_new, k, ch);
  cz_fr phi;
  cz_snap_phi(&phi, &d_new, &r_old);
  for (size_t i = 0; e == CZ_OK && i < s->challenges; i++)
    e = check_challenge(&x, i, ch[i], &p->challenges[i], root_old, root_new, &d_new, &phi, p);
  free(ch);
  return e;
}
