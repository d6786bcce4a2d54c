/* The registered PoSt proofs (filecoin-ffi RegisteredPoStProof, the Go
 * actors' numbering), their configurations (filecoin-proofs constants.rs:
 * WINNING_POST_CHALLENGE_COUNT 66, WINNING_POST_SECTOR_COUNT 1,
 * WINDOW_POST_CHALLENGE_COUNT 10, WINDOW_POST_SECTOR_COUNT; the SectorShape
 * trees). Their v28 parameter names are made in param_name.c and checked
 * against rust-fil-proofs' parameters.json in
 * tests/filecoin/registry/test_registered_post.c (2 KiB Winning: ...-8-0-0-3ea05428). */
#include <stdio.h>
#include <string.h>

#include "cuzk/registry.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)

/* tree R-last: LCTree<PoseidonHasher, U8, sub, top> (filecoin-proofs
 * SectorShape2KiB ... SectorShape64GiB). */
#define TREE(sub, top) \
  { CZ_MERKLE_POSEIDON, 8, (sub), (top) }

/* Winning: PoStConfig 66 challenges x 1 sector; PublicParams after
 * winning_post_setup_params' swap: 1 challenge x 66 sector slots. */
#define WINNING(id, size, bytes, tree) \
  { \
    id, "StackedDrgWinning" size "V1", CZ_POST_WINNING, size, bytes, tree, CZ_API_1_0_0, 66, 1, 1, \
        66 \
  }
/* Window: 10 challenges per sector; sectors per partition from
 * WINDOW_POST_SECTOR_COUNT ("this gives 125,279,217 constraints, fitting in
 * a single partition" for 32 GiB). */
#define WINDOW(id, size, suffix, api, bytes, tree, sectors) \
  { \
    id, "StackedDrgWindow" size suffix, CZ_POST_WINDOW, size, bytes, tree, api, 10, sectors, 10, \
        sectors \
  }

static const cz_registered_post table[CZ_REGISTERED_POST_COUNT] = {
    WINNING(0, "2KiB", 2 * KIB, TREE(0, 0)),
    WINNING(1, "8MiB", 8 * MIB, TREE(0, 0)),
    WINNING(2, "512MiB", 512 * MIB, TREE(0, 0)),
    WINNING(3, "32GiB", 32 * GIB, TREE(8, 0)),
    WINNING(4, "64GiB", 64 * GIB, TREE(8, 2)),
    WINDOW(5, "2KiB", "V1", CZ_API_1_0_0, 2 * KIB, TREE(0, 0), 2),
    WINDOW(6, "8MiB", "V1", CZ_API_1_0_0, 8 * MIB, TREE(0, 0), 2),
    WINDOW(7, "512MiB", "V1", CZ_API_1_0_0, 512 * MIB, TREE(0, 0), 2),
    WINDOW(8, "32GiB", "V1", CZ_API_1_0_0, 32 * GIB, TREE(8, 0), 2349),
    WINDOW(9, "64GiB", "V1", CZ_API_1_0_0, 64 * GIB, TREE(8, 2), 2300),
    /* filecoin-proofs-api's V1_2 (ApiVersion 1.2.0), which filecoin-ffi and
     * the actors call V1_1. */
    WINDOW(10, "2KiB", "V1_1", CZ_API_1_2_0, 2 * KIB, TREE(0, 0), 2),
    WINDOW(11, "8MiB", "V1_1", CZ_API_1_2_0, 8 * MIB, TREE(0, 0), 2),
    WINDOW(12, "512MiB", "V1_1", CZ_API_1_2_0, 512 * MIB, TREE(0, 0), 2),
    WINDOW(13, "32GiB", "V1_1", CZ_API_1_2_0, 32 * GIB, TREE(8, 0), 2349),
    WINDOW(14, "64GiB", "V1_1", CZ_API_1_2_0, 64 * GIB, TREE(8, 2), 2300),
};

const cz_registered_post *cz_registered_post_by_id(uint32_t id) {
  return id < CZ_REGISTERED_POST_COUNT ? &table[id] : NULL;
}

const cz_registered_post *cz_registered_post_by_name(const char *name) {
  for (size_t i = 0; name && i < CZ_REGISTERED_POST_COUNT; i++)
    if (strcmp(table[i].name, name) == 0) return &table[i];
  return NULL;
}

size_t cz_post_public_input_count(const cz_registered_post *k) {
  return (size_t)k->sector_count * (1 + (size_t)k->challenge_count);
}

size_t cz_post_partitions(const cz_registered_post *k, size_t n_sectors) {
  if (k->type == CZ_POST_WINNING) return 1;
  size_t p = n_sectors / k->sector_count + (n_sectors % k->sector_count != 0);
  return p ? p : 1;
}
