/* v28 parameter names as rust-fil-proofs computes them, for every proof
 * kind (storage-proofs-core parameter_cache.rs):
 *   "v" VERSION "-" cache_prefix "-" hex(SHA-256(pub_params.identifier()))
 * with VERSION = 28 and ".params" / ".vk" appended by the caller.
 *
 * PoRep (StackedCompound, storage-proofs-porep stacked/circuit/proof.rs):
 *   cache_prefix = "stacked-proof-of-replication-" Tree::display() "-" G::name()
 * where Tree::display() = "merkletree-poseidon_hasher-8-<sub>-<top>"
 * (merkle/tree.rs) and G = Sha256Hasher ("sha256_hasher"). The identifier
 * strings are built in stacked/vanilla/params.rs (PublicParams),
 * stacked/vanilla/graph.rs (StackedGraph) and storage-proofs-core
 * drgraph.rs (BucketGraph, over the tree's hasher, Poseidon). Neither
 * porep_id nor the API version enters it: V1 and V1_1 share parameters.
 *
 * PoSt (FallbackPoStCompound, storage-proofs-post fallback/compound.rs):
 *   cache_prefix = "proof-of-spacetime-fallback-" Tree::display()
 * and the identifier is fallback::PublicParams' (vanilla.rs).
 *
 * SnapDeals (EmptySectorUpdateCompound, storage-proofs-update compound.rs):
 *   cache_prefix = "empty-sector-update-" Tree::display()
 * and the identifier is update PublicParams' (vanilla.rs), over
 * sector_nodes alone. */
#include <stdio.h>

#include "cuzk/registry.h"
#include "cuzk/sha256.h"

#define PARAM_VERSION 28 /* parameter_cache.rs VERSION */
#define TREE_HASHER "poseidon_hasher"
#define DATA_HASHER "sha256_hasher"

/* snprintf's length, or 0 for a formatting error (never happens here). */
static size_t fmt_len(int n) { return n < 0 ? 0 : (size_t)n; }

size_t cz_param_name_v28(const char *prefix, const char *identifier, size_t id_len, char *out,
                         size_t cap) {
  uint8_t d[CZ_SHA256_BYTES];
  cz_sha256_digest(d, identifier, id_len);
  char hex[2 * CZ_SHA256_BYTES + 1];
  for (int i = 0; i < CZ_SHA256_BYTES; i++) snprintf(hex + 2 * i, 3, "%02x", d[i]);
  return fmt_len(snprintf(out, cap, "v%d-%s-%s", PARAM_VERSION, prefix, hex));
}

size_t cz_porep_param_identifier(const cz_registered_porep *k, char *out, size_t cap) {
  const cz_porep_shape *s = &k->shape;
  /* The spacing is rust-fil-proofs' own (no ';' before "base_graph", a space
   * before the closing braces): the hash is over these exact bytes. */
  return fmt_len(snprintf(
      out, cap,
      "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: %d "
      "base_graph: drgraph::BucketGraph{size: %llu; degree: %d; hasher: " TREE_HASHER
      "} }, challenges: LayerChallenges { layers: %u, max_count: %u }, tree: "
      "merkletree-" TREE_HASHER "-%u-%u-%u }",
      CZ_SDR_EXP_DEGREE, (unsigned long long)s->nodes, CZ_SDR_BASE_DEGREE, s->layers, s->challenges,
      s->tree_r.base_arity, s->tree_r.sub_arity, s->tree_r.top_arity));
}

size_t cz_porep_param_name(const cz_registered_porep *k, char *out, size_t cap) {
  char id[512], prefix[128];
  size_t n = cz_porep_param_identifier(k, id, sizeof id);
  if (n >= sizeof id) n = 0; /* cannot happen for the registered proofs */
  const cz_merkle_shape *t = &k->shape.tree_r;
  snprintf(prefix, sizeof prefix,
           "stacked-proof-of-replication-merkletree-" TREE_HASHER "-%u-%u-%u-" DATA_HASHER,
           t->base_arity, t->sub_arity, t->top_arity);
  return cz_param_name_v28(prefix, id, n, out, cap);
}

size_t cz_post_param_identifier(const cz_registered_post *k, char *out, size_t cap) {
  /* vanilla.rs ParameterSetMetadata::identifier: no api_version, and the
   * counts are the PublicParams' (Winning after the swap). */
  return fmt_len(snprintf(out, cap,
                          "FallbackPoSt::PublicParams{sector_size: %llu, challenge_count: %u, "
                          "sector_count: %u}",
                          (unsigned long long)k->sector_size, k->challenge_count, k->sector_count));
}

size_t cz_post_param_name(const cz_registered_post *k, char *out, size_t cap) {
  char id[160], prefix[96];
  size_t n = cz_post_param_identifier(k, id, sizeof id);
  if (n >= sizeof id) n = 0; /* cannot happen: the longest is 86 bytes */
  const cz_merkle_shape *t = &k->tree_r;
  snprintf(prefix, sizeof prefix, "proof-of-spacetime-fallback-merkletree-" TREE_HASHER "-%u-%u-%u",
           t->base_arity, t->sub_arity, t->top_arity);
  return cz_param_name_v28(prefix, id, n, out, cap);
}

size_t cz_snap_param_identifier(uint64_t nodes, char *out, size_t cap) {
  /* vanilla.rs: a space after '{' and before '}', unlike PoSt's. */
  return fmt_len(snprintf(out, cap, "empty_sector_update::PublicParams{ sector_nodes: %llu }",
                          (unsigned long long)nodes));
}

size_t cz_snap_param_name(const cz_snap_shape *s, char *out, size_t cap) {
  char id[96], prefix[96];
  size_t n = cz_snap_param_identifier(s->nodes, id, sizeof id);
  if (n >= sizeof id) n = 0; /* cannot happen: at most 65 bytes */
  const cz_merkle_shape *t = &s->tree_r;
  snprintf(prefix, sizeof prefix, "empty-sector-update-merkletree-" TREE_HASHER "-%u-%u-%u",
           t->base_arity, t->sub_arity, t->top_arity);
  return cz_param_name_v28(prefix, id, n, out, cap);
}
