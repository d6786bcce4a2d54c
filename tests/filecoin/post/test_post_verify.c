/* The native vanilla PoSt verifier.
 *
 * Real data: tests/vectors/windowpost-32gib-vanilla (Curio's golden
 * test data: a filecoin-ffi vanilla proof for sector 1 of miner 1000,
 * StackedDrgWindow32GiBV1 = 8, ApiVersion 1.0.0, randomness 32 zero bytes;
 * comm_r is the sealed CID's digest, decoded from public.json here). Its
 * README gives the ten challenged leaves, found by an independent Python
 * reading. The verifier must accept it and refuse it with any path hash,
 * leaf or root changed, another sector id or randomness, or another
 * registered proof; the reader must refuse it truncated or with a length
 * of 2^63.
 * A synthetic 2 KiB WinningPoSt proof (tree built here, 66 Single paths)
 * covers the other variant; it is a regression guard. */
#include <jansson.h>
#include <string.h>

#include "check.h"
#include "cuzk/poseidon.h"
#include "cuzk/post.h"
#include "post_vectors.h"

static const uint64_t readme_leaves[10] = {707914199, 439148358,  967788220, 548708700,  1061661429,
                                           6202012,   1055504637, 389535735, 1000069704, 600088878};

/* Offsets in the file (see test_post_vanilla.c). */
#define INC(j) (56 + 2484 * (size_t)(j))
#define LEVEL(j, l) (INC(j) + 12 + 240 * (size_t)(l)) /* a base PathElement */
#define INC_SUB(j) (INC(j) + 4 + 8 + 9 * 240)
#define INC_ROOT(j) (INC_SUB(j) + 8 + 240)
#define INC_LEAF(j) (INC_ROOT(j) + 32)

typedef struct {
  uint8_t *file;
  size_t len;
  uint8_t randomness[32], prover_id[32];
  cz_post_sector sector;
} window_vector;

static bool load(window_vector *w) {
  memset(w, 0, sizeof *w);
  w->file = post_read_file(WINDOW_DIR "sector1.vproof", &w->len);
  json_error_t je;
  json_t *j = json_load_file(WINDOW_DIR "public.json", 0, &je);
  if (!w->file || !j) {
    if (!j) fprintf(stderr, "cannot load public.json: %s\n", je.text);
    json_decref(j);
    return false;
  }
  /* Randomness: base64 of 32 zero bytes ("AAAA...A="). */
  const char *r = json_string_value(json_object_get(j, "Randomness"));
  bool ok = r && strlen(r) == 44 && strspn(r, "A") == 43 && r[43] == '=';
  json_t *cs = json_array_get(json_object_get(j, "ChallengedSectors"), 0);
  json_t *cid = json_object_get(json_object_get(cs, "SealedCID"), "/");
  ok = ok && json_is_string(cid) && post_cid_comm_r(w->sector.comm_r, json_string_value(cid));
  w->sector.sector_id = (uint64_t)json_integer_value(json_object_get(cs, "SectorNumber"));
  ok = ok && w->sector.sector_id == 1 &&
       json_integer_value(
           json_object_get(json_array_get(json_object_get(j, "Proofs"), 0), "PoStProof")) == 8;
  cz_prover_id_of_miner(w->prover_id, (uint64_t)json_integer_value(json_object_get(j, "Prover")));
  json_decref(j);
  return ok;
}

/* Parse bytes and verify them under registered proof id; the parse error if any. */
static cz_err run(const window_vector *w, const uint8_t *bytes, size_t len, uint32_t id,
                  const uint8_t randomness[32], const cz_post_sector *s, uint32_t partition,
                  char *msg, size_t msg_len) {
  cz_post_vanilla v;
  cz_err e = cz_post_vanilla_parse(&v, bytes, len, 0, msg, msg_len);
  if (e != CZ_OK) return e;
  e = cz_post_vanilla_verify(&(cz_post_challenge_seed){cz_registered_post_by_id(id), randomness,
                                                       w->prover_id, partition},
                             s, &v, 1, msg, msg_len);
  cz_post_vanilla_free(&v);
  return e;
}

static void expect(cz_err got, cz_err want, const char *msg, const char *want_msg) {
  CHECK_EQ_INT(got, want);
  CHECK(strstr(msg, want_msg) != NULL);
  if (got != want || !strstr(msg, want_msg))
    fprintf(stderr, "  want %d \"%s\"\n  got  %d \"%s\"\n", (int)want, want_msg, (int)got, msg);
}

/* A copy of the file with byte `at` XOR x, verified under registered proof 8. */
static cz_err tampered(const window_vector *w, size_t at, uint8_t x, char *msg, size_t n) {
  uint8_t *b = malloc(w->len);
  memcpy(b, w->file, w->len);
  b[at] ^= x;
  cz_err e = run(w, b, w->len, 8, w->randomness, &w->sector, 0, msg, n);
  free(b);
  return e;
}

/* What the steps of test_window share: the vector, and one message buffer
 * that every call writes its error to and every expect reads. */
typedef struct {
  window_vector w;
  char msg[320];
} window_case;

/* Step 1: the challenges are the README's, and the proof is accepted. */
static void window_accepted(window_case *wc) {
  const window_vector *w = &wc->w;
  char *msg = wc->msg;
  size_t msg_len = sizeof wc->msg;
  /* The challenges as the README lists them. */
  uint64_t ch[10];
  CHECK_EQ_INT(cz_post_sector_challenges(cz_registered_post_by_id(8), w->randomness, 0, 1, ch, msg,
                                         msg_len),
               CZ_OK);
  CHECK_MEM(ch, readme_leaves, sizeof ch);
  /* Accepted. */
  cz_err e = run(w, w->file, w->len, 8, w->randomness, &w->sector, 0, msg, msg_len);
  CHECK_EQ_INT(e, CZ_OK);
  if (e != CZ_OK) fprintf(stderr, "verify: %s\n", msg);
  /* The 1.2.0 rule (V1_1, id 13) hashes n alone: the same for the first
   * sector of partition 0, so that proof holds too. */
  CHECK_EQ_INT(run(w, w->file, w->len, 13, w->randomness, &w->sector, 0, msg, msg_len), CZ_OK);
}

/* Step 2: a path hash, a leaf, a root, comm_c, comm_r_last or a path index
 * changed in the file: refused, and the message names the proof. */
static void window_tampered_file(window_case *wc) {
  const window_vector *w = &wc->w;
  char *msg = wc->msg;
  size_t msg_len = sizeof wc->msg;
  /* A path hash, a leaf, a root, comm_c, comm_r_last changed (low byte:
   * still canonical). */
  expect(tampered(w, LEVEL(4, 3) + 8 + 32 * 2, 1, msg, msg_len), CZ_ERR_PROOF_INVALID, msg,
         "vanilla_proofs[0].sectors[0].inclusion_proofs[4]: the path from the leaf does not hash");
  expect(tampered(w, INC_SUB(8) + 8 + 8 + 32 * 6, 1, msg, msg_len), CZ_ERR_PROOF_INVALID, msg,
         "inclusion_proofs[8]: the path from the leaf does not hash");
  expect(tampered(w, INC_LEAF(2), 1, msg, msg_len), CZ_ERR_PROOF_INVALID, msg,
         "inclusion_proofs[2]: the path from the leaf does not hash");
  expect(tampered(w, INC_ROOT(6), 1, msg, msg_len), CZ_ERR_PROOF_INVALID, msg,
         "inclusion_proofs[6].root: differs from comm_r_last");
  expect(tampered(w, w->len - 64, 1, msg, msg_len), CZ_ERR_PROOF_INVALID, msg,
         "vanilla_proofs[0].sectors[0]: comm_r != Poseidon(comm_c, comm_r_last)");
  expect(tampered(w, w->len - 32, 1, msg, msg_len), CZ_ERR_PROOF_INVALID, msg,
         "comm_r != Poseidon(comm_c, comm_r_last)");
  /* A path index changed: the leaf is not the challenge. */
  expect(tampered(w, LEVEL(0, 0) + 8 + 7 * 32, 1, msg, msg_len), CZ_ERR_PROOF_INVALID, msg,
         "inclusion_proofs[0]: leaf index");
}

/* Step 3: the proof against another sector id (on the public side only,
 * and on both sides), comm_r, randomness or partition: refused. */
static void window_other_public_side(window_case *wc) {
  const window_vector *w = &wc->w;
  char *msg = wc->msg;
  size_t msg_len = sizeof wc->msg;
  /* Another sector id: on the public side only, and on both sides. */
  cz_post_sector s2 = w->sector;
  s2.sector_id = 2;
  expect(run(w, w->file, w->len, 8, w->randomness, &s2, 0, msg, msg_len), CZ_ERR_PROOF_INVALID, msg,
         "vanilla_proofs[0].sector_id: 1 is not the challenged sector 2");
  {
    uint8_t *b = malloc(w->len);
    memcpy(b, w->file, w->len);
    b[0] = 2;
    expect(run(w, b, w->len, 8, w->randomness, &s2, 0, msg, msg_len), CZ_ERR_PROOF_INVALID, msg,
           "inclusion_proofs[0]: leaf index 707914199 is not the challenge");
    free(b);
  }
  /* Another comm_r on the public side. */
  cz_post_sector s3 = w->sector;
  s3.comm_r[0] ^= 1;
  expect(run(w, w->file, w->len, 8, w->randomness, &s3, 0, msg, msg_len), CZ_ERR_PROOF_INVALID, msg,
         "vanilla_proofs[0].comm_r: differs");
  /* Other randomness; another partition (sector_index 2349). */
  uint8_t r1[32] = {1};
  expect(run(w, w->file, w->len, 8, r1, &w->sector, 0, msg, msg_len), CZ_ERR_PROOF_INVALID, msg,
         "inclusion_proofs[0]: leaf index 707914199 is not the challenge");
  expect(run(w, w->file, w->len, 8, w->randomness, &w->sector, 1, msg, msg_len),
         CZ_ERR_PROOF_INVALID, msg, "is not the challenge");
}

/* Step 4: the file truncated, or with a length of 2^63: refused by the
 * reader; then registered proofs of another tree shape or challenge
 * count: refused, with the shape each needs. */
static void window_bad_length_or_kind(window_case *wc) {
  const window_vector *w = &wc->w;
  char *msg = wc->msg;
  size_t msg_len = sizeof wc->msg;
  /* Truncated; a length of 2^63. */
  expect(run(w, w->file, w->len - 1, 8, w->randomness, &w->sector, 0, msg, msg_len),
         CZ_ERR_TRUNCATED, msg, "comm_r_last: unexpected end of input");
  {
    uint8_t *b = malloc(w->len);
    memcpy(b, w->file, w->len);
    memset(b + 48, 0, 8);
    b[55] = 0x80;
    expect(run(w, b, w->len, 8, w->randomness, &w->sector, 0, msg, msg_len), CZ_ERR_TRUNCATED, msg,
           "vanilla_proofs[0].sectors[0].inclusion_proofs: unexpected end of input (length "
           "9223372036854775808");
    free(b);
  }

  /* Wrong registered proofs: another tree shape, another challenge count. */
  expect(run(w, w->file, w->len, 9, w->randomness, &w->sector, 0, msg, msg_len), CZ_ERR_INVALID_ARG,
         msg,
         "inclusion_proofs[0]: a Sub proof with 9/1/0 base/sub/top levels; "
         "StackedDrgWindow64GiBV1 (tree 8-8-2) needs Top with 9/1/1");
  expect(run(w, w->file, w->len, 5, w->randomness, &w->sector, 0, msg, msg_len), CZ_ERR_INVALID_ARG,
         msg, "needs Single with 2/0/0");
  expect(run(w, w->file, w->len, 3, w->randomness, &w->sector, 0, msg, msg_len), CZ_ERR_INVALID_ARG,
         msg, "inclusion_proofs: 10 proofs (StackedDrgWinning32GiBV1 opens 66");
}

/* Step 5: sector and inclusion counts, a second sector of the partition
 * (other challenges), non-canonical prover id and randomness, no registered proof. */
static void window_counts_and_seeds(window_case *wc) {
  const window_vector *w = &wc->w;
  char *msg = wc->msg;
  size_t msg_len = sizeof wc->msg;
  /* Counts, and the second sector of a partition gets other challenges. */
  cz_post_vanilla v[2];
  CHECK_EQ_INT(cz_post_vanilla_parse(&v[0], w->file, w->len, 0, msg, msg_len), CZ_OK);
  CHECK_EQ_INT(cz_post_vanilla_parse(&v[1], w->file, w->len, 1, msg, msg_len), CZ_OK);
  const cz_registered_post *k = cz_registered_post_by_id(8);
  cz_post_sector two[2] = {w->sector, w->sector};
  expect(cz_post_vanilla_verify(&(cz_post_challenge_seed){k, w->randomness, w->prover_id, 0}, two,
                                v, 2, msg, msg_len),
         CZ_ERR_PROOF_INVALID, msg, "vanilla_proofs[1].sectors[0].inclusion_proofs[0]: leaf index");
  expect(cz_post_vanilla_verify(&(cz_post_challenge_seed){k, w->randomness, w->prover_id, 0}, two,
                                v, 0, msg, msg_len),
         CZ_ERR_INVALID_ARG, msg, "0 sectors in partition 0");
  v[0].sectors[0].n_inclusions = 9;
  expect(cz_post_vanilla_verify(&(cz_post_challenge_seed){k, w->randomness, w->prover_id, 0}, two,
                                v, 1, msg, msg_len),
         CZ_ERR_INVALID_ARG, msg, "inclusion_proofs: 9 proofs");
  v[0].sectors[0].n_inclusions = 10;
  /* Non-canonical prover id and randomness. */
  uint8_t ff[32];
  memset(ff, 0xff, 32);
  expect(cz_post_vanilla_verify(&(cz_post_challenge_seed){k, w->randomness, ff, 0}, two, v, 1, msg,
                                msg_len),
         CZ_ERR_NONCANONICAL, msg, "prover_id: not a canonical");
  expect(cz_post_vanilla_verify(&(cz_post_challenge_seed){k, ff, w->prover_id, 0}, two, v, 1, msg,
                                msg_len),
         CZ_ERR_NONCANONICAL, msg, "randomness: not a canonical");
  CHECK_EQ_INT(cz_post_vanilla_verify(&(cz_post_challenge_seed){k, w->randomness, w->prover_id, 0},
                                      two, v, 1, msg, msg_len),
               CZ_OK);
  CHECK_EQ_INT(cz_post_vanilla_verify(&(cz_post_challenge_seed){NULL, w->randomness, w->prover_id,
                                                                0},
                                      two, v, 1, msg, msg_len),
               CZ_ERR_INVALID_ARG);
  cz_post_vanilla_free(&v[0]);
  cz_post_vanilla_free(&v[1]);
}

/* The real WindowPoSt vanilla proof, step by step (see the functions
 * above); skipped when its file cannot be read. */
static void test_window(void) {
  window_case wc = {.msg = ""};
  CHECK(load(&wc.w));
  if (!wc.w.file) return;
  window_accepted(&wc);
  window_tampered_file(&wc);
  window_other_public_side(&wc);
  window_bad_length_or_kind(&wc);
  window_counts_and_seeds(&wc);
  free(wc.w.file);
}

/* WinningPoSt 2 KiB over a tree built here: 66 Single inclusions at the
 * challenges the verifier derives. */
static void test_winning_synthetic(void) {
  const cz_registered_post *k = cz_registered_post_by_id(0);
  static const cz_merkle_shape shape = {CZ_MERKLE_POSEIDON, 8, 0, 0};
  uint8_t randomness[32] = {0x2a, 0x07}, prover_id[32];
  cz_prover_id_of_miner(prover_id, 1000);
  cz_fr leaves[64];
  for (int i = 0; i < 64; i++) cz_fr_from_u64(&leaves[i], 0x1234567 * (uint64_t)(i + 1));
  cz_merkle_tree t;
  CHECK_EQ_INT(cz_merkle_tree_build(&t, &shape, leaves, 64), CZ_OK);
  static cz_post_inclusion inc[66];
  cz_post_sector_proof sp = {.inclusions = inc, .n_inclusions = 66, .comm_r_last = t.root};
  cz_fr_from_u64(&sp.comm_c, 77);
  cz_post_vanilla v = {.sector_id = 7, .sectors = &sp, .n_sectors = 1};
  cz_fr pair[2] = {sp.comm_c, sp.comm_r_last};
  CHECK_EQ_INT(cz_poseidon_hash(2, pair, &v.comm_r), CZ_OK);
  cz_post_sector s = {.sector_id = 7};
  cz_fr_to_bytes_le(s.comm_r, &v.comm_r);
  char msg[256];
  uint64_t ch[66];
  CHECK_EQ_INT(cz_post_sector_challenges(k, randomness, 0, 7, ch, msg, sizeof msg), CZ_OK);
  for (int i = 0; i < 66; i++) {
    CHECK_EQ_INT(cz_merkle_prove(&t, ch[i], &inc[i].proof), CZ_OK);
    inc[i].n_base = 2;
  }
  CHECK_EQ_INT(cz_post_vanilla_verify(&(cz_post_challenge_seed){k, randomness, prover_id, 0}, &s,
                                      &v, 1, msg, sizeof msg),
               CZ_OK);
  /* Through bincode and back: still accepted. */
  size_t n = cz_post_vanilla_write(NULL, &v);
  uint8_t *b = malloc(n);
  cz_post_vanilla_write(b, &v);
  cz_post_vanilla w;
  CHECK_EQ_INT(cz_post_vanilla_parse(&w, b, n, 0, msg, sizeof msg), CZ_OK);
  CHECK_EQ_INT(cz_post_vanilla_verify(&(cz_post_challenge_seed){k, randomness, prover_id, 0}, &s,
                                      &w, 1, msg, sizeof msg),
               CZ_OK);
  cz_post_vanilla_free(&w);
  free(b);
  /* Winning has one partition and one sector; a wrong leaf is named. */
  expect(cz_post_vanilla_verify(&(cz_post_challenge_seed){k, randomness, prover_id, 1}, &s, &v, 1,
                                msg, sizeof msg),
         CZ_ERR_INVALID_ARG, msg, "partition 1");
  size_t c = (ch[5] + 1) % 64;
  CHECK_EQ_INT(cz_merkle_prove(&t, c, &inc[5].proof), CZ_OK);
  expect(cz_post_vanilla_verify(&(cz_post_challenge_seed){k, randomness, prover_id, 0}, &s, &v, 1,
                                msg, sizeof msg),
         CZ_ERR_PROOF_INVALID, msg, "vanilla_proofs[0].sectors[0].inclusion_proofs[5]: leaf index");
  cz_merkle_tree_free(&t);
}

int main(void) {
  test_window();
  test_winning_synthetic();
  return check_report("test_post_verify");
}
