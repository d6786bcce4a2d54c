/* The empty-sector-update (SnapDeals) constants and registered update
 * proofs: storage-proofs-update constants.rs (partition_count,
 * challenge_count, hs, h_default, apex_leaf_count, validate_tree_r_shape)
 * and filecoin-proofs-api registry.rs (RegisteredUpdateProof, ApiVersion
 * 1.1.0 for all five). The v28 names are checked against rust-fil-proofs'
 * parameters.json in tests/filecoin/registry/test_registered_snap.c. */
#include <string.h>

#include "cuzk/registry.h"

#define KIB_NODES 32ull /* 1 KiB = 32 nodes of 32 bytes */
#define MIB_NODES (1024ull * KIB_NODES)
#define GIB_NODES (1024ull * MIB_NODES)

/* ALLOWED_SECTOR_SIZES with the tree-R shape validate_tree_r_shape wants. */
static const struct {
  uint64_t nodes;
  unsigned sub, top;
} allowed[] = {
    {1 * KIB_NODES, 4, 0},   {2 * KIB_NODES, 0, 0},  {4 * KIB_NODES, 2, 0},  {8 * KIB_NODES, 4, 0},
    {16 * KIB_NODES, 8, 0},  {32 * KIB_NODES, 8, 2}, {8 * MIB_NODES, 0, 0},  {16 * MIB_NODES, 2, 0},
    {512 * MIB_NODES, 0, 0}, {32 * GIB_NODES, 8, 0}, {64 * GIB_NODES, 8, 2},
};

bool cz_snap_shape_of(uint64_t nodes, cz_snap_shape *out) {
  memset(out, 0, sizeof *out);
  size_t i = 0;
  while (i < sizeof allowed / sizeof allowed[0] && allowed[i].nodes != nodes) i++;
  if (i == sizeof allowed / sizeof allowed[0]) return false;
  out->nodes = nodes;
  out->partitions = nodes <= 8 * KIB_NODES    ? 1
                    : nodes <= 32 * KIB_NODES ? 2
                    : nodes <= 16 * MIB_NODES ? 4
                                              : 16;
  out->challenges = nodes <= 16 * MIB_NODES ? 10 : 86;
  out->apex_leaves = nodes <= 8 * KIB_NODES ? 8 : 128;
  for (unsigned j = 0; j < CZ_SNAP_N_HS; j++) out->hs[j] = nodes <= 32 * KIB_NODES ? 1 : 7 + j;
  out->h = out->hs[3];
  out->tree_r = (cz_merkle_shape){CZ_MERKLE_POSEIDON, 8, allowed[i].sub, allowed[i].top};
  return true;
}

static cz_registered_snap table[CZ_REGISTERED_SNAP_COUNT] = {
    {0, "StackedDrg2KiBV1", "2KiB", 2048ull, CZ_API_1_1_0, {0}},
    {1, "StackedDrg8MiBV1", "8MiB", 8ull << 20, CZ_API_1_1_0, {0}},
    {2, "StackedDrg512MiBV1", "512MiB", 512ull << 20, CZ_API_1_1_0, {0}},
    {3, "StackedDrg32GiBV1", "32GiB", 32ull << 30, CZ_API_1_1_0, {0}},
    {4, "StackedDrg64GiBV1", "64GiB", 64ull << 30, CZ_API_1_1_0, {0}},
};

/* The shapes come from cz_snap_shape_of, so the table cannot disagree with
 * the constants; filled once, before main (a constructor keeps the lookups
 * pure and lock-free). */
__attribute__((constructor)) static void fill_shapes(void) {
  for (size_t i = 0; i < CZ_REGISTERED_SNAP_COUNT; i++)
    cz_snap_shape_of(table[i].sector_size / 32, &table[i].shape);
}

const cz_registered_snap *cz_registered_snap_by_id(uint32_t id) {
  return id < CZ_REGISTERED_SNAP_COUNT ? &table[id] : NULL;
}

const cz_registered_snap *cz_registered_snap_by_name(const char *name) {
  for (size_t i = 0; name && i < CZ_REGISTERED_SNAP_COUNT; i++)
    if (strcmp(table[i].name, name) == 0) return &table[i];
  return NULL;
}

const cz_registered_snap *cz_registered_snap_by_sector_size(uint64_t sector_size) {
  for (size_t i = 0; i < CZ_REGISTERED_SNAP_COUNT; i++)
    if (table[i].sector_size == sector_size) return &table[i];
  return NULL;
}
