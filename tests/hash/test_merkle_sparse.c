/* Sparse Merkle trees (cuzk/merkle.h) against dense ones: for the same
 * leaves (a default everywhere but a few given ones) the sparse tree's root
 * and every leaf's proof equal cz_merkle_tree_build's and cz_merkle_prove's,
 * for each shape the PoRep trees use (tree D, tree C / R-last of 2 KiB to
 * 512 MiB, 8-8-0 as 32 GiB, 8-8-2 as 64 GiB); bad input is refused. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/merkle.h"
#include "rand_field.h"

static bool proofs_equal(const cz_merkle_proof *a, const cz_merkle_proof *b) {
  if (a->challenge != b->challenge || a->n_levels != b->n_levels || !cz_fr_eq(&a->leaf, &b->leaf) ||
      !cz_fr_eq(&a->root, &b->root) || memcmp(&a->shape, &b->shape, sizeof a->shape) != 0)
    return false;
  for (size_t l = 0; l < a->n_levels; l++) {
    if (a->arity[l] != b->arity[l] || a->index[l] != b->index[l]) return false;
    for (unsigned i = 0; i + 1 < a->arity[l]; i++)
      if (!cz_fr_eq(&a->siblings[l][i], &b->siblings[l][i])) return false;
  }
  return true;
}

/* n leaves of shape s, n_set of them (every stride-th from `first`, given
 * out of order) random, the rest the default. */
static void compare(cz_merkle_shape s, size_t n, size_t n_set, size_t first, size_t stride,
                    bool zero_default) {
  cz_fr def = zero_default ? (cz_fr){0} : check_rand_fr();
  cz_fr *dense = malloc(n * sizeof *dense), *vals = malloc((n_set + 1) * sizeof *vals);
  uint64_t *idx = malloc((n_set + 1) * sizeof *idx);
  CHECK(dense && vals && idx);
  for (size_t i = 0; i < n; i++) dense[i] = def;
  for (size_t k = 0; k < n_set; k++) {
    size_t j = n_set - 1 - k; /* descending: the build sorts */
    idx[k] = (first + j * stride) % n;
    vals[k] = check_rand_fr();
    dense[idx[k]] = vals[k];
  }
  cz_merkle_tree t;
  cz_merkle_sparse sp;
  CHECK_EQ_INT(cz_merkle_tree_build(&t, &s, dense, n), CZ_OK);
  CHECK_EQ_INT(cz_merkle_sparse_build(&sp, &s, n, &def, idx, vals, n_set), CZ_OK);
  CHECK(cz_fr_eq(&t.root, &sp.root));
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    cz_merkle_proof a, b;
    CHECK_EQ_INT(cz_merkle_prove(&t, i, &a), CZ_OK);
    CHECK_EQ_INT(cz_merkle_sparse_prove(&sp, i, &b), CZ_OK);
    bad += !proofs_equal(&a, &b) || !cz_merkle_verify(&b);
  }
  CHECK_EQ_INT(bad, 0);
  cz_merkle_proof p;
  CHECK_EQ_INT(cz_merkle_sparse_prove(&sp, n, &p), CZ_ERR_INVALID_ARG);
  cz_merkle_tree_free(&t);
  cz_merkle_sparse_free(&sp);
  cz_merkle_sparse_free(&sp); /* idempotent */
  free(dense);
  free(vals);
  free(idx);
}

static void test_bad_input(void) {
  cz_merkle_shape b8 = {CZ_MERKLE_POSEIDON, 8, 0, 0};
  cz_fr def = {0}, vals[2] = {check_rand_fr(), check_rand_fr()};
  uint64_t dup[2] = {3, 3}, out[1] = {64};
  cz_merkle_sparse t;
  CHECK_EQ_INT(cz_merkle_sparse_build(&t, &b8, 64, &def, dup, vals, 2), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(t.n_levels, 0); /* left empty */
  CHECK_EQ_INT(cz_merkle_sparse_build(&t, &b8, 64, &def, out, vals, 1), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_merkle_sparse_build(&t, &b8, 32, &def, NULL, NULL, 0), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_merkle_sparse_build(&t, &b8, 64, NULL, NULL, NULL, 0), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_merkle_sparse_build(&t, &b8, 64, &def, NULL, vals, 1), CZ_ERR_INVALID_ARG);
}

/* A sector-sized tree (2^30 leaves, 8-8-0 as 32 GiB's tree C and R-last)
 * with a few leaves set: built and proved without touching 2^30 nodes. */
static void test_huge(void) {
  cz_merkle_shape s = {CZ_MERKLE_POSEIDON, 8, 8, 0};
  cz_fr def = {0}, vals[3] = {check_rand_fr(), check_rand_fr(), check_rand_fr()};
  uint64_t idx[3] = {(1ull << 30) - 1, 0, 123456789};
  cz_merkle_sparse t;
  CHECK_EQ_INT(cz_merkle_sparse_build(&t, &s, 1ull << 30, &def, idx, vals, 3), CZ_OK);
  CHECK_EQ_INT(t.n_levels, 10);
  for (int i = 0; i < 3; i++) {
    cz_merkle_proof p;
    CHECK_EQ_INT(cz_merkle_sparse_prove(&t, idx[i], &p), CZ_OK);
    CHECK(cz_fr_eq(&p.leaf, &vals[i]) && cz_merkle_verify(&p));
  }
  cz_merkle_sparse_free(&t);
}

int main(void) {
  cz_merkle_shape d = {CZ_MERKLE_SHA256, 2, 0, 0}, p8 = {CZ_MERKLE_POSEIDON, 8, 0, 0},
                  p880 = {CZ_MERKLE_POSEIDON, 8, 8, 0}, p882 = {CZ_MERKLE_POSEIDON, 8, 8, 2},
                  p842 = {CZ_MERKLE_POSEIDON, 8, 4, 2};
  compare(d, 64, 0, 0, 1, true); /* all default: tree D of a CC sector */
  compare(d, 64, 5, 3, 11, true);
  compare(d, 256, 64, 1, 4, false);
  compare(p8, 64, 1, 63, 1, true);
  compare(p8, 512, 40, 7, 13, false);
  compare(p880, 512, 0, 0, 1, false);
  compare(p880, 512, 30, 5, 17, true);
  compare(p882, 1024, 50, 2, 19, true);
  compare(p882, 1024, 1024, 0, 1, false); /* every leaf given */
  compare(p842, 512, 9, 100, 37, false);
  test_bad_input();
  test_huge();
  return check_report("merkle_sparse");
}
