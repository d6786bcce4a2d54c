/* PoSt challenges and public inputs.
 *
 * Real data: tests/vectors/winningpost-2kib, a WinningPoSt proof made
 * and verified by filecoin-ffi v1.36.0, its official verifying key, and the
 * 132 public inputs an independent Groth16 verifier accepted it with. From
 * vector.json alone (randomness, miner id, sector number, sealed CID) the
 * inputs must come out identical, and the proof must verify under the key
 * with them and with nothing else (any input or proof byte changed).
 * Other expected values (WindowPoSt leaves under both challenge-index
 * rules, WinningPoSt sector selection) were computed with Python's hashlib
 * from the formulas in rust-fil-proofs fallback/vanilla.rs and utils.rs:
 *   leaf = LE_u64(sha256(rand + sid.to_bytes(8,'little') +
 *          ci.to_bytes(8,'little')).digest()[:8]) % (sector_size // 32)
 *   pick = LE_u64(sha256(prover_id + rand + n.to_bytes(8,'little'))
 *          .digest()[:8]) % sector_set_len
 * with rand and prover_id as below (miner 1000 = e8 07, zero-padded). */
#include <jansson.h>
#include <string.h>

#include "check.h"
#include "cuzk/groth16.h"
#include "cuzk/post.h"
#include "post_vectors.h"

#define N_INPUTS 132

typedef struct {
  uint8_t randomness[32], prover_id[32];
  cz_post_sector sector;
  uint8_t proof[CZ_GROTH16_PROOF_BYTES];
} winning_vector;

static bool hex_field(json_t *j, const char *key, uint8_t *out, size_t n) {
  const char *s = json_string_value(json_object_get(j, key));
  return s && strlen(s) == 2 * n && check_hex(out, n, s) == (long)n;
}

/* vector.json, as its README describes it. */
static bool load_vector(winning_vector *w) {
  json_error_t je;
  json_t *j = json_load_file(WINNING_DIR "vector.json", 0, &je);
  if (!j) {
    fprintf(stderr, "cannot load vector.json: %s\n", je.text);
    return false;
  }
  uint8_t cid[40];
  bool ok = hex_field(j, "randomness_hex", w->randomness, 32) &&
            hex_field(j, "sealed_cid_bytes_hex", cid, sizeof cid) &&
            hex_field(j, "proof_bytes_hex", w->proof, sizeof w->proof) &&
            json_integer_value(json_object_get(j, "post_proof_type")) == 0;
  /* comm_r: the trailing 32 bytes of the CID's multihash digest; the
   * base32 string must decode to the same bytes. */
  memcpy(w->sector.comm_r, cid + 8, 32);
  uint8_t from_b32[32];
  const char *b32 = json_string_value(json_object_get(j, "sealed_cid"));
  ok = ok && b32 && post_cid_comm_r(from_b32, b32) && !memcmp(from_b32, w->sector.comm_r, 32);
  w->sector.sector_id = (uint64_t)json_integer_value(json_object_get(j, "sector_number"));
  cz_prover_id_of_miner(w->prover_id, (uint64_t)json_integer_value(json_object_get(j, "miner_id")));
  json_decref(j);
  return ok;
}

/* public_inputs.json: {"count": 132, "inputs": [32-byte LE hex, ...]}. */
static bool load_inputs(uint8_t (*out)[32]) {
  json_error_t je;
  json_t *j = json_load_file(WINNING_DIR "public_inputs.json", 0, &je);
  if (!j) return false;
  json_t *a = json_object_get(j, "inputs");
  bool ok = json_array_size(a) == N_INPUTS;
  for (size_t i = 0; ok && i < N_INPUTS; i++) {
    const char *s = json_string_value(json_array_get(a, i));
    ok = s && check_hex(out[i], 32, s) == 32;
  }
  json_decref(j);
  return ok;
}

static cz_err verify(const cz_groth16_pvk *pvk, const cz_fr *in, const uint8_t *bytes) {
  cz_groth16_proof p;
  cz_err e = cz_groth16_proof_read(&p, bytes);
  return e != CZ_OK ? e : cz_groth16_verify_prepared(pvk, in, N_INPUTS, &p);
}

/* What the steps of test_winning_vector share: the vector, its registered proof and
 * the public inputs derived from it. */
typedef struct {
  winning_vector w;
  const cz_registered_post *k;
  cz_fr in[N_INPUTS];
} winning_case;

/* Step 1: the 132 inputs derived from vector.json are public_inputs.json's. */
static void winning_inputs_match(winning_case *wc) {
  winning_vector *w = &wc->w;
  cz_fr *in = wc->in;
  static uint8_t want[N_INPUTS][32];
  CHECK(load_vector(w));
  CHECK(load_inputs(want));
  CHECK_EQ_INT(w->sector.sector_id, 7);
  wc->k = cz_registered_post_by_id(0);
  char msg[256];
  CHECK_EQ_INT(cz_post_public_input_count(wc->k), N_INPUTS);
  CHECK_EQ_INT(cz_post_public_inputs(&(cz_post_challenge_seed){.registered = wc->k,
                                                               .randomness = w->randomness,
                                                               .partition = 0},
                                     &w->sector, 1, in, N_INPUTS, msg, sizeof msg),
               CZ_OK);
  size_t diff = 0;
  for (size_t i = 0; i < N_INPUTS; i++) {
    uint8_t b[32];
    cz_fr_to_bytes_le(b, &in[i]);
    diff += memcmp(b, want[i], 32) != 0;
  }
  CHECK_EQ_INT(diff, 0);
}

/* Step 2: the winning sector picked among sets of several sizes; an empty
 * set and a WindowPoSt registered proof are refused. */
static void winning_sector_selection(const winning_case *wc) {
  const winning_vector *w = &wc->w;
  const cz_registered_post *k = wc->k;
  char msg[256];
  /* The selection among a one-sector set is that sector (vector.json's
   * challenged_indices [0]); larger sets from hashlib. */
  static const struct {
    uint64_t len, pick;
  } picks[] = {{1, 0}, {2, 1}, {3, 1}, {1000, 65}, {1ull << 40, 792661091137ull}};
  for (size_t i = 0; i < sizeof picks / sizeof picks[0]; i++) {
    uint64_t got = ~0ull;
    CHECK_EQ_INT(cz_post_winning_sectors(k, w->randomness, w->prover_id, picks[i].len, &got, msg,
                                         sizeof msg),
                 CZ_OK);
    CHECK_EQ_INT(got, picks[i].pick);
  }
  uint64_t got;
  CHECK_EQ_INT(cz_post_winning_sectors(k, w->randomness, w->prover_id, 0, &got, msg, sizeof msg),
               CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_post_winning_sectors(cz_registered_post_by_id(5), w->randomness, w->prover_id, 5,
                                       &got, msg, sizeof msg),
               CZ_ERR_INVALID_ARG);
}

/* Step 3: the vanilla view: 66 challenges of sector 0, which are the slots'. */
static void winning_vanilla_challenges(const winning_case *wc) {
  char msg[256];
  uint64_t ch[66];
  CHECK_EQ_INT(cz_post_sector_challenges(wc->k, wc->w.randomness, 0, 7, ch, msg, sizeof msg),
               CZ_OK);
  size_t same = 0;
  for (size_t i = 0; i < 66; i++) {
    cz_fr c;
    cz_fr_from_u64(&c, ch[i]);
    same += cz_fr_eq(&c, &wc->in[2 * i + 1]);
  }
  CHECK_EQ_INT(same, 66);
}

/* Step 4, continued: the real proof with any input or any proof byte
 * changed is rejected. The inputs are left as they were. */
static void winning_rejects_changed_bytes(const cz_groth16_pvk *pvk, winning_case *wc) {
  const winning_vector *w = &wc->w;
  cz_fr *in = wc->in;
  /* Any input changed (plus one): rejected. */
  size_t accepted = 0;
  for (size_t i = 0; i < N_INPUTS; i++) {
    cz_fr keep = in[i];
    cz_fr_add(&in[i], &in[i], &CZ_FR_ONE);
    accepted += verify(pvk, in, w->proof) == CZ_OK;
    in[i] = keep;
  }
  CHECK_EQ_INT(accepted, 0);
  /* Any proof byte changed: rejected (by the decoder or the pairing). */
  accepted = 0;
  for (size_t i = 0; i < sizeof w->proof; i++) {
    uint8_t t[CZ_GROTH16_PROOF_BYTES];
    memcpy(t, w->proof, sizeof t);
    t[i] ^= 0x01;
    accepted += verify(pvk, in, t) == CZ_OK;
  }
  CHECK_EQ_INT(accepted, 0);
}

/* Step 4, continued: inputs derived for another sector number or
 * randomness are rejected with the real proof. */
static void winning_rejects_other_seeds(const cz_groth16_pvk *pvk, const winning_case *wc) {
  const winning_vector *w = &wc->w;
  const cz_registered_post *k = wc->k;
  char msg[256];
  cz_fr other[N_INPUTS];
  cz_post_sector s8 = w->sector;
  s8.sector_id = 8;
  CHECK_EQ_INT(cz_post_public_inputs(&(cz_post_challenge_seed){.registered = k,
                                                               .randomness = w->randomness,
                                                               .partition = 0},
                                     &s8, 1, other, N_INPUTS, msg, sizeof msg),
               CZ_OK);
  CHECK_EQ_INT(verify(pvk, other, w->proof), CZ_ERR_PROOF_INVALID);
  uint8_t r2[32];
  memcpy(r2, w->randomness, 32);
  r2[0] ^= 1;
  CHECK_EQ_INT(cz_post_public_inputs(
                   &(cz_post_challenge_seed){.registered = k, .randomness = r2, .partition = 0},
                   &w->sector, 1, other, N_INPUTS, msg, sizeof msg),
               CZ_OK);
  CHECK_EQ_INT(verify(pvk, other, w->proof), CZ_ERR_PROOF_INVALID);
}

/* Step 4: the real proof verifies under the official key with exactly these
 * inputs and nothing else. False when the key cannot be prepared, which
 * ends the test. */
static bool winning_real_proof(winning_case *wc) {
  cz_groth16_vk vk;
  CHECK_EQ_INT(cz_groth16_vk_load(&vk, WINNING_DIR "winning-post-2kib.vk", false), CZ_OK);
  CHECK_EQ_INT(vk.n_ic, N_INPUTS + 1);
  cz_groth16_pvk *pvk = cz_groth16_prepare(&vk);
  CHECK(pvk != NULL);
  if (!pvk) {
    cz_groth16_vk_free(&vk);
    return false;
  }
  CHECK_EQ_INT(verify(pvk, wc->in, wc->w.proof), CZ_OK);
  winning_rejects_changed_bytes(pvk, wc);
  winning_rejects_other_seeds(pvk, wc);
  cz_groth16_pvk_free(pvk);
  cz_groth16_vk_free(&vk);
  return true;
}

/* Step 5: contract errors: two sectors, partition 1, too small an output. */
static void winning_contract_errors(winning_case *wc) {
  const winning_vector *w = &wc->w;
  const cz_registered_post *k = wc->k;
  cz_fr *in = wc->in;
  char msg[256];
  cz_post_sector two[2] = {w->sector, w->sector};
  CHECK_EQ_INT(cz_post_public_inputs(&(cz_post_challenge_seed){.registered = k,
                                                               .randomness = w->randomness,
                                                               .partition = 0},
                                     two, 2, in, N_INPUTS, msg, sizeof msg),
               CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_post_public_inputs(&(cz_post_challenge_seed){.registered = k,
                                                               .randomness = w->randomness,
                                                               .partition = 1},
                                     &w->sector, 1, in, N_INPUTS, msg, sizeof msg),
               CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_post_public_inputs(&(cz_post_challenge_seed){.registered = k,
                                                               .randomness = w->randomness,
                                                               .partition = 0},
                                     &w->sector, 1, in, N_INPUTS - 1, msg, sizeof msg),
               CZ_ERR_INVALID_ARG);
}

/* Step 6: non-canonical randomness (r itself), prover id and comm_r are
 * refused, and the message names the field. */
static void winning_noncanonical_refused(winning_case *wc) {
  const winning_vector *w = &wc->w;
  const cz_registered_post *k = wc->k;
  cz_fr *in = wc->in;
  char msg[256];
  uint64_t ch[66], got;
  static const uint8_t r_le[32] = {0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe,
                                   0xff, 0x02, 0xa4, 0xbd, 0x53, 0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8,
                                   0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};
  CHECK_EQ_INT(cz_post_public_inputs(
                   &(cz_post_challenge_seed){.registered = k, .randomness = r_le, .partition = 0},
                   &w->sector, 1, in, N_INPUTS, msg, sizeof msg),
               CZ_ERR_NONCANONICAL);
  CHECK(strncmp(msg, "randomness: not a canonical", 27) == 0);
  CHECK_EQ_INT(cz_post_sector_challenges(k, r_le, 0, 7, ch, msg, sizeof msg), CZ_ERR_NONCANONICAL);
  CHECK_EQ_INT(cz_post_winning_sectors(k, w->randomness, r_le, 9, &got, msg, sizeof msg),
               CZ_ERR_NONCANONICAL);
  CHECK(strncmp(msg, "prover_id:", 10) == 0);
  cz_post_sector bad = w->sector;
  memcpy(bad.comm_r, r_le, 32);
  CHECK_EQ_INT(cz_post_public_inputs(&(cz_post_challenge_seed){.registered = k,
                                                               .randomness = w->randomness,
                                                               .partition = 0},
                                     &bad, 1, in, N_INPUTS, msg, sizeof msg),
               CZ_ERR_NONCANONICAL);
  CHECK(strncmp(msg, "sectors[0].comm_r:", 18) == 0);
}

/* The real WinningPoSt vector, step by step (see the functions above). */
static void test_winning_vector(void) {
  winning_case wc;
  winning_inputs_match(&wc);
  winning_sector_selection(&wc);
  winning_vanilla_challenges(&wc);
  if (!winning_real_proof(&wc)) return;
  winning_contract_errors(&wc);
  winning_noncanonical_refused(&wc);
}

/* WindowPoSt 2 KiB, partition 1 of sectors 7 and 9 (sector_index 2 and 3):
 * ApiVersion 1.0.0 (id 5) hashes sector_index * 10 + n, 1.2.0 (id 10) n. */
static void test_window_layout(void) {
  static const uint64_t v1[2][10] = {{2, 20, 47, 53, 16, 33, 27, 12, 14, 30},
                                     {23, 34, 43, 24, 58, 39, 41, 36, 60, 35}};
  static const uint64_t v1_1[2][10] = {{16, 27, 26, 21, 25, 51, 53, 31, 45, 2},
                                       {44, 47, 4, 46, 58, 38, 28, 13, 13, 22}};
  winning_vector w;
  CHECK(load_vector(&w));
  cz_post_sector s[2] = {w.sector, w.sector};
  s[1].sector_id = 9;
  s[1].comm_r[0] ^= 1; /* still canonical: the low byte */
  char msg[256];
  for (int v = 0; v < 2; v++) {
    const cz_registered_post *k = cz_registered_post_by_id(v ? 10 : 5);
    const uint64_t(*want)[10] = v ? v1_1 : v1;
    cz_fr in[22], c;
    CHECK_EQ_INT(cz_post_public_input_count(k), 22);
    CHECK_EQ_INT(cz_post_public_inputs(&(cz_post_challenge_seed){.registered = k,
                                                                 .randomness = w.randomness,
                                                                 .partition = 1},
                                       s, 2, in, 22, msg, sizeof msg),
                 CZ_OK);
    for (int i = 0; i < 2; i++) {
      uint8_t b[32];
      cz_fr_to_bytes_le(b, &in[11 * i]);
      CHECK_MEM(b, s[i].comm_r, 32);
      uint64_t ch[10];
      CHECK_EQ_INT(cz_post_sector_challenges(k, w.randomness, 2 + i, s[i].sector_id, ch, msg,
                                             sizeof msg),
                   CZ_OK);
      for (int n = 0; n < 10; n++) {
        cz_fr_from_u64(&c, want[i][n]);
        CHECK(cz_fr_eq(&in[11 * i + 1 + n], &c));
        CHECK_EQ_INT(ch[n], want[i][n]);
      }
    }
    /* One sector: the partition is padded with a copy of its inputs. */
    CHECK_EQ_INT(cz_post_public_inputs(&(cz_post_challenge_seed){.registered = k,
                                                                 .randomness = w.randomness,
                                                                 .partition = 1},
                                       s, 1, in, 22, msg, sizeof msg),
                 CZ_OK);
    CHECK(memcmp(in, in + 11, 11 * sizeof *in) == 0);
    cz_fr_from_u64(&c, want[0][9]);
    CHECK(cz_fr_eq(&in[21], &c));
    /* Three sectors do not fit a partition of two; none is no partition. */
    cz_post_sector three[3] = {s[0], s[1], s[1]};
    CHECK_EQ_INT(cz_post_public_inputs(&(cz_post_challenge_seed){.registered = k,
                                                                 .randomness = w.randomness,
                                                                 .partition = 0},
                                       three, 3, in, 22, msg, sizeof msg),
                 CZ_ERR_INVALID_ARG);
    CHECK_EQ_INT(cz_post_public_inputs(&(cz_post_challenge_seed){.registered = k,
                                                                 .randomness = w.randomness,
                                                                 .partition = 0},
                                       s, 0, in, 22, msg, sizeof msg),
                 CZ_ERR_INVALID_ARG);
  }
  CHECK_EQ_INT(cz_post_challenge_index(CZ_API_1_0_0, 3, 10, 4), 34);
  CHECK_EQ_INT(cz_post_challenge_index(CZ_API_1_1_0, 3, 10, 4), 34);
  CHECK_EQ_INT(cz_post_challenge_index(CZ_API_1_2_0, 3, 10, 4), 4);
}

int main(void) {
  test_winning_vector();
  test_window_layout();
  return check_report("test_post_challenge");
}
