/* The update's randomness and challenges (storage-proofs-update
 * constants.rs POSEIDON_CONSTANTS_GEN_RANDOMNESS, vanilla.rs phi and rho,
 * challenges.rs Challenges, circuit.rs PublicInputs). Checked against
 * challenges.rs' test_challenges_against_hardcoded in
 * tests/filecoin/snap/test_snap_challenge.c. */
#include <pthread.h>
#include <string.h>

#include "cuzk/snap.h"
#include "filecoin/snap/snap_internal.h"
#include "util/msg.h"

#define FR_CAPACITY 254 /* Fr::CAPACITY: bits every value below r has room for */

static cz_poseidon_params genrand;
static bool genrand_ok;
static pthread_once_t genrand_once = PTHREAD_ONCE_INIT;
static void build_genrand(void) { genrand_ok = cz_poseidon_params_custom(&genrand, 2, 1) == CZ_OK; }

const cz_poseidon_params *cz_snap_genrand_params(void) {
  pthread_once(&genrand_once, build_genrand);
  return genrand_ok ? &genrand : NULL;
}

static void hash2(cz_fr *out, const cz_fr *a, const cz_fr *b) {
  cz_fr in[2] = {*a, *b};
  cz_poseidon_hash_opt(cz_snap_genrand_params(), in, out);
}

void cz_snap_phi(cz_fr *phi, const cz_fr *comm_d_new, const cz_fr *comm_r_old) {
  hash2(phi, comm_d_new, comm_r_old);
}

void cz_snap_rho(cz_fr *rho, const cz_fr *phi, uint32_t high) {
  cz_fr h;
  cz_fr_from_u64(&h, high);
  hash2(rho, phi, &h);
}

static unsigned log2_u64(uint64_t v) {
  unsigned k = 0;
  while (k < 63 && (1ull << k) < v) k++;
  return k;
}

cz_err cz_snap_challenges(const cz_snap_shape *s, const cz_fr *comm_r_new, uint32_t k,
                          uint32_t *out) {
  if (!s || !comm_r_new || !out || k >= s->partitions || !s->challenges) return CZ_ERR_INVALID_ARG;
  const unsigned bits = log2_u64(s->nodes) - log2_u64(s->partitions);
  const unsigned per_digest = FR_CAPACITY / bits;
  const uint64_t digests = (s->challenges + per_digest - 1) / per_digest;
  uint64_t digest_index = (uint64_t)k * digests;
  uint8_t d[32];
  for (uint32_t n = 0; n < s->challenges; n++) {
    unsigned i = n % per_digest;
    if (i == 0) {
      cz_fr idx, digest;
      cz_fr_from_u64(&idx, digest_index++);
      hash2(&digest, comm_r_new, &idx);
      cz_fr_to_bytes_le(d, &digest);
    }
    uint32_t c = 0;
    for (unsigned b = 0; b < bits; b++) {
      unsigned at = i * bits + b;
      c |= (uint32_t)(d[at / 8] >> (at % 8) & 1) << b;
    }
    out[n] = c | k << bits;
  }
  return CZ_OK;
}

cz_err cz_snap_k_and_h_select(const cz_snap_shape *s, uint32_t k, uint32_t h, uint64_t *out) {
  if (!s || !out || k >= s->partitions) return CZ_ERR_INVALID_ARG;
  unsigned i = 0;
  while (i < CZ_SNAP_N_HS && s->hs[i] != h) i++;
  if (i == CZ_SNAP_N_HS) return CZ_ERR_INVALID_ARG;
  *out = (uint64_t)k | (1ull << i) << log2_u64(s->partitions);
  return CZ_OK;
}

cz_err cz_snap_comms_fr(const cz_snap_comms *c, cz_fr out[3], char *msg, size_t msg_len) {
  const uint8_t *b[3] = {c->comm_r_old, c->comm_d_new, c->comm_r_new};
  static const char *const name[3] = {"comm_r_old", "comm_d_new", "comm_r_new"};
  for (int i = 0; i < 3; i++) {
    if (!b[i]) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "%s: missing", name[i]);
    if (cz_fr_from_bytes_le(&out[i], b[i]) != CZ_OK)
      return cz_msg_err(msg, msg_len, CZ_ERR_NONCANONICAL,
                        "%s: not a canonical field element (value >= r)", name[i]);
  }
  return CZ_OK;
}

cz_err cz_snap_public_inputs(const cz_snap_shape *s, uint32_t k, uint32_t h, const cz_snap_comms *c,
                             cz_fr out[CZ_SNAP_PUBLIC_INPUTS], char *msg, size_t msg_len) {
  uint64_t kh;
  if (!out || !c || cz_snap_k_and_h_select(s, k, h, &kh) != CZ_OK)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "partition %u, h %u: not a partition and h of this sector size", k, h);
  cz_err e = cz_snap_comms_fr(c, &out[1], msg, msg_len);
  if (e != CZ_OK) return e;
  cz_fr_from_u64(&out[0], kh);
  return CZ_OK;
}
