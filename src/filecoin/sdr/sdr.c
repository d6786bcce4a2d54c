/* SDR ids, labels, encoding and PoRep public inputs (challenges:
 * sdr_challenges.c). */
#include <stdlib.h>
#include <string.h>

#include "cuzk/poseidon.h"
#include "cuzk/sdr.h"
#include "cuzk/sha256.h"

/* 37 parent labels per label: 6 DRG parents x 6 + the first again in layer 1,
 * 14 parents x 2 + the first 9 after (create_label/single.rs via graph.rs
 * copy_parents_data_inner[_exp]); both are "repeat cyclically to 37". */
#define LABEL_PARENT_SLOTS 37

void cz_porep_id(uint8_t out[32], uint64_t registered_proof_id, uint64_t nonce) {
  memset(out, 0, 32);
  for (int i = 0; i < 8; i++) {
    out[i] = (uint8_t)(registered_proof_id >> (8 * i));
    out[8 + i] = (uint8_t)(nonce >> (8 * i));
  }
}

void cz_sdr_replica_id(uint8_t out[32], const uint8_t prover_id[32], uint64_t sector_id,
                       const uint8_t ticket[32], const uint8_t comm_d[32],
                       const uint8_t porep_id[32]) {
  uint8_t buf[32 + 8 + 32 + 32 + 32];
  memcpy(buf, prover_id, 32);
  for (int i = 0; i < 8; i++) buf[32 + i] = (uint8_t)(sector_id >> (56 - 8 * i));
  memcpy(buf + 40, ticket, 32);
  memcpy(buf + 72, comm_d, 32);
  memcpy(buf + 104, porep_id, 32);
  cz_sha256_trimmed(out, buf, sizeof buf);
}

cz_err cz_sdr_label_from_parents(uint8_t out[32], const uint8_t replica_id[32], uint32_t layer,
                                 uint64_t node, const uint8_t (*parent_labels)[32],
                                 size_t n_parents) {
  if (n_parents && !parent_labels) return CZ_ERR_INVALID_ARG;
  uint8_t head[64] = {0};
  memcpy(head, replica_id, 32);
  for (int i = 0; i < 4; i++) head[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
  for (int i = 0; i < 8; i++) head[36 + i] = (uint8_t)(node >> (56 - 8 * i));
  /* 64 + 37 * 32 bytes: hashed in one call, it is no bigger than a few KiB. */
  uint8_t buf[64 + LABEL_PARENT_SLOTS * 32];
  memcpy(buf, head, 64);
  size_t len = 64;
  if (n_parents) {
    for (size_t s = 0; s < LABEL_PARENT_SLOTS; s++)
      memcpy(buf + 64 + 32 * s, parent_labels[s % n_parents], 32);
    len += LABEL_PARENT_SLOTS * 32;
  }
  cz_sha256_trimmed(out, buf, len);
  return CZ_OK;
}

cz_err cz_sdr_label(uint8_t out[32], const cz_sdr_graph *g, const uint8_t replica_id[32],
                    uint32_t layer, uint32_t node, const uint8_t *cur, const uint8_t *prev) {
  if (layer == 0 || node >= g->nodes || (layer > 1 && !prev) || (node > 0 && !cur))
    return CZ_ERR_INVALID_ARG;
  if (node == 0) return cz_sdr_label_from_parents(out, replica_id, layer, 0, NULL, 0);
  uint32_t parents[CZ_SDR_DEGREE];
  uint8_t labels[CZ_SDR_DEGREE][32];
  size_t n = layer == 1 ? CZ_SDR_BASE_DEGREE : CZ_SDR_DEGREE;
  if (layer == 1) cz_sdr_drg_parents(g, node, parents);
  else cz_sdr_parents(g, node, parents);
  for (size_t i = 0; i < n; i++) {
    /* DRG parents are earlier nodes of this layer, expander parents any node
     * of the previous one. */
    const uint8_t *src = i < CZ_SDR_BASE_DEGREE ? cur : prev;
    memcpy(labels[i], src + (size_t)parents[i] * 32, 32);
  }
  return cz_sdr_label_from_parents(out, replica_id, layer, node, (const uint8_t(*)[32])labels, n);
}

cz_err cz_sdr_label_layer(const cz_sdr_graph *g, const uint8_t replica_id[32], uint32_t layer,
                          uint8_t *cur, const uint8_t *prev) {
  if (!cur) return CZ_ERR_INVALID_ARG;
  for (uint64_t node = 0; node < g->nodes; node++) {
    cz_err e = cz_sdr_label(cur + node * 32, g, replica_id, layer, (uint32_t)node, cur, prev);
    if (e != CZ_OK) return e;
  }
  return CZ_OK;
}

static cz_err add_or_sub(uint8_t out[32], const uint8_t a[32], const uint8_t b[32], bool add) {
  cz_fr x, y;
  cz_err e = cz_fr_from_bytes_le(&x, a);
  if (e == CZ_OK) e = cz_fr_from_bytes_le(&y, b);
  if (e != CZ_OK) return e;
  if (add) cz_fr_add(&x, &x, &y);
  else cz_fr_sub(&x, &y, &x);
  cz_fr_to_bytes_le(out, &x);
  return CZ_OK;
}

cz_err cz_sdr_encode(uint8_t out[32], const uint8_t key[32], const uint8_t data[32]) {
  return add_or_sub(out, key, data, true);
}

cz_err cz_sdr_decode(uint8_t out[32], const uint8_t key[32], const uint8_t replica[32]) {
  return add_or_sub(out, key, replica, false);
}

cz_err cz_sdr_column_hash(cz_fr *out, const cz_fr *column, size_t layers) {
  if (layers != 2 && layers != 11) return CZ_ERR_INVALID_ARG;
  return cz_poseidon_hash((unsigned)layers, column, out);
}

cz_err cz_sdr_comm_r(uint8_t out[32], const uint8_t comm_c[32], const uint8_t comm_r_last[32]) {
  cz_fr in[2], h;
  cz_err e = cz_fr_from_bytes_le(&in[0], comm_c);
  if (e == CZ_OK) e = cz_fr_from_bytes_le(&in[1], comm_r_last);
  if (e == CZ_OK) e = cz_poseidon_hash(2, in, &h);
  if (e != CZ_OK) return e;
  cz_fr_to_bytes_le(out, &h);
  return CZ_OK;
}

size_t cz_porep_public_input_count(const cz_porep_config *cfg) {
  return 3 + (size_t)CZ_SDR_INPUTS_PER_CHALLENGE * cfg->challenges;
}

cz_err cz_porep_public_inputs(const cz_porep_config *cfg, const cz_porep_sealed *s,
                              uint32_t partition, cz_fr *out, size_t *n) {
  if (!cfg || !s) return CZ_ERR_INVALID_ARG;
  uint8_t replica_id[32];
  cz_sdr_replica_id(replica_id, s->prover_id, s->sector_id, s->ticket, s->comm_d, cfg->porep_id);
  return cz_porep_public_inputs_replica(cfg, replica_id, s->seed, s->comm_d, s->comm_r, partition,
                                        out, n);
}

cz_err cz_porep_public_inputs_replica(const cz_porep_config *cfg, const uint8_t replica_id[32],
                                      const uint8_t seed[32], const uint8_t comm_d[32],
                                      const uint8_t comm_r[32], uint32_t partition, cz_fr *out,
                                      size_t *n) {
  if (!cfg || !n || cfg->sector_size % CZ_SDR_NODE_BYTES || cfg->challenges == 0 ||
      partition >= cfg->partitions)
    return CZ_ERR_INVALID_ARG;
  cz_sdr_graph g;
  cz_err e = cz_sdr_graph_init(&g, cfg->sector_size / CZ_SDR_NODE_BYTES, cfg->porep_id, cfg->api);
  if (e != CZ_OK) return e;
  size_t need = cz_porep_public_input_count(cfg);
  if (*n < need || !out) {
    *n = need;
    return CZ_ERR_INVALID_ARG;
  }
  size_t at = 0;
  if ((e = cz_fr_from_bytes_le(&out[at++], replica_id)) != CZ_OK) return e;
  if ((e = cz_fr_from_bytes_le(&out[at++], comm_d)) != CZ_OK) return e;
  if ((e = cz_fr_from_bytes_le(&out[at++], comm_r)) != CZ_OK) return e;

  uint64_t *challenges = malloc(cfg->challenges * sizeof *challenges);
  if (!challenges) return CZ_ERR_NOMEM;
  cz_porep_challenges(challenges, cfg, replica_id, comm_r, seed, partition);
  for (uint32_t c = 0; c < cfg->challenges; c++) {
    uint32_t node = (uint32_t)challenges[c], parents[CZ_SDR_DEGREE];
    cz_sdr_parents(&g, node, parents);
    /* PoRCompound::generate_public_inputs (private trees): one input, the
     * multipacked auth-path bits, which is the leaf index itself. */
    cz_fr_from_u64(&out[at++], node);
    for (int p = 0; p < CZ_SDR_DEGREE; p++) cz_fr_from_u64(&out[at++], parents[p]);
    cz_fr_from_u64(&out[at++], node); /* the challenge, for the labeling proof */
    cz_fr_from_u64(&out[at++], node); /* tree R (comm_r_last) path */
    cz_fr_from_u64(&out[at++], node); /* tree C (column) path */
  }
  free(challenges);
  *n = at;
  return CZ_OK;
}
