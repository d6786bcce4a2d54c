/* Native Merkle trees (cuzk/merkle.h): roots recomputed independently,
 * every inclusion proof verifies, tampered proofs do not. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/merkle.h"
#include "cuzk/poseidon.h"
#include "cuzk/sha256.h"
#include "rand_field.h"

/* SHA-256 node straight from OpenSSL's one-shot digest: the independent
 * definition (filecoin-hashers Sha256Function::node: SHA-256 of the LE
 * bytes of left then right, the two top bits cleared). */
static cz_fr sha_node_ref(const cz_fr *l, const cz_fr *r) {
  uint8_t buf[64], d[32];
  cz_fr_to_bytes_le(buf, l);
  cz_fr_to_bytes_le(buf + 32, r);
  cz_sha256_digest(d, buf, sizeof buf);
  d[31] &= 0x3f;
  cz_fr out;
  CHECK(cz_fr_from_bytes_le(&out, d) == CZ_OK);
  return out;
}

/* Root of a single tree over n leaves by recursion (arity a). */
static cz_fr rec_root(cz_merkle_hasher h, unsigned a, const cz_fr *leaves, size_t n) {
  if (n == 1) return leaves[0];
  cz_fr kids[8], out;
  for (unsigned i = 0; i < a; i++) kids[i] = rec_root(h, a, leaves + i * (n / a), n / a);
  if (h == CZ_MERKLE_SHA256 && a == 2) return sha_node_ref(&kids[0], &kids[1]);
  CHECK(cz_poseidon_hash(a, kids, &out) == CZ_OK);
  return out;
}

static cz_fr ref_root(const cz_merkle_shape *s, const cz_fr *leaves, size_t n) {
  if (!s->sub_arity) return rec_root(s->hasher, s->base_arity, leaves, n);
  size_t nb = s->sub_arity * (s->top_arity ? s->top_arity : 1), per = n / nb;
  cz_fr roots[64], subs[8], out;
  for (size_t b = 0; b < nb; b++)
    roots[b] = rec_root(s->hasher, s->base_arity, leaves + b * per, per);
  if (!s->top_arity) {
    CHECK(cz_merkle_hash_node(s->hasher, s->sub_arity, roots, &out) == CZ_OK);
    return out;
  }
  for (unsigned j = 0; j < s->top_arity; j++)
    CHECK(cz_merkle_hash_node(s->hasher, s->sub_arity, roots + j * s->sub_arity, &subs[j]) ==
          CZ_OK);
  CHECK(cz_merkle_hash_node(s->hasher, s->top_arity, subs, &out) == CZ_OK);
  return out;
}

static void test_shape(cz_merkle_shape s, size_t n, size_t levels, size_t stride) {
  cz_fr *leaves = malloc(n * sizeof *leaves);
  CHECK(leaves != NULL);
  for (size_t i = 0; i < n; i++) leaves[i] = check_rand_fr();
  cz_merkle_tree t;
  CHECK_EQ_INT(cz_merkle_tree_build(&t, &s, leaves, n), CZ_OK);
  cz_fr want = ref_root(&s, leaves, n);
  CHECK(cz_fr_eq(&t.root, &want));
  CHECK_EQ_INT(cz_merkle_proof_levels(&s, n), levels);
  for (size_t c = 0; c < n; c += stride) {
    cz_merkle_proof p, q;
    CHECK_EQ_INT(cz_merkle_prove(&t, c, &p), CZ_OK);
    CHECK_EQ_INT(p.n_levels, levels);
    CHECK(cz_fr_eq(&p.leaf, &leaves[c]));
    CHECK(cz_fr_eq(&p.root, &t.root));
    CHECK(cz_merkle_verify(&p));
    /* Tampering: leaf, one sibling, one index, the root, the challenge. */
    q = p;
    cz_fr_add(&q.leaf, &q.leaf, &CZ_FR_ONE);
    CHECK(!cz_merkle_verify(&q));
    q = p;
    size_t l = c % levels;
    cz_fr_add(&q.siblings[l][0], &q.siblings[l][0], &CZ_FR_ONE);
    CHECK(!cz_merkle_verify(&q));
    q = p;
    q.index[l] ^= 1;
    CHECK(!cz_merkle_verify(&q));
    q = p;
    cz_fr_add(&q.root, &q.root, &CZ_FR_ONE);
    CHECK(!cz_merkle_verify(&q));
    q = p;
    q.challenge ^= 1;
    CHECK(!cz_merkle_verify(&q));
  }
  cz_merkle_proof p;
  CHECK_EQ_INT(cz_merkle_prove(&t, n, &p), CZ_ERR_INVALID_ARG);
  cz_merkle_tree_free(&t);
  cz_merkle_tree_free(&t); /* idempotent */
  free(leaves);
}

/* Known answers: the roots of all-zero SHA-256 binary trees (the "zero
 * piece commitments", CommD of zero data) for 2^k leaves, k = 1..6 (64
 * leaves = a 2 KiB sector). Source: the zero-comm table of
 * filecoin-project/cpp-filecoin (computeUnsealedSectorCid's `comms`, also
 * go-commp-utils zerocomm.PieceComms), which starts at 4 leaves (skip = 2);
 * the 2-leaf value is the first sibling of the same table's inclusion-proof
 * fixtures. Bytes as stored (Fr little-endian). */
static void test_zero_tree_known_answers(void) {
  static const char *const zero_roots[] = {
      "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb0b",
      "3731bb99ac689f66eef5973e4a94da188f4ddcae580724fc6f3fd60dfd488333",
      "642a607ef886b004bf2c1978463ae1d4693ac0f410eb2d1b7a47fe205e5e750f",
      "57a2381a28652bf47f6bef7aca679be4aede5871ab5cf3eb2c08114488cb8526",
      "1f7ac9595510e09ea41c460b176430bb322cd6fb412ec57cb17d989a4310372f",
      "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833"};
  static const uint8_t zero_bytes[64 * 32];
  cz_fr zeros[64];
  CHECK_EQ_INT(cz_merkle_leaves_from_bytes(zeros, zero_bytes, 64), CZ_OK);
  cz_merkle_shape s = {CZ_MERKLE_SHA256, 2, 0, 0};
  for (unsigned k = 1; k <= 6; k++) {
    cz_merkle_tree t;
    CHECK_EQ_INT(cz_merkle_tree_build(&t, &s, zeros, (size_t)1 << k), CZ_OK);
    uint8_t want[32], got[32];
    CHECK_EQ_INT(check_hex(want, sizeof want, zero_roots[k - 1]), 32);
    cz_fr_to_bytes_le(got, &t.root);
    CHECK_MEM(got, want, 32);
    if (k == 6) {
      /* Every sibling of a zero tree is the zero root one level down. */
      cz_merkle_proof p;
      CHECK_EQ_INT(cz_merkle_prove(&t, 37, &p), CZ_OK);
      for (unsigned l = 1; l < 6; l++) {
        CHECK_EQ_INT(check_hex(want, sizeof want, zero_roots[l - 1]), 32);
        cz_fr_to_bytes_le(got, &p.siblings[l][0]);
        CHECK_MEM(got, want, 32);
      }
      CHECK(cz_merkle_verify(&p));
    }
    cz_merkle_tree_free(&t);
  }
}

/* Bytes to leaves: fr32 chunks load; a chunk >= r is rejected. */
static void test_leaves_from_bytes(void) {
  uint8_t data[2 * 32];
  check_rand_bytes(data, sizeof data);
  data[31] &= 0x3f;
  data[63] &= 0x3f;
  cz_fr leaves[2];
  CHECK_EQ_INT(cz_merkle_leaves_from_bytes(leaves, data, 2), CZ_OK);
  uint8_t back[32];
  cz_fr_to_bytes_le(back, &leaves[1]);
  CHECK_MEM(back, data + 32, 32);
  data[63] = 0xff;
  CHECK_EQ_INT(cz_merkle_leaves_from_bytes(leaves, data, 2), CZ_ERR_INVALID_ARG);
}

static void test_bad_shapes(void) {
  cz_fr leaves[64] = {0};
  cz_merkle_tree t;
  cz_merkle_shape bad[] = {{CZ_MERKLE_POSEIDON, 3, 0, 0},
                           {CZ_MERKLE_POSEIDON, 8, 0, 2},
                           {CZ_MERKLE_SHA256, 1, 0, 0},
                           {CZ_MERKLE_POSEIDON, 16, 0, 0}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    CHECK_EQ_INT(cz_merkle_tree_build(&t, &bad[i], leaves, 64), CZ_ERR_INVALID_ARG);
  cz_merkle_shape b8 = {CZ_MERKLE_POSEIDON, 8, 0, 0};
  CHECK_EQ_INT(cz_merkle_tree_build(&t, &b8, leaves, 32), CZ_ERR_INVALID_ARG); /* not 8^k */
  CHECK_EQ_INT(cz_merkle_tree_build(&t, &b8, leaves, 1), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_merkle_proof_levels(&b8, 32), 0);
}

int main(void) {
  test_shape((cz_merkle_shape){CZ_MERKLE_SHA256, 2, 0, 0}, 64, 6, 1);
  test_shape((cz_merkle_shape){CZ_MERKLE_POSEIDON, 8, 0, 0}, 64, 2, 1);
  test_shape((cz_merkle_shape){CZ_MERKLE_POSEIDON, 2, 0, 0}, 16, 4, 1);
  test_shape((cz_merkle_shape){CZ_MERKLE_POSEIDON, 8, 8, 0}, 512, 3, 7);
  test_shape((cz_merkle_shape){CZ_MERKLE_POSEIDON, 8, 8, 2}, 1024, 4, 13);
  test_shape((cz_merkle_shape){CZ_MERKLE_POSEIDON, 8, 4, 2}, 512, 4, 11);
  /* 8^5 leaves: the first level (4096 groups) takes the multi-threaded path. */
  test_shape((cz_merkle_shape){CZ_MERKLE_POSEIDON, 8, 0, 0}, 32768, 5, 4099);
  test_zero_tree_known_answers();
  test_leaves_from_bytes();
  test_bad_shapes();
  return check_report("merkle");
}
