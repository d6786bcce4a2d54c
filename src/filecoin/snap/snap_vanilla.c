/* bincode 1 reader and writer for storage-proofs-update's PartitionProof
 * (vanilla.rs), on the MerkleProof code shared with PoSt
 * (filecoin/bincode/bincode.h). Field order from vanilla.rs:
 *
 *   PartitionProof { comm_c: TreeRDomain, apex_leafs: Vec<TreeDDomain>,
 *                    challenge_proofs: Vec<ChallengeProof> }
 *   ChallengeProof { proof_r_old: MerkleProof<Poseidon, tree R arities>,
 *                    proof_d_new: MerkleProof<Sha256, U2>,
 *                    proof_r_new: MerkleProof<Poseidon, tree R arities> }
 *
 * Both domains serialize as [u8; 32]. A 2 KiB partition is
 * 32 + 8 + 8 x 32 + 8 + 10 x (556 + 364 + 556) = 15,064 bytes: tree R
 * 8-0-0 is Single with 2 levels of 7 hashes (4 + 64 + 8 + 2 x 240), tree D
 * Single with 6 levels of 1 (4 + 64 + 8 + 6 x 48). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/snap.h"
#include "filecoin/bincode/bincode.h"
#include "util/msg.h"

#define MIN_CHALLENGE_PROOF (3 * CZ_BC_MIN_MERKLE)

static const struct {
  const char *name;
  cz_merkle_hasher hasher;
  size_t offset;
} fields[3] = {
    {".proof_r_old", CZ_MERKLE_POSEIDON, offsetof(cz_snap_challenge_proof, proof_r_old)},
    {".proof_d_new", CZ_MERKLE_SHA256, offsetof(cz_snap_challenge_proof, proof_d_new)},
    {".proof_r_new", CZ_MERKLE_POSEIDON, offsetof(cz_snap_challenge_proof, proof_r_new)},
};

static cz_vanilla_merkle *field_of(cz_snap_challenge_proof *c, int f) {
  return (cz_vanilla_merkle *)((char *)c + fields[f].offset);
}

static const cz_vanilla_merkle *cfield_of(const cz_snap_challenge_proof *c, int f) {
  return (const cz_vanilla_merkle *)((const char *)c + fields[f].offset);
}

static cz_err get_challenge(cz_bc_reader *r, cz_snap_challenge_proof *c) {
  cz_err e = CZ_OK;
  for (int f = 0; e == CZ_OK && f < 3; f++) {
    size_t old = cz_bc_push(r, "%s", fields[f].name);
    e = cz_bc_merkle(r, fields[f].hasher, field_of(c, f));
    cz_bc_pop(r, old);
  }
  return e;
}

static cz_err get_apex(cz_bc_reader *r, cz_snap_partition_proof *v) {
  size_t old = cz_bc_push(r, ".apex_leafs");
  uint64_t n;
  cz_err e = cz_bc_len(r, CZ_BC_HASH, &n);
  if (e == CZ_OK && n) {
    v->apex_leaves = calloc((size_t)n, sizeof *v->apex_leaves);
    if (!v->apex_leaves)
      e = cz_bc_fail(r, CZ_ERR_NOMEM, "out of memory for %llu leaves", (unsigned long long)n);
  }
  for (uint64_t i = 0; e == CZ_OK && i < n; i++) {
    char idx[24];
    snprintf(idx, sizeof idx, "[%llu]", (unsigned long long)i);
    e = cz_bc_fr(r, idx, &v->apex_leaves[i]);
    if (e == CZ_OK) v->n_apex++;
  }
  cz_bc_pop(r, old);
  return e;
}

static cz_err get_partition(cz_bc_reader *r, void *out) {
  cz_snap_partition_proof *v = out;
  cz_err e;
  if ((e = cz_bc_fr(r, ".comm_c", &v->comm_c)) != CZ_OK) return e;
  if ((e = get_apex(r, v)) != CZ_OK) return e;
  size_t old = cz_bc_push(r, ".challenge_proofs");
  uint64_t n;
  e = cz_bc_len(r, MIN_CHALLENGE_PROOF, &n);
  if (e == CZ_OK && n) {
    v->challenges = calloc((size_t)n, sizeof *v->challenges);
    if (!v->challenges)
      e = cz_bc_fail(r, CZ_ERR_NOMEM, "out of memory for %llu challenge proofs",
                     (unsigned long long)n);
  }
  for (uint64_t i = 0; e == CZ_OK && i < n; i++) {
    size_t o2 = cz_bc_push(r, "[%llu]", (unsigned long long)i);
    e = get_challenge(r, &v->challenges[i]);
    if (e == CZ_OK) v->n_challenges++;
    cz_bc_pop(r, o2);
  }
  cz_bc_pop(r, old);
  return e;
}

cz_err cz_snap_vanilla_parse(cz_snap_partition_proof *out, const uint8_t *in, size_t len,
                             size_t index, char *msg, size_t msg_len) {
  if (msg && msg_len) msg[0] = 0;
  if (!out) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "vanilla proof: NULL output");
  memset(out, 0, sizeof *out);
  if (!in && len) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "vanilla proof: NULL input");
  cz_err e = cz_bc_read_all(in, len, index, get_partition, out, msg, msg_len);
  if (e != CZ_OK) cz_snap_vanilla_free(out);
  return e;
}

void cz_snap_vanilla_free(cz_snap_partition_proof *v) {
  if (!v) return;
  free(v->apex_leaves);
  free(v->challenges);
  memset(v, 0, sizeof *v);
}

size_t cz_snap_vanilla_write(uint8_t *out, const cz_snap_partition_proof *v) {
  if (!v || (v->n_apex && !v->apex_leaves) || (v->n_challenges && !v->challenges)) return 0;
  size_t total = 32 + 8 + v->n_apex * 32 + 8;
  for (size_t i = 0; i < v->n_challenges; i++)
    for (int f = 0; f < 3; f++) {
      const cz_vanilla_merkle *m = cfield_of(&v->challenges[i], f);
      if (!cz_bc_merkle_ok(m)) return 0;
      total += cz_bc_merkle_bytes(m);
    }
  if (!out) return total;
  uint8_t *o = cz_bc_put_fr(out, &v->comm_c);
  o = cz_bc_put_u64(o, v->n_apex);
  for (size_t i = 0; i < v->n_apex; i++) o = cz_bc_put_fr(o, &v->apex_leaves[i]);
  o = cz_bc_put_u64(o, v->n_challenges);
  for (size_t i = 0; i < v->n_challenges; i++)
    for (int f = 0; f < 3; f++) o = cz_bc_put_merkle(o, cfield_of(&v->challenges[i], f));
  return (size_t)(o - out);
}
