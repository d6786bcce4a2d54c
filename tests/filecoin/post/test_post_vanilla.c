/* The bincode FallbackPoStSectorProof reader and writer.
 *
 * Real data: tests/vectors/windowpost-32gib-vanilla/sector1.vproof, a
 * 32 GiB vanilla proof from Curio's golden test data (made by filecoin-ffi);
 * its README lists what an independent Python reading found: sector 1, ten
 * Sub proofs whose leaf indices are given, every root equal to comm_r_last,
 * comm_r equal to the sealed CID's digest (public.json). The round trip
 * must give the file back byte for byte; every prefix must be refused.
 * Synthetic Single and Top proofs (trees built here) check the other two
 * variants' layouts; those are regression guards, the layout itself comes
 * from merkle/proof.rs. */
#include <jansson.h>
#include <string.h>

#include "check.h"
#include "cuzk/poseidon.h"
#include "cuzk/post.h"
#include "post_vectors.h"

/* README: LE_u64(SHA-256(0^32 || 1 u64 LE || n u64 LE)[0..8]) mod 2^30. */
static const uint64_t readme_leaves[10] = {707914199, 439148358,  967788220, 548708700,  1061661429,
                                           6202012,   1055504637, 389535735, 1000069704, 600088878};

/* Byte offsets in the 32 GiB file: sector_id 0, comm_r 8, sectors 40,
 * inclusion_proofs 48, inclusion j at 56 + 2484 j: variant, base_proof
 * (8 + 9 x 240), sub_proof (8 + 240), root, leaf; then comm_c, comm_r_last. */
#define INC(j) (56 + 2484 * (size_t)(j))
#define INC_SUB(j) (INC(j) + 4 + 8 + 9 * 240)
#define INC_ROOT(j) (INC_SUB(j) + 8 + 240)
#define INC_LEAF(j) (INC_ROOT(j) + 32)

static bool public_comm_r(uint8_t comm_r[32]) {
  json_error_t je;
  json_t *j = json_load_file(WINDOW_DIR "public.json", 0, &je);
  if (!j) {
    fprintf(stderr, "cannot load public.json: %s\n", je.text);
    return false;
  }
  json_t *cid =
      json_object_get(json_object_get(json_array_get(json_object_get(j, "ChallengedSectors"), 0),
                                      "SealedCID"),
                      "/");
  bool ok = json_is_string(cid) && post_cid_comm_r(comm_r, json_string_value(cid));
  json_decref(j);
  return ok;
}

/* Parse a heap copy of exactly len bytes of buf. */
static cz_err parse_copy(cz_post_vanilla *v, const uint8_t *buf, size_t len, char *msg,
                         size_t msg_len) {
  uint8_t *copy = malloc(len ? len : 1);
  memcpy(copy, buf, len);
  cz_err e = cz_post_vanilla_parse(v, len ? copy : NULL, len, 0, msg, msg_len);
  free(copy);
  return e;
}

static bool is_zero(const void *p, size_t n) {
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++)
    if (b[i]) return false;
  return true;
}

static void test_real(const uint8_t *file, size_t len) {
  char msg[256];
  cz_post_vanilla v;
  CHECK_EQ_INT(cz_post_vanilla_parse(&v, file, len, 0, msg, sizeof msg), CZ_OK);
  if (v.n_sectors != 1) {
    fprintf(stderr, "parse: %s\n", msg);
    check_failed++;
    return;
  }
  CHECK_EQ_INT(v.sector_id, 1);
  uint8_t comm_r[32], got[32];
  CHECK(public_comm_r(comm_r));
  cz_fr_to_bytes_le(got, &v.comm_r);
  CHECK_MEM(got, comm_r, 32);
  const cz_post_sector_proof *sp = &v.sectors[0];
  CHECK_EQ_INT(sp->n_inclusions, 10);
  for (size_t j = 0; j < sp->n_inclusions && j < 10; j++) {
    const cz_post_inclusion *inc = &sp->inclusions[j];
    CHECK_EQ_INT(inc->variant, 1);
    CHECK_EQ_INT(inc->n_base, 9);
    CHECK_EQ_INT(inc->n_sub, 1);
    CHECK_EQ_INT(inc->n_top, 0);
    CHECK_EQ_INT(inc->proof.n_levels, 10);
    CHECK_EQ_INT(inc->proof.challenge, readme_leaves[j]);
    CHECK(cz_fr_eq(&inc->proof.root, &sp->comm_r_last));
    CHECK_EQ_INT(inc->proof.shape.base_arity, 8);
    CHECK_EQ_INT(inc->proof.shape.sub_arity, 8);
    CHECK_EQ_INT(inc->proof.shape.top_arity, 0);
    /* The path hashes to the root (cz_merkle_verify, Poseidon arity 8). */
    CHECK(cz_merkle_verify(&inc->proof));
  }
  /* Round trip: the same bytes. */
  size_t n = cz_post_vanilla_write(NULL, &v);
  CHECK_EQ_INT(n, len);
  uint8_t *out = malloc(n);
  CHECK_EQ_INT(cz_post_vanilla_write(out, &v), n);
  CHECK(n == len && memcmp(out, file, len) == 0);
  free(out);
  cz_post_vanilla_free(&v);
  CHECK(is_zero(&v, sizeof v));
  cz_post_vanilla_free(&v); /* idempotent */
}

/* Every proper prefix is refused as truncated, owns nothing, and says so. */
static void test_prefixes(const uint8_t *file, size_t len) {
  size_t bad = 0;
  for (size_t cut = 0; cut < len; cut++) {
    char msg[256] = "";
    cz_post_vanilla v;
    cz_err e = parse_copy(&v, file, cut, msg, sizeof msg);
    if (e != CZ_ERR_TRUNCATED || !is_zero(&v, sizeof v) ||
        !strstr(msg, "unexpected end of input")) {
      if (bad++ < 3) fprintf(stderr, "prefix %zu: %d %s\n", cut, (int)e, msg);
    }
  }
  CHECK_EQ_INT(bad, 0);
}

static void expect(const uint8_t *buf, size_t len, cz_err want, const char *msg_want) {
  char msg[256] = "";
  cz_post_vanilla v;
  cz_err e = parse_copy(&v, buf, len, msg, sizeof msg);
  CHECK_EQ_INT(e, want);
  CHECK(is_zero(&v, sizeof v));
  CHECK(strstr(msg, msg_want) != NULL);
  if (!strstr(msg, msg_want)) fprintf(stderr, "want \"%s\", got \"%s\"\n", msg_want, msg);
}

static void put64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void test_errors(const uint8_t *file, size_t len) {
  uint8_t *b = malloc(len + 1);
  /* Named truncation in a deep field. */
  expect(file, INC_SUB(3) + 8 + 16, CZ_ERR_TRUNCATED,
         "vanilla_proofs[0].sectors[0].inclusion_proofs[3].sub_proof.path[0].hashes: "
         "unexpected end of input");
  expect(file, INC_LEAF(9) + 1, CZ_ERR_TRUNCATED,
         "vanilla_proofs[0].sectors[0].inclusion_proofs[9].leaf: unexpected end of input");
  /* Trailing byte. */
  memcpy(b, file, len);
  b[len] = 0;
  expect(b, len + 1, CZ_ERR_TRAILING, "vanilla_proofs[0]: 1 bytes after the end");
  /* Lengths of 2^63 (and 2^64 - 1) in each Vec: refused before allocating. */
  static const struct {
    size_t at;
    const char *field;
  } lens[] = {
      {40, "vanilla_proofs[0].sectors: unexpected end of input (length"},
      {48, "vanilla_proofs[0].sectors[0].inclusion_proofs: unexpected end of input (length"},
      {INC(0) + 4, "inclusion_proofs[0].base_proof.path: unexpected end of input (length"},
      {INC(0) + 12, "inclusion_proofs[0].base_proof.path[0].hashes: unexpected end of input"},
      {INC_SUB(5), "inclusion_proofs[5].sub_proof.path: unexpected end of input (length"},
  };
  for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
    memcpy(b, file, len);
    put64(b + lens[i].at, 1ull << 63);
    expect(b, len, CZ_ERR_TRUNCATED, lens[i].field);
    put64(b + lens[i].at, UINT64_MAX);
    expect(b, len, CZ_ERR_TRUNCATED, lens[i].field);
  }
  /* Unknown variant. */
  memcpy(b, file, len);
  b[INC(2)] = 3;
  expect(b, len, CZ_ERR_PARSE, "inclusion_proofs[2]: unknown ProofData variant 3");
  /* A hash count that is no arity: 6 hashes (the bytes are there). */
  memcpy(b, file, len);
  put64(b + INC(0) + 12, 6);
  expect(b, len, CZ_ERR_PARSE, "inclusion_proofs[0].base_proof.path[0].hashes: 6 hashes");
  /* index >= arity: level 0's index sits after its 7 hashes. */
  memcpy(b, file, len);
  put64(b + INC(0) + 12 + 8 + 7 * 32, 8);
  expect(b, len, CZ_ERR_PARSE, "inclusion_proofs[0].base_proof.path[0].index: 8 is not below");
  /* Non-canonical field elements. */
  memcpy(b, file, len);
  memset(b + 8, 0xff, 32);
  expect(b, len, CZ_ERR_NONCANONICAL, "vanilla_proofs[0].comm_r: not a canonical");
  memcpy(b, file, len);
  memset(b + INC_ROOT(7), 0xff, 32);
  expect(b, len, CZ_ERR_NONCANONICAL, "inclusion_proofs[7].root: not a canonical");
  memcpy(b, file, len);
  memset(b + INC(1) + 12 + 8 + 32, 0xff, 32);
  expect(b, len, CZ_ERR_NONCANONICAL, "inclusion_proofs[1].base_proof.path[0].hashes[1]:");
  memcpy(b, file, len);
  memset(b + len - 32, 0xff, 32);
  expect(b, len, CZ_ERR_NONCANONICAL, "vanilla_proofs[0].sectors[0].comm_r_last: not a canonical");
  /* The index in messages. */
  char msg[256];
  cz_post_vanilla v;
  CHECK_EQ_INT(cz_post_vanilla_parse(&v, file, 10, 17, msg, sizeof msg), CZ_ERR_TRUNCATED);
  CHECK(strncmp(msg, "vanilla_proofs[17].comm_r:", 26) == 0);
  CHECK_EQ_INT(cz_post_vanilla_parse(NULL, file, len, 0, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_post_vanilla_parse(&v, NULL, 5, 0, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  free(b);
}

/* A vanilla proof over a tree built here: one SectorProof, `count`
 * inclusions of the given leaves. */
static bool synthetic(cz_post_vanilla *v, cz_merkle_tree *t, const cz_merkle_shape *s,
                      size_t n_leaves, const size_t *leaves, size_t count) {
  cz_fr *data = malloc(n_leaves * sizeof *data);
  for (size_t i = 0; i < n_leaves; i++) cz_fr_from_u64(&data[i], 1000 + 7 * i);
  bool ok = cz_merkle_tree_build(t, s, data, n_leaves) == CZ_OK;
  free(data);
  if (!ok) return false;
  memset(v, 0, sizeof *v);
  v->sector_id = 42;
  v->sectors = calloc(1, sizeof *v->sectors);
  v->n_sectors = 1;
  cz_post_sector_proof *sp = &v->sectors[0];
  sp->inclusions = calloc(count, sizeof *sp->inclusions);
  sp->n_inclusions = count;
  cz_fr_from_u64(&sp->comm_c, 99);
  sp->comm_r_last = t->root;
  cz_fr pair[2] = {sp->comm_c, sp->comm_r_last};
  CHECK(cz_poseidon_hash(2, pair, &v->comm_r) == CZ_OK);
  size_t base = cz_merkle_proof_levels(s, n_leaves) - (s->sub_arity != 0) - (s->top_arity != 0);
  for (size_t i = 0; i < count; i++) {
    cz_post_inclusion *inc = &sp->inclusions[i];
    ok = ok && cz_merkle_prove(t, leaves[i], &inc->proof) == CZ_OK;
    inc->variant = s->top_arity ? 2 : s->sub_arity ? 1 : 0;
    inc->n_base = (uint32_t)base;
    inc->n_sub = s->sub_arity != 0;
    inc->n_top = s->top_arity != 0;
  }
  return ok;
}

static void round_trip(const cz_merkle_shape *s, size_t n_leaves, size_t expect_len) {
  static const size_t leaves[3] = {0, 37, 63};
  cz_post_vanilla v, w;
  cz_merkle_tree t = {0};
  CHECK(synthetic(&v, &t, s, n_leaves, leaves, 3));
  size_t n = cz_post_vanilla_write(NULL, &v);
  CHECK_EQ_INT(n, expect_len);
  uint8_t *b = malloc(n), *b2 = malloc(n);
  CHECK_EQ_INT(cz_post_vanilla_write(b, &v), n);
  char msg[256];
  CHECK_EQ_INT(cz_post_vanilla_parse(&w, b, n, 0, msg, sizeof msg), CZ_OK);
  CHECK_EQ_INT(w.sector_id, 42);
  CHECK_EQ_INT(w.n_sectors, 1);
  CHECK(w.n_sectors == 1 && w.sectors[0].n_inclusions == 3 &&
        memcmp(w.sectors[0].inclusions, v.sectors[0].inclusions, 3 * sizeof(cz_post_inclusion)) ==
            0);
  for (size_t i = 0; w.n_sectors == 1 && i < 3; i++) {
    CHECK_EQ_INT(w.sectors[0].inclusions[i].proof.challenge, leaves[i]);
    CHECK(cz_merkle_verify(&w.sectors[0].inclusions[i].proof));
  }
  CHECK_EQ_INT(cz_post_vanilla_write(b2, &w), n);
  CHECK_MEM(b, b2, n);
  /* The writer refuses what the parser could not have produced. */
  v.sectors[0].inclusions[1].n_top = 5;
  CHECK_EQ_INT(cz_post_vanilla_write(NULL, &v), 0);
  free(b);
  free(b2);
  cz_post_vanilla_free(&v);
  cz_post_vanilla_free(&w);
  cz_merkle_tree_free(&t);
}

static void test_synthetic(void) {
  /* Single over 64 leaves (2 KiB, 8-0-0): 2 levels of 240 bytes.
   * 48 + 8 + 3 x (4 + 64 + 8 + 2 x 240) + 64. */
  cz_merkle_shape single = {CZ_MERKLE_POSEIDON, 8, 0, 0};
  round_trip(&single, 64, 48 + 8 + 3 * (4 + 64 + 8 + 2 * 240) + 64);
  /* Top over 8 x 8 x 2 leaves (8-8-2): 1 base level, 1 sub, 1 top (arity
   * 2: 1 hash, 48 bytes). */
  cz_merkle_shape top = {CZ_MERKLE_POSEIDON, 8, 8, 2};
  round_trip(&top, 128, 48 + 8 + 3 * (4 + 64 + (8 + 240) + (8 + 240) + (8 + 48)) + 64);
}

int main(void) {
  size_t len = 0;
  uint8_t *file = post_read_file(WINDOW_DIR "sector1.vproof", &len);
  if (file) {
    CHECK_EQ_INT(len, 24960);
    test_real(file, len);
    test_prefixes(file, len);
    test_errors(file, len);
    free(file);
  }
  test_synthetic();
  return check_report("test_post_vanilla");
}
