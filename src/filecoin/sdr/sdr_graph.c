/* The SDR graph: BucketGraph DRG parents and Feistel expander parents. */
#include <math.h>
#include <string.h>

#include "cuzk/sdr.h"
#include "cuzk/sha256.h"
#include "cuzk/blake2b.h"
#include "cuzk/chacha8.h"

#define FEISTEL_ROUNDS 3

/* SHA-256(tag | porep_id): crypto/mod.rs derive_porep_domain_seed. */
static void domain_seed(uint8_t out[32], const char *tag, const uint8_t porep_id[32]) {
  uint8_t buf[64];
  size_t t = strlen(tag);
  memcpy(buf, tag, t);
  memcpy(buf + t, porep_id, 32);
  cz_sha256_digest(out, buf, t + 32);
}

cz_err cz_sdr_graph_init(cz_sdr_graph *g, uint64_t nodes, const uint8_t porep_id[32],
                         cz_api_version api) {
  if (nodes < 2 || nodes > UINT32_MAX) return CZ_ERR_INVALID_ARG;
  if (api != CZ_API_1_0_0 && api != CZ_API_1_1_0 && api != CZ_API_1_2_0) return CZ_ERR_INVALID_ARG;
  memset(g, 0, sizeof *g);
  g->nodes = nodes;
  g->api = api;
  uint8_t seed[32];
  domain_seed(seed, "Filecoin_DRSample", porep_id);
  memcpy(g->drg_seed, seed, 28);
  domain_seed(seed, "Filecoin_Feistel", porep_id);
  for (int i = 0; i < 4; i++) {
    uint64_t k = 0;
    for (int b = 7; b >= 0; b--) k = k << 8 | seed[8 * i + b];
    g->feistel_keys[i] = k;
  }
  /* feistel::precompute(nodes * 8): the smallest power of 4 (at least 4) not
   * below the element count, split into two halves of log4 bits each. */
  uint64_t n = nodes * CZ_SDR_EXP_DEGREE, pow4 = 4, log4 = 1;
  while (pow4 < n) {
    pow4 *= 4;
    log4++;
  }
  g->feistel_right_mask = ((uint64_t)1 << log4) - 1;
  g->feistel_left_mask = g->feistel_right_mask << log4;
  g->feistel_half_bits = log4;
  return CZ_OK;
}

void cz_sdr_drg_parents(const cz_sdr_graph *g, uint32_t node, uint32_t out[CZ_SDR_BASE_DEGREE]) {
  if (node < 2) { /* node 0 references itself, node 1 only node 0 */
    memset(out, 0, CZ_SDR_BASE_DEGREE * sizeof *out);
    return;
  }
  uint8_t seed[32];
  memcpy(seed, g->drg_seed, 28);
  for (int i = 0; i < 4; i++) seed[28 + i] = (uint8_t)(node >> (8 * i));
  cz_chacha8_rng rng;
  cz_chacha8_seed(&rng, seed);

  const uint64_t m_prime = CZ_SDR_BASE_DEGREE - 1;
  const uint64_t meta = (uint64_t)node * m_prime;
  /* The reference computes this in f64; so do we (meta < 2^35, far from any
   * rounding trouble). */
  const uint64_t n_buckets = (uint64_t)ceil(log2((double)meta));
  /* 1.0.0 fills parents[0..5] and puts the predecessor last; later versions
   * put it first and fill parents[1..6]. */
  const int first = g->api == CZ_API_1_0_0 ? 0 : 1;
  for (uint64_t i = 0; i < m_prime; i++) {
    uint64_t bucket = cz_chacha8_next_u64(&rng) % n_buckets + 1;
    uint64_t largest = (uint64_t)1 << bucket;
    if (largest > meta) largest = meta;
    uint64_t smallest = largest >> 1;
    if (smallest < 2) smallest = 2;
    uint64_t distance = smallest + cz_chacha8_next_u64(&rng) % (largest - smallest + 1);
    uint32_t parent = (uint32_t)((meta - distance) / m_prime);
    out[first + i] = parent == node ? node - 1 : parent;
  }
  out[first ? 0 : m_prime] = node - 1; /* the immediate predecessor */
}

/* Round function: BLAKE2b-512(right u64 BE | key u64 BE), first 8 bytes BE,
 * masked (feistel.rs `feistel`, the 16-byte branch). */
static uint64_t feistel_round(uint64_t right, uint64_t key, uint64_t mask) {
  uint8_t data[16], hash[64];
  for (int i = 0; i < 8; i++) {
    data[i] = (uint8_t)(right >> (56 - 8 * i));
    data[8 + i] = (uint8_t)(key >> (56 - 8 * i));
  }
  cz_blake2b512_short(hash, data, sizeof data);
  uint64_t r = 0;
  for (int i = 0; i < 8; i++) r = r << 8 | hash[i];
  return r & mask;
}

static uint64_t feistel_encode(const cz_sdr_graph *g, uint64_t index) {
  uint64_t left = (index & g->feistel_left_mask) >> g->feistel_half_bits;
  uint64_t right = index & g->feistel_right_mask;
  for (int i = 0; i < FEISTEL_ROUNDS; i++) {
    uint64_t l = right;
    right = left ^ feistel_round(right, g->feistel_keys[i], g->feistel_right_mask);
    left = l;
  }
  return left << g->feistel_half_bits | right;
}

/* feistel::permute: cycle-walk until the value lands below num_elements. */
static uint64_t feistel_permute(const cz_sdr_graph *g, uint64_t num_elements, uint64_t index) {
  uint64_t u = feistel_encode(g, index);
  while (u >= num_elements) u = feistel_encode(g, u);
  return u;
}

void cz_sdr_exp_parents(const cz_sdr_graph *g, uint32_t node, uint32_t out[CZ_SDR_EXP_DEGREE]) {
  const uint64_t n = g->nodes * CZ_SDR_EXP_DEGREE;
  for (uint64_t i = 0; i < CZ_SDR_EXP_DEGREE; i++) {
    uint64_t t = feistel_permute(g, n, (uint64_t)node * CZ_SDR_EXP_DEGREE + i);
    /* 1.0.0 truncates to u32 before dividing (the "pathological" legacy graph
     * for sectors of more than 2^29 nodes); later versions do not. */
    out[i] = g->api == CZ_API_1_0_0 ? (uint32_t)t / CZ_SDR_EXP_DEGREE
                                    : (uint32_t)(t / CZ_SDR_EXP_DEGREE);
  }
}

void cz_sdr_parents(const cz_sdr_graph *g, uint32_t node, uint32_t out[CZ_SDR_DEGREE]) {
  cz_sdr_drg_parents(g, node, out);
  cz_sdr_exp_parents(g, node, out + CZ_SDR_BASE_DEGREE);
}

void cz_sdr_parents_range(const cz_sdr_graph *g, uint32_t first, uint32_t count, uint32_t *out) {
  for (uint32_t i = 0; i < count; i++)
    cz_sdr_parents(g, first + i, out + (size_t)i * CZ_SDR_DEGREE);
}
