/* The registered PoSt proofs, their parameter names and the prover id.
 *
 * Names: against the official ones in rust-fil-proofs' parameters.json
 * (github.com/filecoin-project/rust-fil-proofs, parameters.json at commit
 * 87348a74), the "v28-proof-of-spacetime-fallback-...params" keys with their
 * sector_size: two per size, the one whose hash matches the Winning or the
 * Window circuit. The 2 KiB Winning one is also the key of
 * tests/vectors/winningpost-2kib (its README: ...-8-0-0-3ea05428).
 * Counts: filecoin-proofs constants.rs and parameters.rs'
 * test_winning_post_params (sector_count 66, challenge_count 1). */
#include <string.h>

#include "check.h"
#include "cuzk/registry.h"

#define NAME(tree, hash) "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-" tree "-" hash

static const struct {
  uint64_t sector_size;
  const char *winning, *window;
} official[] = {
    {2048, NAME("8-0-0", "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e"),
     NAME("8-0-0", "0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0")},
    {8388608, NAME("8-0-0", "50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331"),
     NAME("8-0-0", "5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9")},
    {536870912, NAME("8-0-0", "7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781"),
     NAME("8-0-0", "0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9")},
    {34359738368ull,
     NAME("8-8-0", "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e"),
     NAME("8-8-0", "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc")},
    {68719476736ull,
     NAME("8-8-2", "b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c"),
     NAME("8-8-2", "2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def")},
};

static void test_names(void) {
  for (uint32_t id = 0; id < CZ_REGISTERED_POST_COUNT; id++) {
    const cz_registered_post *k = cz_registered_post_by_id(id);
    CHECK(k != NULL);
    if (!k) continue;
    CHECK_EQ_INT(k->id, id);
    const char *want = NULL;
    for (size_t i = 0; i < sizeof official / sizeof official[0]; i++)
      if (official[i].sector_size == k->sector_size)
        want = k->type == CZ_POST_WINNING ? official[i].winning : official[i].window;
    CHECK(want != NULL);
    if (!want) continue;
    char name[256];
    size_t n = cz_post_param_name(k, name, sizeof name);
    CHECK_EQ_INT(n, strlen(want));
    CHECK(strcmp(name, want) == 0);
    if (strcmp(name, want)) fprintf(stderr, "registered proof %u: got %s\n", id, name);
    /* Too small a buffer: truncated, NUL-terminated, full length returned. */
    char small[16];
    CHECK_EQ_INT(cz_post_param_name(k, small, sizeof small), n);
    CHECK_EQ_INT(strlen(small), sizeof small - 1);
  }
  /* The vector's key, by the prefix its README gives. */
  char name[256];
  cz_post_param_name(cz_registered_post_by_id(0), name, sizeof name);
  const char *prefix = "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-3ea05428";
  CHECK(strncmp(name, prefix, strlen(prefix)) == 0);
  /* The identifier as vanilla.rs formats it (after the Winning swap). */
  char id[128];
  cz_post_param_identifier(cz_registered_post_by_id(0), id, sizeof id);
  CHECK(strcmp(id,
               "FallbackPoSt::PublicParams{sector_size: 2048, challenge_count: 1, "
               "sector_count: 66}") == 0);
}

static void test_table(void) {
  static const char *sizes[5] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};
  static const unsigned sub[5] = {0, 0, 0, 8, 8}, top[5] = {0, 0, 0, 0, 2};
  static const uint32_t window_sectors[5] = {2, 2, 2, 2349, 2300};
  for (uint32_t id = 0; id < CZ_REGISTERED_POST_COUNT; id++) {
    const cz_registered_post *k = cz_registered_post_by_id(id);
    unsigned s = id % 5;
    bool winning = id < 5;
    char name[64];
    snprintf(name, sizeof name, "StackedDrg%s%s%s", winning ? "Winning" : "Window", sizes[s],
             id < 10 ? "V1" : "V1_1");
    CHECK(strcmp(k->name, name) == 0);
    CHECK(cz_registered_post_by_name(name) == k);
    CHECK_EQ_INT(k->type, winning ? CZ_POST_WINNING : CZ_POST_WINDOW);
    CHECK_EQ_INT(k->api, id < 10 ? CZ_API_1_0_0 : CZ_API_1_2_0);
    CHECK_EQ_INT(k->tree_r.hasher, CZ_MERKLE_POSEIDON);
    CHECK_EQ_INT(k->tree_r.base_arity, 8);
    CHECK_EQ_INT(k->tree_r.sub_arity, sub[s]);
    CHECK_EQ_INT(k->tree_r.top_arity, top[s]);
    CHECK(cz_merkle_shape_ok(&k->tree_r, (size_t)(k->sector_size / 32)));
    CHECK_EQ_INT(k->config_challenge_count, winning ? 66 : 10);
    CHECK_EQ_INT(k->config_sector_count, winning ? 1 : window_sectors[s]);
    /* The parameter swap: 66 slots of 1 challenge. */
    CHECK_EQ_INT(k->challenge_count, winning ? 1 : 10);
    CHECK_EQ_INT(k->sector_count, winning ? 66 : window_sectors[s]);
    CHECK_EQ_INT(cz_post_public_input_count(k), winning ? 132 : window_sectors[s] * 11);
  }
  CHECK(cz_registered_post_by_id(15) == NULL);
  CHECK(cz_registered_post_by_name("StackedDrgWindow32GiBV1_2") == NULL);
  CHECK(cz_registered_post_by_name(NULL) == NULL);
  CHECK_EQ_INT(cz_registered_post_by_id(3)->sector_size, 34359738368ull);
  CHECK_EQ_INT(cz_registered_post_by_id(14)->sector_size, 68719476736ull);
}

static void test_partitions(void) {
  const cz_registered_post *w = cz_registered_post_by_id(8), *small = cz_registered_post_by_id(5);
  CHECK_EQ_INT(cz_post_partitions(w, 0), 1);
  CHECK_EQ_INT(cz_post_partitions(w, 1), 1);
  CHECK_EQ_INT(cz_post_partitions(w, 2349), 1);
  CHECK_EQ_INT(cz_post_partitions(w, 2350), 2);
  CHECK_EQ_INT(cz_post_partitions(small, 5), 3);
  CHECK_EQ_INT(cz_post_partitions(cz_registered_post_by_id(0), 1), 1);
}

/* Unsigned LEB128 as the DWARF / WebAssembly specifications give it. */
static void test_prover_id(void) {
  static const struct {
    uint64_t miner;
    uint8_t bytes[10];
    size_t n;
  } cases[] = {
      {0, {0x00}, 1},
      {127, {0x7f}, 1},
      {128, {0x80, 0x01}, 2},
      {1000, {0xe8, 0x07}, 2},
      {624485, {0xe5, 0x8e, 0x26}, 3},
      {UINT64_MAX, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 10},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint8_t out[32], want[32] = {0};
    memset(out, 0xaa, sizeof out);
    memcpy(want, cases[i].bytes, cases[i].n);
    cz_prover_id_of_miner(out, cases[i].miner);
    CHECK_MEM(out, want, 32);
  }
}

int main(void) {
  test_names();
  test_table();
  test_partitions();
  test_prover_id();
  return check_report("test_registered_post");
}
