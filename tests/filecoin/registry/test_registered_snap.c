/* The registered update proofs (SnapDeals), their constants and their
 * parameter names.
 *
 * Names: the "v28-empty-sector-update-merkletree-...params" keys of
 * rust-fil-proofs' parameters.json (commit 87348a74) with their
 * sector_size; the 2 KiB one ends in -8-0-0-fb9e095b.
 * Constants: storage-proofs-update constants.rs (partition_count,
 * challenge_count, hs, apex_leaf_count, validate_tree_r_shape). */
#include <string.h>

#include "check.h"
#include "cuzk/registry.h"

#define NAME(tree, hash) "v28-empty-sector-update-merkletree-poseidon_hasher-" tree "-" hash

static const struct {
  uint64_t sector_size;
  const char *name;
} official[] = {
    {2048, NAME("8-0-0", "fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194")},
    {8388608, NAME("8-0-0", "92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63")},
    {536870912, NAME("8-0-0", "61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c")},
    {34359738368ull,
     NAME("8-8-0", "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18")},
    {68719476736ull,
     NAME("8-8-2", "102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7")},
};

static void test_names(void) {
  for (uint32_t id = 0; id < CZ_REGISTERED_SNAP_COUNT; id++) {
    const cz_registered_snap *k = cz_registered_snap_by_id(id);
    CHECK(k != NULL && k->id == id);
    if (!k) continue;
    CHECK_EQ_INT(official[id].sector_size, k->sector_size);
    char name[256];
    size_t n = cz_snap_param_name(&k->shape, name, sizeof name);
    CHECK_EQ_INT(n, strlen(official[id].name));
    CHECK(strcmp(name, official[id].name) == 0);
    if (strcmp(name, official[id].name)) fprintf(stderr, "registered proof %u: got %s\n", id, name);
    char small[16];
    CHECK_EQ_INT(cz_snap_param_name(&k->shape, small, sizeof small), n);
    CHECK_EQ_INT(strlen(small), sizeof small - 1);
  }
  char id[96];
  cz_snap_param_identifier(64, id, sizeof id);
  CHECK(strcmp(id, "empty_sector_update::PublicParams{ sector_nodes: 64 }") == 0);
}

/* constants.rs per sector size: partitions, challenges, h, apex leaves;
 * all V1 registered proofs are ApiVersion 1.1.0. */
static void test_table(void) {
  static const struct {
    const char *name;
    uint32_t partitions, challenges, h, apex;
    unsigned sub, top;
  } want[CZ_REGISTERED_SNAP_COUNT] = {
      {"StackedDrg2KiBV1", 1, 10, 1, 8, 0, 0},       {"StackedDrg8MiBV1", 4, 10, 10, 128, 0, 0},
      {"StackedDrg512MiBV1", 16, 86, 10, 128, 0, 0}, {"StackedDrg32GiBV1", 16, 86, 10, 128, 8, 0},
      {"StackedDrg64GiBV1", 16, 86, 10, 128, 8, 2},
  };
  for (uint32_t id = 0; id < CZ_REGISTERED_SNAP_COUNT; id++) {
    const cz_registered_snap *k = cz_registered_snap_by_id(id);
    if (!k) continue;
    CHECK(strcmp(k->name, want[id].name) == 0);
    CHECK(cz_registered_snap_by_name(want[id].name) == k);
    CHECK(cz_registered_snap_by_sector_size(k->sector_size) == k);
    CHECK_EQ_INT(k->api, CZ_API_1_1_0);
    CHECK_EQ_INT(k->shape.nodes, k->sector_size / 32);
    CHECK_EQ_INT(k->shape.partitions, want[id].partitions);
    CHECK_EQ_INT(k->shape.challenges, want[id].challenges);
    CHECK_EQ_INT(k->shape.h, want[id].h);
    CHECK_EQ_INT(k->shape.apex_leaves, want[id].apex);
    CHECK_EQ_INT(k->shape.tree_r.hasher, CZ_MERKLE_POSEIDON);
    CHECK_EQ_INT(k->shape.tree_r.base_arity, 8);
    CHECK_EQ_INT(k->shape.tree_r.sub_arity, want[id].sub);
    CHECK_EQ_INT(k->shape.tree_r.top_arity, want[id].top);
  }
  CHECK(cz_registered_snap_by_id(CZ_REGISTERED_SNAP_COUNT) == NULL);
  CHECK(cz_registered_snap_by_name("StackedDrg2KiBV1_1") == NULL);
  CHECK(cz_registered_snap_by_name(NULL) == NULL);
  CHECK(cz_registered_snap_by_sector_size(4096) == NULL);
}

/* The test sizes of constants.rs: the partition rule's edges, hs. */
static void test_shapes(void) {
  static const struct {
    uint64_t nodes;
    uint32_t partitions, challenges, apex, hs0;
    unsigned sub, top;
  } want[] = {
      {1 << 5, 1, 10, 8, 1, 4, 0},        {1 << 6, 1, 10, 8, 1, 0, 0},
      {1 << 7, 1, 10, 8, 1, 2, 0},        {1 << 8, 1, 10, 8, 1, 4, 0},
      {1 << 9, 2, 10, 128, 1, 8, 0},      {1 << 10, 2, 10, 128, 1, 8, 2},
      {1 << 18, 4, 10, 128, 7, 0, 0},     {1 << 19, 4, 10, 128, 7, 2, 0},
      {1 << 24, 16, 86, 128, 7, 0, 0},    {1ull << 30, 16, 86, 128, 7, 8, 0},
      {1ull << 31, 16, 86, 128, 7, 8, 2},
  };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    cz_snap_shape s;
    CHECK(cz_snap_shape_of(want[i].nodes, &s));
    CHECK_EQ_INT(s.partitions, want[i].partitions);
    CHECK_EQ_INT(s.challenges, want[i].challenges);
    CHECK_EQ_INT(s.apex_leaves, want[i].apex);
    for (unsigned j = 0; j < CZ_SNAP_N_HS; j++) CHECK_EQ_INT(s.hs[j], want[i].hs0 == 1 ? 1 : 7 + j);
    CHECK_EQ_INT(s.h, s.hs[3]);
    CHECK_EQ_INT(s.tree_r.sub_arity, want[i].sub);
    CHECK_EQ_INT(s.tree_r.top_arity, want[i].top);
  }
  cz_snap_shape s;
  CHECK(!cz_snap_shape_of(1 << 11, &s)); /* 64 KiB: not allowed */
  CHECK(!cz_snap_shape_of(0, &s));
  CHECK_EQ_INT(s.nodes, 0);
}

int main(void) {
  test_names();
  test_table();
  test_shapes();
  return check_report("test_registered_snap");
}
