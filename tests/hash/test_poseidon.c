/* Native Poseidon: known answers and optimised == textbook. */
#include <pthread.h>
#include "check.h"
#include "cuzk/poseidon.h"

static void fr_from_hex_be(cz_fr *r, const char *hex) {
  unsigned char b[32];
  CHECK(check_hex(b, sizeof b, hex) == 32);
  CHECK(cz_fr_from_bytes_be(r, b) == CZ_OK);
}

static void rand_fr(cz_fr *r) {
  unsigned char b[64];
  check_rand_bytes(b, sizeof b);
  cz_fr_from_wide_le(r, b);
}

/* tests/vectors/poseidon/README.md: input [0, 1, ..., arity-1]. The same
 * values are asserted (as little-endian limbs) by neptune v11.1.0
 * src/poseidon.rs, tests::hash_values (hash_values_aux, Strength::Standard,
 * blstrs Fr, HashType::MerkleTree). */
static void test_known_answers(void) {
  static const struct {
    unsigned arity;
    const char *hex;
  } kat[] = {
      {2, "0x396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff"},
      /* Arity 4 is not in that README: neptune's hash_values_aux, case 4,
       * limbs [0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399,
       * 0x58a54b10a9e5848a] (least significant first). */
      {4, "0x58a54b10a9e5848a00db3c6579229399fb6b4605bf1327ec019814ff6662075d"},
      {8, "0x2394611da3a5de5512010042116770774b682e9d9cc4aed92a9934f56d38a5e6"},
      {11, "0x0c0fc1b2e5227f286ca537e232ebe87a09f3dcd8ccb08fc1cee3bbc32b693163"},
  };
  for (size_t k = 0; k < sizeof kat / sizeof kat[0]; k++) {
    cz_fr in[CZ_POSEIDON_MAX_ARITY], want, got, plain;
    for (unsigned i = 0; i < kat[k].arity; i++) cz_fr_from_u64(&in[i], i);
    fr_from_hex_be(&want, kat[k].hex);
    CHECK(cz_poseidon_hash(kat[k].arity, in, &got) == CZ_OK);
    CHECK(cz_fr_eq(&got, &want));
    cz_poseidon_hash_plain(cz_poseidon_params_get(kat[k].arity), in, &plain);
    CHECK(cz_fr_eq(&plain, &want));
  }
}

/* tests/vectors/poseidon/README.md: the binary tree over leaves [1, 0, 0, 1]
 * of rust-fil-proofs filecoin-hashers/src/poseidon.rs,
 * tests::test_poseidon_hasher (t.read_at(4) and the root t.read_at(6)). */
static void test_merkle_1001(void) {
  cz_fr leaf[4], n01[2], root, want;
  cz_fr_from_u64(&leaf[0], 1);
  cz_fr_from_u64(&leaf[1], 0);
  cz_fr_from_u64(&leaf[2], 0);
  cz_fr_from_u64(&leaf[3], 1);
  CHECK(cz_poseidon_hash(2, &leaf[0], &n01[0]) == CZ_OK);
  CHECK(cz_poseidon_hash(2, &leaf[2], &n01[1]) == CZ_OK);
  fr_from_hex_be(&want, "0x042f94ffbe786bc393c003cc74a24f26ec5907b3dc3094afb339ff6079800b5e");
  CHECK(cz_fr_eq(&n01[0], &want));
  CHECK(cz_poseidon_hash(2, n01, &root) == CZ_OK);
  fr_from_hex_be(&want, "0x1effebb7b26ad9eb30eb6385ae6b74ae77cc72b8cb2b5ad2efbb8be3e291e671");
  CHECK(cz_fr_eq(&root, &want));
}

static void test_opt_equals_plain(void) {
  static const unsigned arities[] = {2, 4, 8, 11};
  for (size_t a = 0; a < 4; a++) {
    const cz_poseidon_params *p = cz_poseidon_params_get(arities[a]);
    CHECK(p != NULL);
    if (!p) continue;
    CHECK_EQ_INT(p->width, arities[a] + 1);
    for (int iter = 0; iter < 20; iter++) {
      cz_fr in[CZ_POSEIDON_MAX_ARITY], x, y;
      for (unsigned i = 0; i < p->arity; i++) rand_fr(&in[i]);
      cz_poseidon_hash_opt(p, in, &x);
      cz_poseidon_hash_plain(p, in, &y);
      CHECK(cz_fr_eq(&x, &y));
    }
    /* hash_many equals one-by-one, in place of its inputs' order. */
    enum { N = 5 };
    cz_fr in[N * CZ_POSEIDON_MAX_ARITY], out[N];
    for (unsigned i = 0; i < N * p->arity; i++) rand_fr(&in[i]);
    cz_fr out_par[N];
    cz_poseidon_hash_many(p, in, out, N);
    cz_poseidon_hash_many_par(p, in, out_par, N, 3);
    CHECK_MEM(out, out_par, sizeof out);
    for (unsigned k = 0; k < N; k++) {
      cz_fr one;
      cz_poseidon_hash_plain(p, in + k * p->arity, &one);
      CHECK(cz_fr_eq(&one, &out[k]));
    }
  }
}

/* Structural checks on the derived parameters: M * M^-1 = I, the sparse
 * matrices have the identity outside the first row and column, and the
 * Cauchy definition holds. */
static void test_params_structure(void) {
  const cz_poseidon_params *p = cz_poseidon_params_get(8);
  const unsigned t = p->width;
  for (unsigned i = 0; i < t; i++)
    for (unsigned j = 0; j < t; j++) {
      cz_fr acc = CZ_FR_ZERO, tmp;
      for (unsigned k = 0; k < t; k++) {
        cz_fr_mul(&tmp, &p->mds[i][k], &p->mds_inv[k][j]);
        cz_fr_add(&acc, &acc, &tmp);
      }
      CHECK(i == j ? cz_fr_is_one(&acc) : cz_fr_is_zero(&acc));
      cz_fr x;
      cz_fr_from_u64(&x, i + j + t);
      cz_fr_mul(&x, &x, &p->mds[i][j]);
      CHECK(cz_fr_is_one(&x));
    }
  cz_fr tag;
  cz_fr_from_u64(&tag, 255);
  CHECK(cz_fr_eq(&tag, &p->domain_tag));
  CHECK(cz_poseidon_params_get(3) == NULL);
  CHECK(!cz_poseidon_arity_supported(16));
  cz_fr in[3] = {CZ_FR_ZERO}, out;
  CHECK(cz_poseidon_hash(3, in, &out) == CZ_ERR_INVALID_ARG);
}

/* First use from several threads at once: one parameter set per arity,
 * every thread gets the same pointer and the same hash. */
enum { THREADS = 4 };
static const cz_poseidon_params *thread_params[THREADS];
static cz_fr thread_out[THREADS];
static void *thread_main(void *arg) {
  size_t k = (size_t)arg;
  cz_fr in[4];
  for (unsigned i = 0; i < 4; i++) cz_fr_from_u64(&in[i], i + 7);
  thread_params[k] = cz_poseidon_params_get(4);
  if (thread_params[k]) cz_poseidon_hash_opt(thread_params[k], in, &thread_out[k]);
  return NULL;
}
static void test_concurrent_first_use(void) {
  pthread_t th[THREADS];
  for (size_t k = 0; k < THREADS; k++)
    CHECK(pthread_create(&th[k], NULL, thread_main, (void *)k) == 0);
  for (size_t k = 0; k < THREADS; k++) pthread_join(th[k], NULL);
  for (size_t k = 0; k < THREADS; k++) {
    CHECK(thread_params[k] != NULL && thread_params[k] == thread_params[0]);
    CHECK(cz_fr_eq(&thread_out[k], &thread_out[0]));
  }
}

/* neptune hash_type.rs: CType::Arbitrary(id).domain_tag() = id * 2^40 and
 * nothing else changes (round constants and matrices depend on the width
 * only). The hash itself is checked against rust-fil-proofs' hard-coded
 * SnapDeals challenges in tests/filecoin/snap/test_snap_challenge.c. */
static void test_custom_tag(void) {
  static cz_poseidon_params c;
  CHECK(cz_poseidon_params_custom(&c, 2, 1) == CZ_OK);
  const cz_poseidon_params *m = cz_poseidon_params_get(2);
  uint8_t tag[32], want[32] = {0};
  cz_fr_to_bytes_le(tag, &c.domain_tag);
  want[5] = 1; /* 2^40 little-endian */
  CHECK_MEM(tag, want, 32);
  CHECK(memcmp(c.compressed, m->compressed, sizeof c.compressed) == 0);
  CHECK(memcmp(c.mds, m->mds, sizeof c.mds) == 0);
  CHECK(cz_poseidon_params_custom(&c, 2, 256) == CZ_OK);
  cz_fr_to_bytes_le(tag, &c.domain_tag);
  memset(want, 0, sizeof want);
  want[6] = 1; /* 256 * 2^40 = 2^48 */
  CHECK_MEM(tag, want, 32);
  /* The two computations still agree, and differ from the Merkle tag's. */
  cz_fr in[2], a, b, t;
  cz_fr_from_u64(&in[0], 3);
  cz_fr_from_u64(&in[1], 4);
  cz_poseidon_hash_opt(&c, in, &a);
  cz_poseidon_hash_plain(&c, in, &b);
  cz_poseidon_hash_opt(m, in, &t);
  CHECK(cz_fr_eq(&a, &b));
  CHECK(!cz_fr_eq(&a, &t));
  CHECK(cz_poseidon_params_custom(&c, 2, 0) == CZ_ERR_INVALID_ARG);
  CHECK(cz_poseidon_params_custom(&c, 2, 257) == CZ_ERR_INVALID_ARG);
  CHECK(cz_poseidon_params_custom(&c, 3, 1) == CZ_ERR_INVALID_ARG);
  CHECK(cz_poseidon_params_custom(NULL, 2, 1) == CZ_ERR_INVALID_ARG);
}

int main(void) {
  test_concurrent_first_use();
  test_known_answers();
  test_merkle_1001();
  test_opt_equals_plain();
  test_params_structure();
  test_custom_tag();
  return check_report("test_poseidon");
}
