/* The native vanilla PoSt prover (cz_post_vanilla_prove) and the
 * replica that sealing hands back (cz_porep_seal_replica).
 *
 * The layout is checked by a bincode walker written here, apart from
 * post_vanilla.c: it reads the real 32 GiB WindowPoSt vector
 * (tests/vectors/windowpost-32gib-vanilla, made by filecoin-ffi) to its
 * last byte and recomputes every path up to its root with Poseidon, which
 * fixes the conventions (field order, hash order, index) from real data.
 * The same walker then reads what the generator writes: 2 KiB sectors
 * sealed by cz_porep_seal_replica (8-0-0, WinningPoSt and WindowPoSt over
 * 2 and 3 sectors), and custom 8-8-0 (512 leaves) and 8-8-2 (1024 leaves)
 * trees under the 32 GiB / 64 GiB registered proofs with the sector size shrunk to
 * fit, whose shape must be the real vector's but for the number of base
 * levels. Every generated proof must pass cz_post_vanilla_verify and
 * survive write -> parse -> write byte for byte. */
#include <string.h>

#include "check.h"
#include "cuzk/porep.h"
#include "cuzk/poseidon.h"
#include "cuzk/post.h"
#include "post_vectors.h"

/* ---- An independent bincode walker ----------------------------------------- */

#define W_MAX_INC 66

typedef struct {
  uint32_t variant;
  uint64_t len[3];     /* base, sub, top path elements */
  uint64_t hashes[3];  /* hashes per element of each path (all equal, else ~0) */
  uint64_t leaf_index; /* from the indices and arities */
  bool root_ok;        /* the path hashes from leaf to root */
  uint8_t root[32];
} w_inc;

typedef struct {
  uint64_t sector_id, n_sectors, n_inc;
  w_inc inc[W_MAX_INC];
  uint8_t comm_r[32], comm_c[32], comm_r_last[32];
  size_t used; /* bytes read */
} w_proof;

typedef struct {
  const uint8_t *b;
  size_t len, at;
  bool ok;
} cur;

static uint64_t rd_u(cur *c, int n) {
  uint64_t v = 0;
  if (c->at + (size_t)n > c->len) {
    c->ok = false;
    return 0;
  }
  for (int i = n - 1; i >= 0; i--) v = v << 8 | c->b[c->at + (size_t)i];
  c->at += (size_t)n;
  return v;
}

static const uint8_t *rd_32(cur *c) {
  if (c->at + 32 > c->len) {
    c->ok = false;
    return NULL;
  }
  c->at += 32;
  return c->b + c->at - 32;
}

static cz_fr fr_of(const uint8_t *b) {
  cz_fr v;
  memset(&v, 0, sizeof v);
  if (b) CHECK(cz_fr_from_bytes_le(&v, b) == CZ_OK);
  return v;
}

/* One path: hash `node` up through its elements; leaf index accumulated
 * in *index with *mult the product of the arities below. */
static void rd_path(cur *c, w_inc *w, int which, cz_fr *node, uint64_t *index, uint64_t *mult) {
  uint64_t n = rd_u(c, 8);
  w->len[which] = n;
  w->hashes[which] = 0;
  for (uint64_t e = 0; c->ok && e < n && e < 64; e++) {
    uint64_t nh = rd_u(c, 8);
    if (!c->ok || nh > 7) {
      c->ok = false;
      return;
    }
    w->hashes[which] = e == 0 || w->hashes[which] == nh ? nh : ~0ull;
    cz_fr sib[7];
    for (uint64_t j = 0; j < nh; j++) sib[j] = fr_of(rd_32(c));
    uint64_t idx = rd_u(c, 8);
    if (!c->ok || idx > nh) {
      c->ok = false;
      return;
    }
    /* The running node sits at idx among the arity children; the hashes
     * are the others in order. */
    cz_fr kids[8];
    for (uint64_t j = 0, k = 0; j <= nh; j++) kids[j] = j == idx ? *node : sib[k++];
    if (cz_poseidon_hash((unsigned)nh + 1, kids, node) != CZ_OK) c->ok = false;
    *index += idx * *mult;
    *mult *= nh + 1;
  }
}

static bool walk(const uint8_t *b, size_t len, w_proof *p) {
  memset(p, 0, sizeof *p);
  cur c = {b, len, 0, true};
  p->sector_id = rd_u(&c, 8);
  const uint8_t *x = rd_32(&c);
  if (x) memcpy(p->comm_r, x, 32);
  p->n_sectors = rd_u(&c, 8);
  if (!c.ok || p->n_sectors != 1) return false;
  p->n_inc = rd_u(&c, 8);
  if (!c.ok || p->n_inc > W_MAX_INC) return false;
  for (uint64_t i = 0; c.ok && i < p->n_inc; i++) {
    w_inc *w = &p->inc[i];
    w->variant = (uint32_t)rd_u(&c, 4);
    const uint8_t *root = NULL, *leaf = NULL;
    uint64_t index = 0, mult = 1;
    cz_fr node;
    if (w->variant == 0) {
      root = rd_32(&c);
      leaf = rd_32(&c);
      node = fr_of(leaf);
      rd_path(&c, w, 0, &node, &index, &mult);
    } else if (w->variant <= 2) {
      /* Sub / Top: the paths come before root and leaf, so hash after. */
      size_t paths = c.at;
      cz_fr dummy = fr_of(NULL);
      uint64_t i0 = 0, m0 = 1;
      rd_path(&c, w, 0, &dummy, &i0, &m0);
      rd_path(&c, w, 1, &dummy, &i0, &m0);
      if (w->variant == 2) rd_path(&c, w, 2, &dummy, &i0, &m0);
      root = rd_32(&c);
      leaf = rd_32(&c);
      if (!c.ok) return false;
      size_t end = c.at;
      c.at = paths;
      node = fr_of(leaf);
      rd_path(&c, w, 0, &node, &index, &mult);
      rd_path(&c, w, 1, &node, &index, &mult);
      if (w->variant == 2) rd_path(&c, w, 2, &node, &index, &mult);
      c.at = end;
    } else {
      return false;
    }
    if (!c.ok) return false;
    cz_fr r = fr_of(root);
    w->root_ok = cz_fr_eq(&node, &r);
    memcpy(w->root, root, 32);
    w->leaf_index = index;
  }
  x = rd_32(&c);
  if (x) memcpy(p->comm_c, x, 32);
  x = rd_32(&c);
  if (x) memcpy(p->comm_r_last, x, 32);
  p->used = c.at;
  return c.ok && c.at == len;
}

/* The walker on the real vector: the shape this project's writer must
 * produce for 8-8-0, and the conventions it checks others by. */
static w_proof real;

static void test_real_vector(void) {
  size_t len = 0;
  uint8_t *file = post_read_file(WINDOW_DIR "sector1.vproof", &len);
  if (!file) return;
  CHECK(walk(file, len, &real));
  CHECK_EQ_INT(len, 24960);
  CHECK_EQ_INT(real.sector_id, 1);
  CHECK_EQ_INT(real.n_inc, 10);
  static const uint64_t readme_leaves[10] = {707914199,  439148358, 967788220,  548708700,
                                             1061661429, 6202012,   1055504637, 389535735,
                                             1000069704, 600088878};
  for (int i = 0; i < 10; i++) {
    const w_inc *w = &real.inc[i];
    CHECK_EQ_INT(w->variant, 1);
    CHECK(w->len[0] == 9 && w->len[1] == 1 && w->len[2] == 0);
    CHECK(w->hashes[0] == 7 && w->hashes[1] == 7);
    CHECK(w->root_ok);
    CHECK_MEM(w->root, real.comm_r_last, 32);
    CHECK_EQ_INT(w->leaf_index, readme_leaves[i]);
  }
  /* The parser and writer round-trip it byte for byte. */
  cz_post_vanilla v;
  char msg[256] = "";
  CHECK_EQ_INT(cz_post_vanilla_parse(&v, file, len, 0, msg, sizeof msg), CZ_OK);
  size_t n = cz_post_vanilla_write(NULL, &v);
  CHECK_EQ_INT(n, len);
  uint8_t *out = malloc(n ? n : 1);
  CHECK_EQ_INT(cz_post_vanilla_write(out, &v), len);
  CHECK(n == len && memcmp(out, file, len) == 0);
  free(out);
  cz_post_vanilla_free(&v);
  free(file);
}

/* ---- Generated proofs -------------------------------------------------------- */

/* Bytes of a FallbackPoStSectorProof with n inclusions of these path
 * lengths (every element of arity 8, the top of arity top_arity): the
 * README's 48 + 8 + 10 x (4 + (8 + 9 x 240) + (8 + 240) + 64) + 64. */
static size_t expected_bytes(size_t n, size_t base, bool sub, unsigned top_arity) {
  size_t inc = 4 + 64 + 8 + base * 240;
  if (sub) inc += 8 + 240;
  if (top_arity) inc += 8 + 8 + (top_arity - 1) * 32 + 8;
  return 48 + 8 + n * inc + 64;
}

/* Write, walk, verify and round-trip one generated proof. *bytes gets the
 * encoding (caller frees). */
static void check_generated(const cz_post_vanilla *v, const uint64_t *challenges, size_t n,
                            uint32_t variant, size_t base, unsigned top_arity, w_proof *wp) {
  size_t len = cz_post_vanilla_write(NULL, v);
  CHECK_EQ_INT(len, expected_bytes(n, base, variant >= 1, variant == 2 ? top_arity : 0));
  uint8_t *b = malloc(len ? len : 1);
  CHECK_EQ_INT(cz_post_vanilla_write(b, v), len);
  CHECK(walk(b, len, wp));
  CHECK_EQ_INT(wp->sector_id, v->sector_id);
  CHECK_EQ_INT(wp->n_inc, n);
  uint8_t cr[32];
  cz_fr_to_bytes_le(cr, &v->sectors[0].comm_r_last);
  for (size_t i = 0; i < n && i < W_MAX_INC; i++) {
    CHECK_EQ_INT(wp->inc[i].variant, variant);
    CHECK_EQ_INT(wp->inc[i].len[0], base);
    CHECK_EQ_INT(wp->inc[i].len[1], variant >= 1 ? 1 : 0);
    CHECK_EQ_INT(wp->inc[i].len[2], variant == 2 ? 1 : 0);
    CHECK_EQ_INT(wp->inc[i].hashes[0], 7);
    if (variant >= 1) CHECK_EQ_INT(wp->inc[i].hashes[1], 7);
    if (variant == 2) CHECK_EQ_INT(wp->inc[i].hashes[2], top_arity - 1);
    CHECK(wp->inc[i].root_ok);
    CHECK_MEM(wp->inc[i].root, cr, 32);
    CHECK_EQ_INT(wp->inc[i].leaf_index, challenges[i]);
  }
  CHECK_MEM(wp->comm_r_last, cr, 32);
  /* parse -> write gives the same bytes. */
  cz_post_vanilla back;
  char msg[256] = "";
  CHECK_EQ_INT(cz_post_vanilla_parse(&back, b, len, 0, msg, sizeof msg), CZ_OK);
  uint8_t *b2 = malloc(len ? len : 1);
  CHECK_EQ_INT(cz_post_vanilla_write(b2, &back), len);
  CHECK_MEM(b2, b, len);
  cz_post_vanilla_free(&back);
  free(b2);
  free(b);
}

static const uint8_t *randomness(void) {
  static uint8_t r[32];
  for (int i = 0; i < 32; i++) r[i] = (uint8_t)(0x5a ^ (7 * i));
  r[31] &= 0x3f; /* canonical, as Lotus makes it */
  return r;
}

/* ---- Sealed 2 KiB sectors ---------------------------------------------------- */

#define N_SEALED 3

static cz_porep_replica replicas[N_SEALED];
static uint8_t prover_id[32];

static bool seal_sectors(void) {
  cz_prover_id_of_miner(prover_id, 1000);
  for (int i = 0; i < N_SEALED; i++) {
    cz_porep_seal_input in;
    memset(&in, 0, sizeof in);
    in.registered = cz_registered_porep_by_sector_size(2048, true);
    in.sector_id = (uint64_t)i + 1;
    memcpy(in.prover_id, prover_id, 32);
    memset(in.ticket, 0x0c, 32);
    memset(in.seed, 0x0d, 32);
    cz_porep_c1 c1;
    char msg[256] = "";
    cz_err e = cz_porep_seal_replica(&in, NULL, &c1, &replicas[i], 0, msg, sizeof msg);
    CHECK_EQ_INT(e, CZ_OK);
    if (e != CZ_OK) {
      fprintf(stderr, "seal: %s\n", msg);
      return false;
    }
    /* The replica agrees with the C1's own openings of tree C and R-last. */
    const cz_porep_replica *r = &replicas[i];
    CHECK_MEM(r->comm_r, c1.comm_r, 32);
    CHECK(cz_fr_eq(&r->comm_c, &c1.proofs[0].c_x.tree_c.root));
    CHECK(cz_fr_eq(&r->comm_r_last, &c1.proofs[0].tree_r_last.root));
    CHECK(cz_fr_eq(&r->comm_r_last, &r->tree_r_last.root));
    CHECK_EQ_INT(r->tree_r_last.n_leaves, 64);
    CHECK_EQ_INT(cz_porep_vanilla_verify(&c1, msg, sizeof msg), CZ_OK);
    /* A proof of the C1 opened from the handed-back tree is the C1's. */
    cz_merkle_proof p;
    CHECK_EQ_INT(cz_merkle_prove(&r->tree_r_last, c1.proofs[0].tree_r_last.challenge, &p), CZ_OK);
    CHECK(cz_fr_eq(&p.leaf, &c1.proofs[0].tree_r_last.leaf));
    cz_porep_c1_free(&c1);
  }
  /* The old entry point is unchanged: the same C1 without a replica. */
  cz_porep_seal_input in;
  memset(&in, 0, sizeof in);
  in.registered = cz_registered_porep_by_sector_size(2048, true);
  in.sector_id = 1;
  memcpy(in.prover_id, prover_id, 32);
  memset(in.ticket, 0x0c, 32);
  memset(in.seed, 0x0d, 32);
  cz_porep_c1 c1;
  char msg[256];
  CHECK_EQ_INT(cz_porep_seal(&in, &c1, 0, msg, sizeof msg), CZ_OK);
  CHECK_MEM(c1.comm_r, replicas[0].comm_r, 32);
  cz_porep_c1_free(&c1);
  return true;
}

static cz_err gen_for(const cz_registered_post *k, size_t sector, uint64_t sector_index,
                      cz_post_vanilla *v, uint64_t *ch) {
  char msg[256] = "";
  const cz_porep_replica *r = &replicas[sector];
  cz_err e =
      cz_post_sector_challenges(k, randomness(), sector_index, sector + 1, ch, msg, sizeof msg);
  if (e == CZ_OK)
    e = cz_post_vanilla_prove(k,
                              &(cz_post_replica){sector + 1, r->comm_r, &r->comm_c, &r->comm_r_last,
                                                 &r->tree_r_last},
                              ch, k->config_challenge_count, v, msg, sizeof msg);
  if (e != CZ_OK) fprintf(stderr, "generate: %s\n", msg);
  return e;
}

static void sector_of(cz_post_sector *s, size_t sector) {
  s->sector_id = sector + 1;
  memcpy(s->comm_r, replicas[sector].comm_r, 32);
}

static void test_winning(size_t n_sectors) {
  const cz_registered_post *k = cz_registered_post_by_id(0); /* StackedDrgWinning2KiBV1 */
  char msg[256] = "";
  uint64_t pick;
  CHECK_EQ_INT(cz_post_winning_sectors(k, randomness(), prover_id, n_sectors, &pick, msg,
                                       sizeof msg),
               CZ_OK);
  CHECK(pick < n_sectors);
  cz_post_vanilla v;
  uint64_t ch[66];
  CHECK_EQ_INT(gen_for(k, (size_t)pick, 0, &v, ch), CZ_OK);
  w_proof wp;
  check_generated(&v, ch, 66, 0, 2, 0, &wp);
  cz_post_sector s;
  sector_of(&s, (size_t)pick);
  cz_err e = cz_post_vanilla_verify(&(cz_post_challenge_seed){k, randomness(), prover_id, 0}, &s,
                                    &v, 1, msg, sizeof msg);
  CHECK_EQ_INT(e, CZ_OK);
  if (e != CZ_OK) fprintf(stderr, "winning verify: %s\n", msg);
  /* Another sector's comm_r: refused. */
  sector_of(&s, ((size_t)pick + 1) % N_SEALED);
  s.sector_id = pick + 1;
  CHECK_EQ_INT(cz_post_vanilla_verify(&(cz_post_challenge_seed){k, randomness(), prover_id, 0}, &s,
                                      &v, 1, msg, sizeof msg),
               CZ_ERR_PROOF_INVALID);
  cz_post_vanilla_free(&v);
}

/* WindowPoSt over the first n_sectors sealed sectors, every partition. */
static void test_window(uint32_t id, size_t n_sectors) {
  const cz_registered_post *k = cz_registered_post_by_id(id);
  size_t per = k->sector_count, parts = cz_post_partitions(k, n_sectors);
  CHECK_EQ_INT(parts, (n_sectors + per - 1) / per);
  char msg[256] = "";
  for (size_t p = 0; p < parts; p++) {
    size_t first = p * per, n = n_sectors - first < per ? n_sectors - first : per;
    cz_post_vanilla v[2];
    cz_post_sector s[2];
    uint64_t ch[2][10];
    for (size_t i = 0; i < n; i++) {
      CHECK_EQ_INT(gen_for(k, first + i, first + i, &v[i], ch[i]), CZ_OK);
      w_proof wp;
      check_generated(&v[i], ch[i], 10, 0, 2, 0, &wp);
      sector_of(&s[i], first + i);
    }
    cz_err e =
        cz_post_vanilla_verify(&(cz_post_challenge_seed){k, randomness(), prover_id, (uint32_t)p},
                               s, v, n, msg, sizeof msg);
    CHECK_EQ_INT(e, CZ_OK);
    if (e != CZ_OK) fprintf(stderr, "window %u verify partition %zu: %s\n", id, p, msg);
    if (n == 2) { /* the proofs in the wrong order: refused */
      cz_post_sector sw[2] = {s[1], s[0]};
      CHECK_EQ_INT(cz_post_vanilla_verify(&(cz_post_challenge_seed){k, randomness(), prover_id,
                                                                    (uint32_t)p},
                                          sw, v, 1, msg, sizeof msg),
                   CZ_ERR_PROOF_INVALID);
    }
    /* ApiVersion 1.0.0 counts the sector's position across partitions:
     * partition 1's proof does not hold as partition 0's. */
    if (p == 1 && k->api == CZ_API_1_0_0)
      CHECK_EQ_INT(cz_post_vanilla_verify(&(cz_post_challenge_seed){k, randomness(), prover_id, 0},
                                          s, v, n, msg, sizeof msg),
                   CZ_ERR_PROOF_INVALID);
    for (size_t i = 0; i < n; i++) cz_post_vanilla_free(&v[i]);
  }
}

/* ---- Custom 8-8-0 and 8-8-2 trees --------------------------------------------- */

static void random_fr(cz_fr *out) {
  uint8_t b[32];
  check_rand_bytes(b, 32);
  b[31] &= 0x3f;
  CHECK(cz_fr_from_bytes_le(out, b) == CZ_OK);
}

/* registered proof id's shape over n_leaves random leaves, sector_size shrunk to fit:
 * generate, verify, walk, round-trip. */
static void test_custom(uint32_t id, size_t n_leaves, uint32_t variant, size_t base) {
  cz_registered_post k = *cz_registered_post_by_id(id);
  k.sector_size = (uint64_t)n_leaves * 32;
  cz_fr *leaves = malloc(n_leaves * sizeof *leaves);
  for (size_t i = 0; i < n_leaves; i++) random_fr(&leaves[i]);
  cz_merkle_tree t;
  CHECK_EQ_INT(cz_merkle_tree_build(&t, &k.tree_r, leaves, n_leaves), CZ_OK);
  free(leaves);
  cz_fr comm_c, pair[2], comm_r;
  random_fr(&comm_c);
  pair[0] = comm_c;
  pair[1] = t.root;
  CHECK(cz_poseidon_hash(2, pair, &comm_r) == CZ_OK);
  uint8_t comm_r_b[32];
  cz_fr_to_bytes_le(comm_r_b, &comm_r);
  char msg[256] = "";
  const uint64_t sector_id = 77, sector_index = 0;
  uint64_t ch[66];
  CHECK_EQ_INT(cz_post_sector_challenges(&k, randomness(), sector_index, sector_id, ch, msg,
                                         sizeof msg),
               CZ_OK);
  cz_post_vanilla v;
  cz_err e =
      cz_post_vanilla_prove(&k, &(cz_post_replica){sector_id, comm_r_b, &comm_c, &t.root, &t}, ch,
                            k.config_challenge_count, &v, msg, sizeof msg);
  CHECK_EQ_INT(e, CZ_OK);
  if (e != CZ_OK) {
    fprintf(stderr, "custom %u: %s\n", id, msg);
    cz_merkle_tree_free(&t);
    return;
  }
  w_proof wp;
  check_generated(&v, ch, k.config_challenge_count, variant, base, k.tree_r.top_arity, &wp);
  /* The real 8-8-0 vector's shape, but for the base levels its size needs. */
  if (variant == 1)
    CHECK(wp.inc[0].variant == real.inc[0].variant && wp.inc[0].len[1] == real.inc[0].len[1] &&
          wp.inc[0].len[2] == real.inc[0].len[2] && wp.inc[0].hashes[0] == real.inc[0].hashes[0] &&
          wp.inc[0].hashes[1] == real.inc[0].hashes[1]);
  cz_post_sector s = {sector_id, {0}};
  memcpy(s.comm_r, comm_r_b, 32);
  e = cz_post_vanilla_verify(&(cz_post_challenge_seed){&k, randomness(), prover_id, 0}, &s, &v, 1,
                             msg, sizeof msg);
  CHECK_EQ_INT(e, CZ_OK);
  if (e != CZ_OK) fprintf(stderr, "custom %u verify: %s\n", id, msg);
  cz_post_vanilla_free(&v);

  /* Refusals, each naming its argument; *out zeroed. */
  const cz_registered_post *real_k = cz_registered_post_by_id(id); /* 32 / 64 GiB: wrong size */
  e = cz_post_vanilla_prove(real_k, &(cz_post_replica){sector_id, comm_r_b, &comm_c, &t.root, &t},
                            ch, 10, &v, msg, sizeof msg);
  CHECK(e == CZ_ERR_INVALID_ARG && strstr(msg, "tree_r_last") && v.sectors == NULL);
  uint64_t bad[1] = {n_leaves};
  e = cz_post_vanilla_prove(&k, &(cz_post_replica){sector_id, comm_r_b, &comm_c, &t.root, &t}, bad,
                            1, &v, msg, sizeof msg);
  CHECK(e == CZ_ERR_INVALID_ARG && strstr(msg, "challenges[0]"));
  e = cz_post_vanilla_prove(&k, &(cz_post_replica){sector_id, comm_r_b, &comm_c, &t.root, &t}, ch,
                            0, &v, msg, sizeof msg);
  CHECK(e == CZ_ERR_INVALID_ARG && strstr(msg, "challenges"));
  e = cz_post_vanilla_prove(&k, &(cz_post_replica){sector_id, comm_r_b, &t.root, &t.root, &t}, ch,
                            1, &v, msg, sizeof msg);
  CHECK(e == CZ_ERR_INVALID_ARG && strstr(msg, "comm_r:"));
  e = cz_post_vanilla_prove(&k, &(cz_post_replica){sector_id, comm_r_b, &comm_c, &comm_c, &t}, ch,
                            1, &v, msg, sizeof msg);
  CHECK(e == CZ_ERR_INVALID_ARG && strstr(msg, "comm_r_last"));
  uint8_t big[32];
  memset(big, 0xff, 32);
  e = cz_post_vanilla_prove(&k, &(cz_post_replica){sector_id, big, &comm_c, &t.root, &t}, ch, 1, &v,
                            msg, sizeof msg);
  CHECK(e == CZ_ERR_NONCANONICAL && strstr(msg, "comm_r"));
  cz_merkle_tree_free(&t);
}

int main(void) {
  test_real_vector();
  if (seal_sectors()) {
    test_winning(2);
    test_winning(3);
    test_window(10, 2); /* StackedDrgWindow2KiBV1_1 */
    test_window(10, 3);
    test_window(5, 3); /* StackedDrgWindow2KiBV1 */
  }
  for (int i = 0; i < N_SEALED; i++) cz_porep_replica_free(&replicas[i]);
  test_custom(8, 512, 1, 2);  /* 8-8-0: 8 base trees of 64 leaves */
  test_custom(9, 1024, 2, 2); /* 8-8-2: 2 x 8 base trees of 64 leaves */
  return check_report("test_post_generate");
}
