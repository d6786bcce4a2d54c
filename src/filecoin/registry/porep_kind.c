/* The registered seal proofs (filecoin-proofs-api RegisteredSealProof) and
 * their configurations (filecoin-proofs constants: LAYERS,
 * POREP_MINIMUM_CHALLENGES, POREP_PARTITIONS, the SectorShape trees).
 * Challenges are per partition: filecoin-proofs parameters.rs
 * select_challenges takes div_ceil(minimum total, partitions), so 32/64 GiB
 * (176 total, 10 partitions) have 18 (MAX_CHALLENGES_PER_PARTITION), which
 * is also what the official v28 parameter names hash (registry/param_name.c). */
#include <stdlib.h>
#include <string.h>

#include "cuzk/porep.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)

/* tree C / tree R-last: LCTree<PoseidonHasher, U8, sub, top>. */
#define TREE(sub, top) {CZ_MERKLE_POSEIDON, 8, (sub), (top)}
#define SMALL(bytes) {(bytes) / 32, 2, 2, TREE(0, 0)}

static const cz_porep_kind kinds[] = {
    {0, "StackedDrg2KiBV1", "StackedDrg2KiBV1", "2KiB", 2 * KIB, 1, SMALL(2 * KIB), CZ_API_1_0_0},
    {1, "StackedDrg8MiBV1", "StackedDrg8MiBV1", "8MiB", 8 * MIB, 1, SMALL(8 * MIB), CZ_API_1_0_0},
    {2, "StackedDrg512MiBV1", "StackedDrg512MiBV1", "512MiB", 512 * MIB, 1, SMALL(512 * MIB),
     CZ_API_1_0_0},
    {3, "StackedDrg32GiBV1", "StackedDrg32GiBV1", "32GiB", 32 * GIB, 10,
     {32 * GIB / 32, 11, 18, TREE(8, 0)}, CZ_API_1_0_0},
    {4, "StackedDrg64GiBV1", "StackedDrg64GiBV1", "64GiB", 64 * GIB, 10,
     {64 * GIB / 32, 11, 18, TREE(8, 2)}, CZ_API_1_0_0},
    {5, "StackedDrg2KiBV1_1", "StackedDrg2KiBV1", "2KiB", 2 * KIB, 1, SMALL(2 * KIB), CZ_API_1_1_0},
    {6, "StackedDrg8MiBV1_1", "StackedDrg8MiBV1", "8MiB", 8 * MIB, 1, SMALL(8 * MIB), CZ_API_1_1_0},
    {7, "StackedDrg512MiBV1_1", "StackedDrg512MiBV1", "512MiB", 512 * MIB, 1, SMALL(512 * MIB),
     CZ_API_1_1_0},
    {8, "StackedDrg32GiBV1_1", "StackedDrg32GiBV1", "32GiB", 32 * GIB, 10,
     {32 * GIB / 32, 11, 18, TREE(8, 0)}, CZ_API_1_1_0},
    {9, "StackedDrg64GiBV1_1", "StackedDrg64GiBV1", "64GiB", 64 * GIB, 10,
     {64 * GIB / 32, 11, 18, TREE(8, 2)}, CZ_API_1_1_0},
};
#define N_KINDS (sizeof kinds / sizeof kinds[0])

const cz_porep_kind *cz_porep_kind_by_id(uint32_t id) {
  return id < N_KINDS ? &kinds[id] : NULL;
}

const cz_porep_kind *cz_porep_kind_by_name(const char *name) {
  for (size_t i = 0; name && i < N_KINDS; i++)
    if (strcmp(kinds[i].name, name) == 0) return &kinds[i];
  return NULL;
}

const cz_porep_kind *cz_porep_kind_by_sector_size(uint64_t sector_size, bool v1_1) {
  for (size_t i = 0; i < N_KINDS; i++)
    if (kinds[i].sector_size == sector_size && (kinds[i].api == CZ_API_1_1_0) == v1_1)
      return &kinds[i];
  return NULL;
}

void cz_porep_kind_config(const cz_porep_kind *k, cz_porep_config *cfg) {
  memset(cfg, 0, sizeof *cfg);
  cfg->sector_size = k->sector_size;
  cz_porep_id(cfg->porep_id, k->id, 0);
  cfg->api = k->api;
  cfg->challenges = k->shape.challenges;
  cfg->partitions = k->partitions;
}

cz_err cz_porep_c1_alloc(cz_porep_c1 *c1, const cz_porep_kind *kind) {
  memset(c1, 0, sizeof *c1);
  size_t n = (size_t)kind->partitions * kind->shape.challenges;
  c1->proofs = calloc(n, sizeof *c1->proofs);
  if (!c1->proofs) return CZ_ERR_NOMEM;
  c1->kind = kind;
  c1->n_partitions = kind->partitions;
  c1->n_challenges = kind->shape.challenges;
  return CZ_OK;
}

void cz_porep_c1_free(cz_porep_c1 *c1) {
  free(c1->proofs);
  memset(c1, 0, sizeof *c1);
}
