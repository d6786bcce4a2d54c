/* The bincode PartitionProof reader and writer (snap_vanilla.c).
 *
 * The expected sizes come from the layout in storage-proofs-update
 * vanilla.rs and merkle/proof.rs, counted by hand: a 2 KiB partition (tree
 * R 8-0-0 Single, 2 levels of 7 hashes; tree D binary Single, 6 levels) is
 * 32 + 8 + 8 x 32 + 8 + 10 x (556 + 364 + 556) = 15,064 bytes. The proofs
 * themselves are built here over small trees: a round trip, every
 * truncation, trailing bytes, lengths of 2^63, an unknown variant and a
 * value >= r each give one error naming the field. */
#include <string.h>

#include "check.h"
#include "cuzk/snap.h"

#define NODES 64

static cz_merkle_tree tree_r, tree_d;

static void build_trees(void) {
  static const cz_merkle_shape sr = {CZ_MERKLE_POSEIDON, 8, 0, 0}, sd = {CZ_MERKLE_SHA256, 2, 0, 0};
  cz_fr lr[NODES], ld[NODES];
  for (int i = 0; i < NODES; i++) {
    cz_fr_from_u64(&lr[i], 7 * (uint64_t)i + 3);
    cz_fr_from_u64(&ld[i], 0x1000 + (uint64_t)i);
  }
  CHECK(cz_merkle_tree_build(&tree_r, &sr, lr, NODES) == CZ_OK);
  CHECK(cz_merkle_tree_build(&tree_d, &sd, ld, NODES) == CZ_OK);
}

static void single(const cz_merkle_tree *t, size_t c, cz_vanilla_merkle *m) {
  memset(m, 0, sizeof *m);
  CHECK(cz_merkle_prove(t, c, &m->proof) == CZ_OK);
  m->n_base = (uint32_t)m->proof.n_levels;
}

/* A 2 KiB-shaped partition proof with 8 apex leaves and 10 challenges. */
static void make(cz_snap_partition_proof *v, cz_fr apex[8], cz_snap_challenge_proof ch[10]) {
  memset(v, 0, sizeof *v);
  cz_fr_from_u64(&v->comm_c, 99);
  for (int i = 0; i < 8; i++) cz_fr_from_u64(&apex[i], 500 + (uint64_t)i);
  for (size_t i = 0; i < 10; i++) {
    size_t c = (13 * i + 5) % NODES;
    single(&tree_r, c, &ch[i].proof_r_old);
    single(&tree_d, c, &ch[i].proof_d_new);
    single(&tree_r, (c + 1) % NODES, &ch[i].proof_r_new);
  }
  v->apex_leaves = apex;
  v->n_apex = 8;
  v->challenges = ch;
  v->n_challenges = 10;
}

static bool zeroed(const cz_snap_partition_proof *v) {
  static const cz_snap_partition_proof z;
  return memcmp(v, &z, sizeof z) == 0;
}

static cz_fr apex[8];
static cz_snap_challenge_proof ch[10];
static uint8_t buf[15064];

static void test_round_trip(void) {
  cz_snap_partition_proof v;
  make(&v, apex, ch);
  size_t n = cz_snap_vanilla_write(NULL, &v);
  CHECK_EQ_INT(n, 15064);
  if (n != sizeof buf) return;
  CHECK_EQ_INT(cz_snap_vanilla_write(buf, &v), n);
  /* comm_c first, raw; then the apex Vec length. */
  uint8_t cc[32];
  cz_fr_to_bytes_le(cc, &v.comm_c);
  CHECK_MEM(buf, cc, 32);
  CHECK_EQ_INT(buf[32], 8);
  cz_snap_partition_proof p;
  char msg[256];
  CHECK(cz_snap_vanilla_parse(&p, buf, n, 0, msg, sizeof msg) == CZ_OK);
  CHECK_EQ_INT(p.n_apex, 8);
  CHECK_EQ_INT(p.n_challenges, 10);
  CHECK(cz_fr_eq(&p.comm_c, &v.comm_c));
  for (size_t i = 0; i < p.n_challenges; i++) {
    const cz_snap_challenge_proof *c = &p.challenges[i];
    CHECK_EQ_INT(c->proof_r_old.proof.shape.hasher, CZ_MERKLE_POSEIDON);
    CHECK_EQ_INT(c->proof_d_new.proof.shape.hasher, CZ_MERKLE_SHA256);
    CHECK_EQ_INT(c->proof_d_new.proof.n_levels, 6);
    CHECK_EQ_INT(c->proof_r_old.proof.n_levels, 2);
    CHECK_EQ_INT(c->proof_d_new.proof.challenge, (13 * i + 5) % NODES);
    CHECK_EQ_INT(c->proof_r_new.proof.challenge, (13 * i + 6) % NODES);
    CHECK(cz_merkle_verify(&c->proof_d_new.proof));
    CHECK(cz_merkle_verify(&c->proof_r_old.proof));
  }
  uint8_t again[sizeof buf];
  CHECK_EQ_INT(cz_snap_vanilla_write(again, &p), n);
  CHECK_MEM(again, buf, n);
  cz_snap_vanilla_free(&p);
  CHECK(zeroed(&p));
  cz_snap_vanilla_free(&p); /* idempotent */
}

static void expect(const uint8_t *in, size_t len, cz_err want, const char *field) {
  cz_snap_partition_proof p;
  char msg[256] = "";
  cz_err e = cz_snap_vanilla_parse(&p, in, len, 2, msg, sizeof msg);
  CHECK_EQ_INT(e, want);
  CHECK(zeroed(&p));
  CHECK(strncmp(msg, "vanilla_proofs[2]", 17) == 0);
  if (field) {
    CHECK(strstr(msg, field) != NULL);
    if (!strstr(msg, field)) fprintf(stderr, "message: %s (wanted %s)\n", msg, field);
  }
}

static void test_bad_input(void) {
  for (size_t len = 0; len < sizeof buf; len += len < 200 ? 1 : 97)
    expect(buf, len, CZ_ERR_TRUNCATED, NULL);
  /* Cut inside the last proof_r_new (a cut earlier on fails the
   * challenge_proofs length check first: 10 of at least 228 bytes). Its
   * path[1] then has 222 of the 232 bytes its 7 hashes and index need,
   * which the hashes' length check sees. */
  expect(buf, sizeof buf - 10, CZ_ERR_TRUNCATED,
         ".challenge_proofs[9].proof_r_new.path.path[1].hashes: unexpected end");
  uint8_t t[sizeof buf + 1];
  memcpy(t, buf, sizeof buf);
  t[sizeof buf] = 0;
  expect(t, sizeof t, CZ_ERR_TRAILING, "1 bytes after the end");
  /* apex_leafs length 2^63: refused before any allocation. */
  memcpy(t, buf, sizeof buf);
  t[32 + 7] = 0x80;
  expect(t, sizeof buf, CZ_ERR_TRUNCATED, ".apex_leafs: unexpected end of input (length");
  /* challenge_proofs length 2^63. */
  memcpy(t, buf, sizeof buf);
  t[32 + 8 + 256 + 7] = 0x80;
  expect(t, sizeof buf, CZ_ERR_TRUNCATED, ".challenge_proofs: unexpected end");
  /* ProofData variant 3 in the first proof_r_old. */
  memcpy(t, buf, sizeof buf);
  t[32 + 8 + 256 + 8] = 3;
  expect(t, sizeof buf, CZ_ERR_PARSE, ".challenge_proofs[0].proof_r_old: unknown ProofData");
  /* comm_c = 2^256 - 1 >= r. */
  memcpy(t, buf, sizeof buf);
  memset(t, 0xff, 32);
  expect(t, sizeof buf, CZ_ERR_NONCANONICAL, ".comm_c: not a canonical");
  /* An apex leaf >= r. */
  memcpy(t, buf, sizeof buf);
  memset(t + 40 + 3 * 32, 0xff, 32);
  expect(t, sizeof buf, CZ_ERR_NONCANONICAL, ".apex_leafs[3]");
  cz_snap_partition_proof p;
  CHECK(cz_snap_vanilla_parse(NULL, buf, sizeof buf, 0, NULL, 0) == CZ_ERR_INVALID_ARG);
  CHECK(cz_snap_vanilla_parse(&p, NULL, 5, 0, NULL, 0) == CZ_ERR_INVALID_ARG);
  /* The writer refuses what the parser could not produce. */
  cz_snap_partition_proof v;
  make(&v, apex, ch);
  ch[4].proof_d_new.n_base = 5; /* disagrees with its 6 levels */
  CHECK_EQ_INT(cz_snap_vanilla_write(NULL, &v), 0);
  ch[4].proof_d_new.n_base = 6;
  v.apex_leaves = NULL;
  CHECK_EQ_INT(cz_snap_vanilla_write(NULL, &v), 0);
}

int main(void) {
  build_trees();
  test_round_trip();
  test_bad_input();
  cz_merkle_tree_free(&tree_r);
  cz_merkle_tree_free(&tree_d);
  return check_report("test_snap_vanilla");
}
