/* The registered seal proofs (filecoin-proofs-api RegisteredSealProof) and
 * their configurations (filecoin-proofs constants: LAYERS,
 * POREP_MINIMUM_CHALLENGES, POREP_PARTITIONS, the SectorShape trees).
 * Challenges are per partition: filecoin-proofs parameters.rs
 * select_challenges takes div_ceil(minimum total, partitions), so 32/64 GiB
 * (176 total, 10 partitions) have 18 (MAX_CHALLENGES_PER_PARTITION), which
 * is also what the official v28 parameter names hash (registry/param_name.c).
 * SyntheticPoRep (10-14) keeps V1_1's partitions and challenges; NI-PoRep
 * (15-19) has no seed and proves at least 26 (small sizes) or 2,253
 * (32/64 GiB) challenges in partitions of the same 2 or 18: 13 or 126
 * partitions (constants.rs get_porep_non_interactive_partitions). Both are
 * ApiVersion 1.2.0 and reuse the interactive circuit and parameters. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/porep.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)

/* tree C / tree R-last: LCTree<PoseidonHasher, U8, sub, top>. */
#define TREE(sub, top) \
  { CZ_MERKLE_POSEIDON, 8, (sub), (top) }
#define SMALL(bytes) \
  { (bytes) / 32, 2, 2, TREE(0, 0) }
#define LARGE(bytes, top) \
  { (bytes) / 32, 11, 18, TREE(8, (top)) }
#define SYN CZ_API_1_2_0, CZ_POREP_SYNTHETIC
#define NI CZ_API_1_2_0, CZ_POREP_NI

/* One registered proof: id, name suffix, its size's V1 tag, sector bytes,
 * partitions, shape, API version and rule. */
#define KIND(id, size, suffix, bytes, parts, shape, api_rule) \
  { id, "StackedDrg" size suffix, "StackedDrg" size "V1", size, bytes, parts, shape, api_rule }
#define V1 CZ_API_1_0_0, CZ_POREP_INTERACTIVE
#define V1_1 CZ_API_1_1_0, CZ_POREP_INTERACTIVE

static const cz_registered_porep table[] = {
    KIND(0, "2KiB", "V1", 2 * KIB, 1, SMALL(2 * KIB), V1),
    KIND(1, "8MiB", "V1", 8 * MIB, 1, SMALL(8 * MIB), V1),
    KIND(2, "512MiB", "V1", 512 * MIB, 1, SMALL(512 * MIB), V1),
    KIND(3, "32GiB", "V1", 32 * GIB, 10, LARGE(32 * GIB, 0), V1),
    KIND(4, "64GiB", "V1", 64 * GIB, 10, LARGE(64 * GIB, 2), V1),
    KIND(5, "2KiB", "V1_1", 2 * KIB, 1, SMALL(2 * KIB), V1_1),
    KIND(6, "8MiB", "V1_1", 8 * MIB, 1, SMALL(8 * MIB), V1_1),
    KIND(7, "512MiB", "V1_1", 512 * MIB, 1, SMALL(512 * MIB), V1_1),
    KIND(8, "32GiB", "V1_1", 32 * GIB, 10, LARGE(32 * GIB, 0), V1_1),
    KIND(9, "64GiB", "V1_1", 64 * GIB, 10, LARGE(64 * GIB, 2), V1_1),
    KIND(10, "2KiB", "V1_1_Feat_SyntheticPoRep", 2 * KIB, 1, SMALL(2 * KIB), SYN),
    KIND(11, "8MiB", "V1_1_Feat_SyntheticPoRep", 8 * MIB, 1, SMALL(8 * MIB), SYN),
    KIND(12, "512MiB", "V1_1_Feat_SyntheticPoRep", 512 * MIB, 1, SMALL(512 * MIB), SYN),
    KIND(13, "32GiB", "V1_1_Feat_SyntheticPoRep", 32 * GIB, 10, LARGE(32 * GIB, 0), SYN),
    KIND(14, "64GiB", "V1_1_Feat_SyntheticPoRep", 64 * GIB, 10, LARGE(64 * GIB, 2), SYN),
    KIND(15, "2KiB", "V1_2_Feat_NonInteractivePoRep", 2 * KIB, 13, SMALL(2 * KIB), NI),
    KIND(16, "8MiB", "V1_2_Feat_NonInteractivePoRep", 8 * MIB, 13, SMALL(8 * MIB), NI),
    KIND(17, "512MiB", "V1_2_Feat_NonInteractivePoRep", 512 * MIB, 13, SMALL(512 * MIB), NI),
    KIND(18, "32GiB", "V1_2_Feat_NonInteractivePoRep", 32 * GIB, 126, LARGE(32 * GIB, 0), NI),
    KIND(19, "64GiB", "V1_2_Feat_NonInteractivePoRep", 64 * GIB, 126, LARGE(64 * GIB, 2), NI),
};
_Static_assert(sizeof table / sizeof table[0] == CZ_REGISTERED_POREP_COUNT,
               "every registered seal proof");
#define N_TABLE (sizeof table / sizeof table[0])

const cz_registered_porep *cz_registered_porep_by_id(uint32_t id) {
  return id < N_TABLE ? &table[id] : NULL;
}

const cz_registered_porep *cz_registered_porep_by_name(const char *name) {
  for (size_t i = 0; name && i < N_TABLE; i++)
    if (strcmp(table[i].name, name) == 0) return &table[i];
  return NULL;
}

const cz_registered_porep *cz_registered_porep_by_sector_size(uint64_t sector_size, bool v1_1) {
  for (size_t i = 0; i < N_TABLE; i++)
    if (table[i].sector_size == sector_size && table[i].rule == CZ_POREP_INTERACTIVE &&
        (table[i].api == CZ_API_1_1_0) == v1_1)
      return &table[i];
  return NULL;
}

void cz_registered_porep_config(const cz_registered_porep *k, cz_porep_config *cfg) {
  memset(cfg, 0, sizeof *cfg);
  cfg->sector_size = k->sector_size;
  cz_porep_id(cfg->porep_id, k->id, 0);
  cfg->api = k->api;
  cfg->challenges = k->shape.challenges;
  cfg->partitions = k->partitions;
  cfg->rule = k->rule;
}

cz_err cz_porep_c1_alloc(cz_porep_c1 *c1, const cz_registered_porep *registered) {
  memset(c1, 0, sizeof *c1);
  size_t n = (size_t)registered->partitions * registered->shape.challenges;
  c1->proofs = calloc(n, sizeof *c1->proofs);
  if (!c1->proofs) return CZ_ERR_NOMEM;
  c1->registered = registered;
  c1->n_partitions = registered->partitions;
  c1->n_challenges = registered->shape.challenges;
  return CZ_OK;
}

void cz_porep_c1_free(cz_porep_c1 *c1) {
  free(c1->proofs);
  memset(c1, 0, sizeof *c1);
}
