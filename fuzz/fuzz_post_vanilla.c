/* libFuzzer: bincode FallbackPoStSectorProof parsing (cz_post_vanilla_parse),
 * through fuzz_vanilla_impl.h (shared with fuzz_snap_vanilla): edit scripts
 * start from a valid vanilla proof built here over a small 8-8-2 Poseidon
 * tree (all three path kinds' code is reached once the variant byte
 * mutates). */
#include <stdlib.h>
#include "cuzk/post.h"

#define VANILLA cz_post_vanilla
#define VANILLA_PARSE cz_post_vanilla_parse
#define VANILLA_WRITE cz_post_vanilla_write
#define VANILLA_FREE cz_post_vanilla_free
#include "fuzz_vanilla_impl.h"

/* One SectorProof with 4 inclusions over a 128-leaf 8-8-2 tree. */
static void make_base(void) {
  static const cz_merkle_shape s = {CZ_MERKLE_POSEIDON, 8, 8, 2};
  cz_fr leaves[128];
  for (int i = 0; i < 128; i++) cz_fr_from_u64(&leaves[i], 3 * (uint64_t)i + 1);
  cz_merkle_tree t;
  if (cz_merkle_tree_build(&t, &s, leaves, 128) != CZ_OK) abort();
  static cz_post_inclusion inc[4];
  static cz_post_sector_proof sp;
  cz_post_vanilla v = {.sector_id = 7, .sectors = &sp, .n_sectors = 1};
  cz_fr_from_u64(&v.comm_r, 5);
  cz_fr_from_u64(&sp.comm_c, 6);
  sp.comm_r_last = t.root;
  sp.inclusions = inc;
  sp.n_inclusions = 4;
  for (size_t i = 0; i < 4; i++) {
    if (cz_merkle_prove(&t, 37 * i, &inc[i].proof) != CZ_OK) abort();
    inc[i].variant = 2;
    inc[i].n_base = 1;
    inc[i].n_sub = 1;
    inc[i].n_top = 1;
  }
  cz_merkle_tree_free(&t);
  set_base(&v);
}
