/* The three PoRep challenge rules of storage-proofs-porep
 * stacked/vanilla/challenges.rs: interactive (seed), non-interactive
 * (comm_r, no seed) and synthetic (a set fixed at sealing, selected by the
 * seed). */
#include <string.h>

#include "cuzk/blake2b.h"
#include "cuzk/chacha20.h"
#include "cuzk/sdr.h"
#include "cuzk/sha256.h"

/* bigint_to_challenge: LE(bytes) mod (nodes - 1) + 1. nodes - 1 < 2^32,
 * so r * 256 + byte fits in u64. */
static uint64_t to_challenge(const uint8_t *bytes, size_t n, uint64_t nodes) {
  const uint64_t m = nodes - 1;
  uint64_t r = 0;
  for (size_t b = n; b-- > 0;) r = (r * 256 + bytes[b]) % m;
  return r + 1;
}

static void put_u32le(uint8_t *p, uint32_t v) {
  for (int b = 0; b < 4; b++) p[b] = (uint8_t)(v >> (8 * b));
}

void cz_sdr_challenges(uint64_t *out, size_t count, uint64_t nodes, const uint8_t replica_id[32],
                       const uint8_t seed[32], uint32_t k) {
  uint8_t buf[68], h[32];
  memcpy(buf, replica_id, 32);
  memcpy(buf + 32, seed, 32);
  for (size_t i = 0; i < count; i++) {
    put_u32le(buf + 64, (uint32_t)(count * k + i));
    cz_sha256_digest(h, buf, sizeof buf);
    out[i] = to_challenge(h, 32, nodes);
  }
}

void cz_sdr_ni_challenges(uint64_t *out, size_t count, uint64_t nodes, const uint8_t replica_id[32],
                          const uint8_t comm_r[32], uint32_t k) {
  static const char TAG[] = "filecoin.io|PoRep|1|NonInteractive|1";
  enum { T = sizeof TAG - 1 };
  uint8_t buf[T + 68], h[32];
  memcpy(buf, TAG, T);
  memcpy(buf + T, replica_id, 32);
  memcpy(buf + T + 32, comm_r, 32);
  for (size_t i = 0; i < count; i++) {
    put_u32le(buf + T + 64, (uint32_t)(count * k + i));
    cz_sha256_digest(h, buf, sizeof buf);
    out[i] = to_challenge(h, 32, nodes);
  }
}

/* ---- synthetic ---------------------------------------------------------- */

static const uint8_t SYNTH_NONCE[12] = "synth-porep"; /* and a NUL */

/* A ChaCha20 key: BLAKE2b-256 keyed with tag, of a | b. */
static void synth_key(uint8_t key[32], const char *tag, const uint8_t a[32], const uint8_t b[32]) {
  uint8_t in[64];
  memcpy(in, a, 32);
  memcpy(in + 32, b, 32);
  cz_blake2b(key, 32, (const uint8_t *)tag, strlen(tag), in, sizeof in);
}

uint32_t cz_sdr_synth_count(uint64_t nodes) {
  return nodes < ((uint64_t)1 << 18) ? (uint32_t)nodes : (uint32_t)1 << 18;
}

void cz_sdr_synth_indexes(uint32_t *out, size_t count, uint64_t nodes, const uint8_t replica_id[32],
                          const uint8_t seed[32], uint32_t k) {
  uint8_t key[32], w[4];
  synth_key(key, "filecoin.io|PoRep|1|Synthetic|1|Selection", replica_id, seed);
  uint32_t n = cz_sdr_synth_count(nodes);
  for (size_t i = 0; i < count; i++) {
    /* Offsets stay far below the keystream's 256 GiB: 4 bytes a challenge. */
    cz_chacha20_keystream(w, 4, key, SYNTH_NONCE, 4 * ((uint64_t)count * k + i));
    out[i] =
        ((uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24) % n;
  }
}

void cz_sdr_synth_challenges(uint64_t *out, size_t count, uint64_t nodes,
                             const uint8_t replica_id[32], const uint8_t comm_r[32],
                             const uint8_t seed[32], uint32_t k) {
  uint8_t key[32], r[32];
  synth_key(key, "filecoin.io|PoRep|1|Synthetic|1|Generation", replica_id, comm_r);
  for (size_t i = 0; i < count; i++) {
    uint32_t s;
    cz_sdr_synth_indexes(&s, 1, nodes, replica_id, seed, (uint32_t)(count * k + i));
    cz_chacha20_keystream(r, 32, key, SYNTH_NONCE, 32 * (uint64_t)s);
    out[i] = to_challenge(r, 32, nodes);
  }
}

void cz_porep_challenges(uint64_t *out, const cz_porep_config *cfg, const uint8_t replica_id[32],
                         const uint8_t comm_r[32], const uint8_t seed[32], uint32_t k) {
  uint64_t nodes = cfg->sector_size / CZ_SDR_NODE_BYTES;
  if (cfg->rule == CZ_POREP_NI)
    cz_sdr_ni_challenges(out, cfg->challenges, nodes, replica_id, comm_r, k);
  else if (cfg->rule == CZ_POREP_SYNTHETIC)
    cz_sdr_synth_challenges(out, cfg->challenges, nodes, replica_id, comm_r, seed, k);
  else cz_sdr_challenges(out, cfg->challenges, nodes, replica_id, seed, k);
}
