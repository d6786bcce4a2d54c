/* The fallback PoSt circuit (storage-proofs-post fallback/circuit.rs) and
 * its public inputs (fallback/compound.rs), on the PoR gadget of
 * storage-proofs-core (por.rs, Root::Val leaf and Root::Var root).
 *
 * Parallel synthesis: bellperson's synthesize_extendable synthesizes
 * chunks of sectors into fresh systems and appends them with
 * ConstraintSystem::extend (inputs after the chunk's "temp ONE", aux and
 * constraints in order). Every slot allocates the same number of inputs
 * and aux, so its variables land at fixed offsets: cz_post_witness
 * (post_witness.c) synthesizes PROVE and WITNESS runs so, through
 * cz_slots_synthesize. TEST, KEYGEN, RECORD and COUNT runs are serial.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/por.h"
#include "cuzk/post_circuit.h"
#include "util/msg.h"

size_t cz_post_circuit_input_count(size_t n_sectors, size_t n_challenges) {
  if (n_challenges >= SIZE_MAX || n_sectors > SIZE_MAX / (n_challenges + 1)) return 0;
  return n_sectors * (n_challenges + 1);
}

static unsigned log2u(unsigned a) {
  unsigned k = 0;
  while (1u << k < a) k++;
  return k;
}

/* The sizes alone. */
static cz_err check_sizes(const cz_merkle_shape *tree, size_t leaves, size_t n_sectors,
                          size_t n_challenges, char *msg, size_t msg_len) {
  if (!tree || !cz_merkle_shape_ok(tree, leaves))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "tree: not a valid shape for %zu leaves",
                      leaves);
  if (n_sectors == 0 || n_challenges == 0 ||
      cz_post_circuit_input_count(n_sectors, n_challenges) == 0)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "n_sectors, n_challenges: %zu x %zu is not a circuit size", n_sectors,
                      n_challenges);
  return CZ_OK;
}

/* One proof: shape, levels, arities, and its indices the digits of its
 * challenge (por.rs packs the index bits, compound.rs inputs the challenge). */
static cz_err check_proof(const cz_merkle_shape *tree, size_t leaves, size_t levels,
                          const cz_merkle_proof *p, size_t s, size_t c, char *msg, size_t msg_len) {
  if (p->shape.hasher != tree->hasher || p->shape.base_arity != tree->base_arity ||
      p->shape.sub_arity != tree->sub_arity || p->shape.top_arity != tree->top_arity)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "sectors[%zu].proofs[%zu].shape: not the tree's shape", s, c);
  if (p->n_levels != levels)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "sectors[%zu].proofs[%zu].n_levels: %zu, the tree has %zu", s, c, p->n_levels,
                      levels);
  if (p->challenge >= leaves)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "sectors[%zu].proofs[%zu].challenge: %zu is not below the sector's %zu "
                      "leaves",
                      s, c, p->challenge, leaves);
  size_t base = levels - (tree->sub_arity != 0) - (tree->top_arity != 0), packed = 0, shift = 0;
  for (size_t l = 0; l < levels; l++) {
    unsigned want = l < base ? tree->base_arity : l == base ? tree->sub_arity : tree->top_arity;
    if (p->arity[l] != want)
      return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                        "sectors[%zu].proofs[%zu].arity[%zu]: %u, the tree's level has arity %u", s,
                        c, l, p->arity[l], want);
    if (p->index[l] >= want)
      return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                        "sectors[%zu].proofs[%zu].index[%zu]: %u is not below the arity %u", s, c,
                        l, p->index[l], want);
    packed |= (size_t)p->index[l] << shift;
    shift += log2u(want);
  }
  if (packed != p->challenge)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "sectors[%zu].proofs[%zu].index: the path leads to leaf %zu, not to the "
                      "challenge %zu",
                      s, c, packed, p->challenge);
  return CZ_OK;
}

cz_err cz_post_check_sectors(const cz_merkle_shape *tree, size_t sector_leaves, size_t n_sectors,
                             size_t n_challenges, const cz_post_slot *sectors, char *msg,
                             size_t msg_len) {
  cz_err e = check_sizes(tree, sector_leaves, n_sectors, n_challenges, msg, msg_len);
  if (e != CZ_OK) return e;
  if (!sectors) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "sectors: missing");
  size_t levels = cz_merkle_proof_levels(tree, sector_leaves);
  for (size_t s = 0; s < n_sectors; s++) {
    if (!sectors[s].proofs)
      return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "sectors[%zu].proofs: missing", s);
    for (size_t c = 0; c < n_challenges; c++) {
      e = check_proof(tree, sector_leaves, levels, &sectors[s].proofs[c], s, c, msg, msg_len);
      if (e != CZ_OK) return e;
    }
  }
  return CZ_OK;
}

/* AllocatedNum::alloc in namespace ns; value ignored without values. */
static void alloc_named(cz_cs *cs, cz_anum *out, const cz_fr *value, const char *ns) {
  CZ_PUSH_NS(cs, "%s", ns);
  cz_cs_sticky(cz_anum_alloc(cs, out, value ? value : &CZ_FR_ZERO));
  CZ_POP_NS(cs);
}

cz_err cz_post_sector_circuit(cz_cs *cs, const cz_merkle_shape *tree, size_t leaves,
                              size_t n_challenges, const cz_post_slot *w) {
  cz_anum comm_r_last, comm_c, comm_r, hash;
  alloc_named(cs, &comm_r_last, w ? &w->comm_r_last : NULL, "comm_r_last");
  alloc_named(cs, &comm_c, w ? &w->comm_c : NULL, "comm_c");
  alloc_named(cs, &comm_r, w ? &w->comm_r : NULL, "comm_r");
  CZ_PUSH_NS(cs, "comm_r_input");
  cz_cs_sticky(cz_anum_inputize(cs, &comm_r));
  CZ_POP_NS(cs);
  /* H(comm_c || comm_r_last) == comm_r: hash2_circuit, then
   * constraint::equal(comm_r, hash) in the sector's namespace. */
  CZ_PUSH_NS(cs, "H_comm_c_comm_r_last");
  cz_err e = cz_merkle_hash2_circuit(cs, tree->hasher, &comm_c, &comm_r_last, &hash);
  CZ_POP_NS(cs);
  if (e == CZ_OK)
    e = cz_anum_enforce_equal(cs, &comm_r, &hash, "enforce_comm_c_comm_r_last_hash_comm_r");
  for (size_t i = 0; e == CZ_OK && i < n_challenges; i++) {
    CZ_PUSH_NS(cs, "challenge_inclusion_%zu", i);
    e = cz_por_circuit_var_root(cs, tree, leaves, w ? &w->proofs[i] : NULL, &comm_r_last, true);
    CZ_POP_NS(cs);
  }
  return e != CZ_OK ? e : cz_cs_error(cs);
}

cz_err cz_post_circuit(cz_cs *cs, const cz_merkle_shape *tree, size_t sector_leaves,
                       size_t n_sectors, size_t n_challenges, const cz_post_slot *sectors) {
  if (!cs) return CZ_ERR_INVALID_ARG;
  bool vals = cz_cs_needs_values(cs);
  cz_err e =
      vals ? cz_post_check_sectors(tree, sector_leaves, n_sectors, n_challenges, sectors, NULL, 0)
           : check_sizes(tree, sector_leaves, n_sectors, n_challenges, NULL, 0);
  if (e != CZ_OK) return e;
  CZ_PUSH_NS(cs, "outer namespace");
  for (size_t s = 0; e == CZ_OK && s < n_sectors; s++) {
    CZ_PUSH_NS(cs, "sector_%zu", s);
    e = cz_post_sector_circuit(cs, tree, sector_leaves, n_challenges, vals ? &sectors[s] : NULL);
    CZ_POP_NS(cs);
  }
  CZ_POP_NS(cs);
  return e != CZ_OK ? e : cz_cs_error(cs);
}

cz_err cz_post_circuit_inputs(const cz_post_dims *d, const cz_post_slot *sectors, cz_fr *out,
                              size_t *n, char *msg, size_t msg_len) {
  if (!n || !d) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "n or sizes: missing");
  const cz_merkle_shape *tree = d->tree;
  size_t sector_leaves = d->sector_leaves, n_sectors = d->n_sectors, n_challenges = d->n_challenges;
  cz_err e =
      cz_post_check_sectors(tree, sector_leaves, n_sectors, n_challenges, sectors, msg, msg_len);
  if (e != CZ_OK) return e;
  size_t need = cz_post_circuit_input_count(n_sectors, n_challenges);
  if (!out || *n < need) {
    size_t cap = *n;
    *n = need;
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "out: room for %zu inputs, %zu needed",
                      out ? cap : 0, need);
  }
  size_t k = 0;
  for (size_t s = 0; s < n_sectors; s++) {
    out[k++] = sectors[s].comm_r;
    /* PoRCompound::generate_public_inputs: Fr::from(challenge as u64). */
    for (size_t c = 0; c < n_challenges; c++)
      cz_fr_from_u64(&out[k++], (uint64_t)sectors[s].proofs[c].challenge);
  }
  *n = k;
  return CZ_OK;
}
