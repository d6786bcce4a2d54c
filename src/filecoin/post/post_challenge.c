/* PoSt challenges and the public inputs of one partition, as
 * rust-fil-proofs derives them:
 *   - storage-proofs-post fallback/utils.rs get_challenge_index;
 *   - fallback/vanilla.rs generate_leaf_challenge_inner (leaves) and
 *     generate_sector_challenge (WinningPoSt's pick among the prover's
 *     sectors);
 *   - filecoin-proofs api/post_util.rs generate_fallback_sector_challenges
 *     (what a vanilla proof must open);
 *   - fallback/compound.rs generate_public_inputs (the circuit's inputs),
 *     with the sector lists verify_winning_post / verify_window_post build.
 * Randomness, prover id and comm_r pass through filecoin-proofs'
 * as_safe_commitment first, which refuses a non-canonical Fr. */
#include <stdio.h>
#include <string.h>

#include "cuzk/post.h"
#include "cuzk/sha256.h"
#include "filecoin/post/post_internal.h"
#include "util/msg.h"

cz_err cz_post_check_fr(const uint8_t b[32], const char *what, cz_fr *out, char *msg,
                        size_t msg_len) {
  cz_fr v;
  if (cz_fr_from_bytes_le(&v, b) != CZ_OK)
    return cz_msg_err(msg, msg_len, CZ_ERR_NONCANONICAL,
                      "%s: not a canonical field element (little-endian value >= r); "
                      "filecoin-proofs rejects it (Lotus clears the top two bits of byte 31 "
                      "of the randomness first)",
                      what);
  if (out) *out = v;
  return CZ_OK;
}

static void put_le64(uint8_t *o, uint64_t v) {
  for (int i = 0; i < 8; i++) o[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t le64(const uint8_t *b) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | b[i];
  return v;
}

uint64_t cz_post_challenge_index(cz_api_version api, uint64_t sector_index,
                                 uint64_t challenge_count, uint64_t n) {
  return api == CZ_API_1_2_0 ? n : sector_index * challenge_count + n;
}

uint64_t cz_post_leaf_challenge(const cz_registered_post *k, const uint8_t randomness[32],
                                uint64_t sector_id, uint64_t challenge_index) {
  uint8_t buf[32 + 8 + 8], d[CZ_SHA256_BYTES];
  memcpy(buf, randomness, 32);
  put_le64(buf + 32, sector_id);
  put_le64(buf + 40, challenge_index);
  cz_sha256_digest(d, buf, sizeof buf);
  return le64(d) % (k->sector_size / 32); /* NODE_SIZE */
}

cz_err cz_post_sector_challenges(const cz_registered_post *k, const uint8_t randomness[32],
                                 uint64_t sector_index, uint64_t sector_id, uint64_t *out,
                                 char *msg, size_t msg_len) {
  if (!k || !randomness || !out)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "sector challenges: NULL argument");
  cz_err e = cz_post_check_fr(randomness, "randomness", NULL, msg, msg_len);
  if (e != CZ_OK) return e;
  for (uint32_t n = 0; n < k->config_challenge_count; n++)
    out[n] = cz_post_leaf_challenge(k, randomness, sector_id,
                                    cz_post_challenge_index(k->api, sector_index,
                                                            k->config_challenge_count, n));
  return CZ_OK;
}

cz_err cz_post_winning_sectors(const cz_registered_post *k, const uint8_t randomness[32],
                               const uint8_t prover_id[32], uint64_t sector_set_len, uint64_t *out,
                               char *msg, size_t msg_len) {
  if (!k || !randomness || !prover_id || !out)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "winning sectors: NULL argument");
  if (k->type != CZ_POST_WINNING)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "winning sectors: %s is not WinningPoSt",
                      k->name);
  if (!sector_set_len)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "winning sectors: empty sector set is invalid");
  cz_err e = cz_post_check_fr(randomness, "randomness", NULL, msg, msg_len);
  if (e == CZ_OK) e = cz_post_check_fr(prover_id, "prover_id", NULL, msg, msg_len);
  if (e != CZ_OK) return e;
  /* The prover id first, then the randomness, then n as usize (8 bytes on
   * the 64-bit hosts Filecoin runs on). */
  uint8_t buf[32 + 32 + 8], d[CZ_SHA256_BYTES];
  memcpy(buf, prover_id, 32);
  memcpy(buf + 32, randomness, 32);
  for (uint32_t n = 0; n < k->config_sector_count; n++) {
    put_le64(buf + 64, n);
    cz_sha256_digest(d, buf, sizeof buf);
    out[n] = le64(d) % sector_set_len;
  }
  return CZ_OK;
}

cz_err cz_post_partition_slots(const cz_registered_post *k, uint32_t partition, size_t n,
                               size_t *slots, char *msg, size_t msg_len) {
  if (k->type == CZ_POST_WINNING) {
    if (partition != 0)
      return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                        "%s: partition %u (WinningPoSt has one partition)", k->name, partition);
    if (n != k->config_sector_count)
      return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                        "%s: %zu sectors (WinningPoSt proves exactly %u)", k->name, n,
                        k->config_sector_count);
    /* verify_winning_post repeats the replicas for each of the 66 slots. */
    *slots = k->sector_count;
    return CZ_OK;
  }
  if (n == 0 || n > k->sector_count)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "%s: %zu sectors in partition %u (expected 1 to %u)", k->name, n, partition,
                      k->sector_count);
  *slots = n;
  return CZ_OK;
}

cz_err cz_post_public_inputs(const cz_post_challenge_seed *seed, const cz_post_sector *sectors,
                             size_t n, cz_fr *out, size_t out_cap, char *msg, size_t msg_len) {
  const cz_registered_post *k = seed ? seed->registered : NULL;
  const uint8_t *randomness = seed ? seed->randomness : NULL;
  uint32_t partition = seed ? seed->partition : 0;
  if (!k || !randomness || !sectors || !out)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "public inputs: NULL argument");
  size_t slots, per = 1 + (size_t)k->challenge_count, want = cz_post_public_input_count(k);
  cz_err e = cz_post_partition_slots(k, partition, n, &slots, msg, msg_len);
  if (e != CZ_OK) return e;
  if (out_cap < want)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "public inputs: room for %zu, %s needs %zu",
                      out_cap, k->name, want);
  if ((e = cz_post_check_fr(randomness, "randomness", NULL, msg, msg_len)) != CZ_OK) return e;
  for (size_t i = 0; i < slots; i++) {
    const cz_post_sector *s = &sectors[i % n];
    cz_fr *o = out + i * per;
    char what[48];
    snprintf(what, sizeof what, "sectors[%zu].comm_r", i % n);
    if ((e = cz_post_check_fr(s->comm_r, what, &o[0], msg, msg_len)) != CZ_OK) return e;
    uint64_t sector_index = (uint64_t)partition * k->sector_count + i;
    for (uint32_t c = 0; c < k->challenge_count; c++) {
      uint64_t ci = cz_post_challenge_index(k->api, sector_index, k->challenge_count, c);
      /* PoRCompound::generate_public_inputs with a private root: the leaf
       * index packed as one Fr. */
      cz_fr_from_u64(&o[1 + c], cz_post_leaf_challenge(k, randomness, s->sector_id, ci));
    }
  }
  /* compound.rs: "duplicate last one if too little sectors available". */
  for (size_t i = slots; i < k->sector_count; i++)
    memcpy(out + i * per, out + (slots - 1) * per, per * sizeof *out);
  return CZ_OK;
}

cz_err cz_post_check_commitment(const uint8_t b[32], const char *what, char *msg, size_t msg_len) {
  return cz_post_check_fr(b, what, NULL, msg, msg_len);
}
