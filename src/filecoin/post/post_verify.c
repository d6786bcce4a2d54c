/* The native vanilla PoSt verifier: storage-proofs-post fallback/vanilla.rs
 * FallbackPoSt::verify for one partition, over the per-sector
 * FallbackPoStSectorProofs that filecoin-proofs' single_partition_vanilla_
 * proofs assembles into the partition's proof (post_util.rs), plus the
 * equalities the circuit enforces (fallback/circuit.rs: the root of every
 * path is the SectorProof's comm_r_last, comm_r = H(comm_c, comm_r_last)).
 *
 * Order of the checks per sector, as vanilla.rs: the public sector, the
 * comm_r relation, the inclusion count, then per inclusion the shape, the
 * challenged leaf, the root and the path. The first failure is reported. */
#include <stdio.h>
#include <string.h>

#include "cuzk/poseidon.h"
#include "cuzk/post.h"
#include "filecoin/bincode/bincode.h"
#include "filecoin/post/post_internal.h"
#include "util/msg.h"

/* The most challenges one vanilla proof opens (WinningPoSt's 66). */
#define MAX_CHALLENGES 66

/* What every inclusion proof of k must look like. */
typedef struct {
  uint32_t variant, n_base, n_sub, n_top;
} want_shape;

static want_shape shape_of(const cz_registered_post *k) {
  const cz_merkle_shape *t = &k->tree_r;
  want_shape w = {t->top_arity   ? 2u
                  : t->sub_arity ? 1u
                                 : 0u,
                  0, t->sub_arity ? 1u : 0u, t->top_arity ? 1u : 0u};
  /* merkle/proof.rs compound_path_length over sector_size / 32 leaves. */
  w.n_base =
      (uint32_t)(cz_merkle_proof_levels(t, (size_t)(k->sector_size / 32)) - w.n_sub - w.n_top);
  return w;
}

static cz_err check_shape(const cz_registered_post *k, const want_shape *w,
                          const cz_post_inclusion *inc, const char *name, char *msg,
                          size_t msg_len) {
  const cz_merkle_shape *t = &k->tree_r;
  if (inc->variant != w->variant || inc->n_base != w->n_base || inc->n_sub != w->n_sub ||
      inc->n_top != w->n_top)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "%s: a %s proof with %u/%u/%u base/sub/top levels; %s (tree %u-%u-%u) "
                      "needs %s with %u/%u/%u",
                      name, cz_bc_variant_name(inc->variant), inc->n_base, inc->n_sub, inc->n_top,
                      k->name, t->base_arity, t->sub_arity, t->top_arity,
                      cz_bc_variant_name(w->variant), w->n_base, w->n_sub, w->n_top);
  for (size_t l = 0; l < inc->proof.n_levels; l++) {
    unsigned want = l < w->n_base                      ? t->base_arity
                    : l < (size_t)w->n_base + w->n_sub ? t->sub_arity
                                                       : t->top_arity;
    if (inc->proof.arity[l] != want)
      return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                        "%s: level %zu has arity %u; %s (tree %u-%u-%u) needs %u", name, l,
                        inc->proof.arity[l], k->name, t->base_arity, t->sub_arity, t->top_arity,
                        want);
  }
  return CZ_OK;
}

/* One inclusion proof against its challenge and comm_r_last. */
static cz_err check_inclusion(const cz_registered_post *k, const want_shape *w,
                              const cz_post_inclusion *inc, uint64_t challenge,
                              const cz_fr *comm_r_last, const char *name, char *msg,
                              size_t msg_len) {
  cz_err e = check_shape(k, w, inc, name, msg, msg_len);
  if (e != CZ_OK) return e;
  const cz_merkle_proof *p = &inc->proof;
  if ((uint64_t)p->challenge != challenge)
    return cz_msg_err(msg, msg_len, CZ_ERR_PROOF_INVALID,
                      "%s: leaf index %llu is not the challenge %llu", name,
                      (unsigned long long)p->challenge, (unsigned long long)challenge);
  if (!cz_fr_eq(&p->root, comm_r_last))
    return cz_msg_err(msg, msg_len, CZ_ERR_PROOF_INVALID, "%s.root: differs from comm_r_last",
                      name);
  if (!cz_merkle_verify(p))
    return cz_msg_err(msg, msg_len, CZ_ERR_PROOF_INVALID,
                      "%s: the path from the leaf does not hash to the root", name);
  return CZ_OK;
}

/* The public side of sector i: its id and comm_r, against the proof's. */
static cz_err check_public(const cz_post_sector *s, const cz_post_vanilla *v, size_t i,
                           const char *name, char *msg, size_t msg_len) {
  char what[48];
  cz_fr comm_r;
  snprintf(what, sizeof what, "sectors[%zu].comm_r", i);
  cz_err e = cz_post_check_fr(s->comm_r, what, &comm_r, msg, msg_len);
  if (e != CZ_OK) return e;
  if (v->sector_id != s->sector_id)
    return cz_msg_err(msg, msg_len, CZ_ERR_PROOF_INVALID,
                      "%s.sector_id: %llu is not the challenged sector %llu", name,
                      (unsigned long long)v->sector_id, (unsigned long long)s->sector_id);
  if (!cz_fr_eq(&v->comm_r, &comm_r))
    return cz_msg_err(msg, msg_len, CZ_ERR_PROOF_INVALID,
                      "%s.comm_r: differs from the comm_r of sector %llu", name,
                      (unsigned long long)s->sector_id);
  return CZ_OK;
}

static cz_err verify_sector(const cz_registered_post *k, const want_shape *w,
                            const uint8_t randomness[32], uint64_t sector_index,
                            const cz_post_sector *s, const cz_post_vanilla *v, size_t i, char *msg,
                            size_t msg_len) {
  char name[160];
  snprintf(name, sizeof name, "vanilla_proofs[%zu]", i);
  cz_err e = check_public(s, v, i, name, msg, msg_len);
  if (e != CZ_OK) return e;
  /* generate_single_vanilla_proof writes one SectorProof; post_util.rs
   * requires it for WinningPoSt and the circuit's slot count needs it for
   * WindowPoSt. */
  if (v->n_sectors != 1 || !v->sectors)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "%s.sectors: %zu sector proofs (a single-sector vanilla proof has 1)", name,
                      v->n_sectors);
  const cz_post_sector_proof *sp = &v->sectors[0];
  size_t at = strlen(name);
  snprintf(name + at, sizeof name - at, ".sectors[0]");
  cz_fr pair[2] = {sp->comm_c, sp->comm_r_last}, h;
  if ((e = cz_poseidon_hash(2, pair, &h)) != CZ_OK)
    return cz_msg_err(msg, msg_len, e, "%s: Poseidon-2 unavailable", name);
  if (!cz_fr_eq(&h, &v->comm_r))
    return cz_msg_err(msg, msg_len, CZ_ERR_PROOF_INVALID,
                      "%s: comm_r != Poseidon(comm_c, comm_r_last)", name);
  if (sp->n_inclusions != k->config_challenge_count || !sp->inclusions)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "%s.inclusion_proofs: %zu proofs (%s opens %u challenges per sector)", name,
                      sp->n_inclusions, k->name, k->config_challenge_count);
  uint64_t ch[MAX_CHALLENGES];
  if ((e = cz_post_sector_challenges(k, randomness, sector_index, v->sector_id, ch, msg,
                                     msg_len)) != CZ_OK)
    return e;
  at = strlen(name);
  for (size_t j = 0; j < sp->n_inclusions; j++) {
    snprintf(name + at, sizeof name - at, ".inclusion_proofs[%zu]", j);
    e = check_inclusion(k, w, &sp->inclusions[j], ch[j], &sp->comm_r_last, name, msg, msg_len);
    if (e != CZ_OK) return e;
  }
  return CZ_OK;
}

cz_err cz_post_vanilla_verify(const cz_post_challenge_seed *seed, const cz_post_sector *sectors,
                              const cz_post_vanilla *proofs, size_t n, char *msg, size_t msg_len) {
  if (msg && msg_len) msg[0] = 0;
  const cz_registered_post *k = seed ? seed->registered : NULL;
  const uint8_t *randomness = seed ? seed->randomness : NULL;
  const uint8_t *prover_id = seed ? seed->prover_id : NULL;
  uint32_t partition = seed ? seed->partition : 0;
  if (!k || !randomness || !prover_id || !sectors || !proofs)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "verify vanilla: NULL argument");
  if (k->config_challenge_count > MAX_CHALLENGES)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "%s: unsupported challenge count", k->name);
  size_t slots;
  cz_err e = cz_post_partition_slots(k, partition, n, &slots, msg, msg_len);
  if (e == CZ_OK) e = cz_post_check_fr(randomness, "randomness", NULL, msg, msg_len);
  if (e == CZ_OK) e = cz_post_check_fr(prover_id, "prover_id", NULL, msg, msg_len);
  if (e != CZ_OK) return e;
  want_shape w = shape_of(k);
  for (size_t i = 0; i < n; i++) {
    /* A vanilla proof's challenges count sectors across the whole PoSt;
     * WinningPoSt's one sector is sector 0 of its 66 challenges. */
    uint64_t sector_index =
        k->type == CZ_POST_WINNING ? 0 : (uint64_t)partition * k->sector_count + i;
    e = verify_sector(k, &w, randomness, sector_index, &sectors[i], &proofs[i], i, msg, msg_len);
    if (e != CZ_OK) return e;
  }
  return CZ_OK;
}
