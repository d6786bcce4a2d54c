/* libFuzzer: bincode PartitionProof parsing (cz_snap_vanilla_parse),
 * through fuzz_vanilla_impl.h (shared with fuzz_post_vanilla): edit
 * scripts start from a valid partition proof built here (8 apex leaves, 4
 * challenges; tree R 8-8-2 Poseidon so that the Sub and Top paths are
 * reached once a variant byte mutates, tree D binary SHA-256). */
#include <stdlib.h>
#include <string.h>
#include "cuzk/snap.h"

#define VANILLA cz_snap_partition_proof
#define VANILLA_PARSE cz_snap_vanilla_parse
#define VANILLA_WRITE cz_snap_vanilla_write
#define VANILLA_FREE cz_snap_vanilla_free
#include "fuzz_vanilla_impl.h"

static void prove(const cz_merkle_tree *t, size_t c, uint32_t variant, cz_vanilla_merkle *m) {
  memset(m, 0, sizeof *m);
  if (cz_merkle_prove(t, c, &m->proof) != CZ_OK) abort();
  m->variant = variant;
  m->n_base = (uint32_t)m->proof.n_levels - (variant >= 1) - (variant == 2);
  m->n_sub = variant >= 1;
  m->n_top = variant == 2;
}

static void make_base(void) {
  static const cz_merkle_shape sr = {CZ_MERKLE_POSEIDON, 8, 8, 2}, sd = {CZ_MERKLE_SHA256, 2, 0, 0};
  cz_fr leaves[128];
  for (int i = 0; i < 128; i++) cz_fr_from_u64(&leaves[i], 3 * (uint64_t)i + 1);
  cz_merkle_tree tr, td;
  if (cz_merkle_tree_build(&tr, &sr, leaves, 128) != CZ_OK) abort();
  if (cz_merkle_tree_build(&td, &sd, leaves, 128) != CZ_OK) abort();
  static cz_fr apex[8];
  static cz_snap_challenge_proof ch[4];
  for (int i = 0; i < 8; i++) cz_fr_from_u64(&apex[i], 40 + (uint64_t)i);
  for (size_t i = 0; i < 4; i++) {
    prove(&tr, 37 * i, 2, &ch[i].proof_r_old);
    prove(&td, 37 * i, 0, &ch[i].proof_d_new);
    prove(&tr, 37 * i + 1, 2, &ch[i].proof_r_new);
  }
  cz_merkle_tree_free(&tr);
  cz_merkle_tree_free(&td);
  cz_snap_partition_proof v = {.apex_leaves = apex,
                               .n_apex = 8,
                               .challenges = ch,
                               .n_challenges = 4};
  cz_fr_from_u64(&v.comm_c, 6);
  set_base(&v);
}
