/* A random updated sector for the SnapDeals tests, built as
 * storage-proofs-update's tests/circuit.rs builds one: random old labels
 * and comm_c, tree R old, comm_r_old = Poseidon-2(comm_c, root); random new
 * data (fr32: the top two bits clear), tree D new, comm_d_new; the encoding
 * with h = s->h; tree R new and comm_r_new. */
#ifndef CUZK_TESTS_SNAP_TEST_SECTOR_H
#define CUZK_TESTS_SNAP_TEST_SECTOR_H
#include <stdlib.h>

#include "check.h"
#include "cuzk/snap.h"
#include "rand_field.h"

typedef struct {
  cz_snap_shape shape;
  cz_merkle_tree tree_r_old, tree_d_new, tree_r_new;
  cz_snap_trees trees;
  cz_fr comm_r_old, comm_d_new, comm_r_new;
  uint8_t b_comm_r_old[32], b_comm_d_new[32], b_comm_r_new[32];
} snap_test_sector;

static inline cz_fr snap_test_data_fr(void) {
  uint8_t b[32];
  check_rand_bytes(b, sizeof b);
  b[31] &= 0x3f;
  cz_fr r;
  CHECK(cz_fr_from_bytes_le(&r, b) == CZ_OK);
  return r;
}

/* false when a step failed (CHECKed). */
static inline bool snap_test_sector_make(snap_test_sector *t, uint64_t nodes) {
  memset(t, 0, sizeof *t);
  if (!cz_snap_shape_of(nodes, &t->shape)) return false;
  static const cz_merkle_shape tree_d = {CZ_MERKLE_SHA256, 2, 0, 0};
  cz_fr *old = malloc(nodes * sizeof *old), *data = malloc(nodes * sizeof *data);
  cz_fr *enc = malloc(nodes * sizeof *enc);
  bool ok = old && data && enc;
  for (uint64_t i = 0; ok && i < nodes; i++) {
    old[i] = check_rand_fr();
    data[i] = snap_test_data_fr();
  }
  t->trees.comm_c = check_rand_fr();
  ok = ok && cz_merkle_tree_build(&t->tree_r_old, &t->shape.tree_r, old, nodes) == CZ_OK;
  ok = ok && cz_merkle_tree_build(&t->tree_d_new, &tree_d, data, nodes) == CZ_OK;
  if (ok) {
    cz_fr pair[2] = {t->trees.comm_c, t->tree_r_old.root};
    CHECK(cz_merkle_hash_node(CZ_MERKLE_POSEIDON, 2, pair, &t->comm_r_old) == CZ_OK);
    t->comm_d_new = t->tree_d_new.root;
    ok = cz_snap_encode(&t->shape, t->shape.h, &t->comm_d_new, &t->comm_r_old, old, data, enc) ==
         CZ_OK;
  }
  ok = ok && cz_merkle_tree_build(&t->tree_r_new, &t->shape.tree_r, enc, nodes) == CZ_OK;
  if (ok) {
    cz_fr pair[2] = {t->trees.comm_c, t->tree_r_new.root};
    CHECK(cz_merkle_hash_node(CZ_MERKLE_POSEIDON, 2, pair, &t->comm_r_new) == CZ_OK);
    cz_fr_to_bytes_le(t->b_comm_r_old, &t->comm_r_old);
    cz_fr_to_bytes_le(t->b_comm_d_new, &t->comm_d_new);
    cz_fr_to_bytes_le(t->b_comm_r_new, &t->comm_r_new);
    t->trees.tree_r_old = &t->tree_r_old;
    t->trees.tree_d_new = &t->tree_d_new;
    t->trees.tree_r_new = &t->tree_r_new;
  }
  free(old);
  free(data);
  free(enc);
  CHECK(ok);
  return ok;
}

static inline void snap_test_sector_free(snap_test_sector *t) {
  cz_merkle_tree_free(&t->tree_r_old);
  cz_merkle_tree_free(&t->tree_d_new);
  cz_merkle_tree_free(&t->tree_r_new);
}

#endif
