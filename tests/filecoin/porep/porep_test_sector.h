/* A small StackedDRG sector sealed from the native SDR primitives (labels,
 * trees, encoding, comm_r), as rust-fil-proofs' stacked_circuit.rs test
 * seals its shapes, for the circuit tests: its C1 holds what the circuit
 * reads of the vanilla proofs (leaves, paths, columns, the labeling node).
 * The shape is stacked_circuit.rs's poseidon_base_8: 8 nodes, 2 layers,
 * one challenge, tree 8-0-0 (1_199_620 constraints, 22 inputs there). */
#ifndef CUZK_TESTS_POREP_TEST_SECTOR_H
#define CUZK_TESTS_POREP_TEST_SECTOR_H
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cuzk/porep.h"

/* stacked_circuit.rs test_stacked_input_circuit_poseidon_base_8. */
#define WANT_CONSTRAINTS 1199620
#define WANT_INPUTS 22

#define TS_NODES 8
#define TS_LAYERS 2

static inline const cz_registered_porep *ts_small_registered(void) {
  static cz_registered_porep k;
  k = *cz_registered_porep_by_id(5);
  k.name = "test 256 B, tree 8-0-0, one challenge";
  k.sector_size = TS_NODES * 32;
  k.partitions = 1;
  k.shape = (cz_porep_shape){TS_NODES, TS_LAYERS, 1, {CZ_MERKLE_POSEIDON, 8, 0, 0}};
  return &k;
}

static inline void ts_rand_canonical(uint8_t b[32]) {
  check_rand_bytes(b, 32);
  b[31] &= 0x3f;
}

static inline void ts_fr_of(cz_fr *out, const uint8_t b[32]) {
  CHECK_EQ_INT(cz_fr_from_bytes_le(out, b), CZ_OK);
}

/* One opened column: labels of node in every layer and its tree-C proof. */
static inline void ts_open_column(cz_porep_column *col, const uint8_t *labels,
                                  const cz_merkle_tree *tc, uint32_t node) {
  col->index = node;
  for (int l = 0; l < TS_LAYERS; l++)
    ts_fr_of(&col->rows[l], labels + ((size_t)l * TS_NODES + node) * 32);
  CHECK_EQ_INT(cz_merkle_prove(tc, node, &col->tree_c), CZ_OK);
}

/* Seal a TS_NODES-node sector of random data for registered proof k (one partition) and
 * fill c1 with the vanilla proofs of its interactive challenges: what the
 * circuit reads of them (leaves, paths, columns, the labeling node). */
static inline void ts_seal(cz_porep_c1 *c1, const cz_registered_porep *k) {
  const cz_porep_shape *sh = &k->shape;
  CHECK_EQ_INT(cz_porep_c1_alloc(c1, k), CZ_OK);
  cz_porep_config cfg;
  cz_registered_porep_config(k, &cfg);
  cz_sdr_graph g;
  CHECK_EQ_INT(cz_sdr_graph_init(&g, TS_NODES, cfg.porep_id, k->api), CZ_OK);

  uint8_t data[TS_NODES * 32], labels[TS_LAYERS * TS_NODES * 32];
  cz_fr d[TS_NODES], col_hash[TS_NODES], enc[TS_NODES];
  for (int i = 0; i < TS_NODES; i++) ts_rand_canonical(data + 32 * i);
  ts_rand_canonical(c1->replica_id);
  check_rand_bytes(c1->seed, 32);
  CHECK_EQ_INT(cz_merkle_leaves_from_bytes(d, data, TS_NODES), CZ_OK);
  for (uint32_t l = 1; l <= TS_LAYERS; l++)
    CHECK_EQ_INT(cz_sdr_label_layer(&g, c1->replica_id, l, labels + (l - 1) * TS_NODES * 32,
                                    l > 1 ? labels + (l - 2) * TS_NODES * 32 : NULL),
                 CZ_OK);
  for (int i = 0; i < TS_NODES; i++) {
    cz_fr col[TS_LAYERS];
    for (int l = 0; l < TS_LAYERS; l++) ts_fr_of(&col[l], labels + ((size_t)l * TS_NODES + i) * 32);
    CHECK_EQ_INT(cz_sdr_column_hash(&col_hash[i], col, TS_LAYERS), CZ_OK);
    uint8_t e[32];
    CHECK_EQ_INT(cz_sdr_encode(e, labels + ((size_t)(TS_LAYERS - 1) * TS_NODES + i) * 32,
                               data + 32 * i),
                 CZ_OK);
    ts_fr_of(&enc[i], e);
  }
  const cz_merkle_shape tree_d_shape = {CZ_MERKLE_SHA256, 2, 0, 0};
  cz_merkle_tree td, tc, tr;
  CHECK_EQ_INT(cz_merkle_tree_build(&td, &tree_d_shape, d, TS_NODES), CZ_OK);
  CHECK_EQ_INT(cz_merkle_tree_build(&tc, &sh->tree_r, col_hash, TS_NODES), CZ_OK);
  CHECK_EQ_INT(cz_merkle_tree_build(&tr, &sh->tree_r, enc, TS_NODES), CZ_OK);
  uint8_t comm_c[32], comm_r_last[32];
  cz_fr_to_bytes_le(c1->comm_d, &td.root);
  cz_fr_to_bytes_le(comm_c, &tc.root);
  cz_fr_to_bytes_le(comm_r_last, &tr.root);
  CHECK_EQ_INT(cz_sdr_comm_r(c1->comm_r, comm_c, comm_r_last), CZ_OK);

  uint64_t ch[8];
  cz_sdr_challenges(ch, sh->challenges, TS_NODES, c1->replica_id, c1->seed, 0);
  for (uint32_t i = 0; i < sh->challenges; i++) {
    cz_porep_challenge_proof *p = &c1->proofs[i];
    uint32_t node = (uint32_t)ch[i], parents[CZ_SDR_DEGREE];
    cz_sdr_parents(&g, node, parents);
    p->challenge = node;
    CHECK_EQ_INT(cz_merkle_prove(&td, node, &p->tree_d), CZ_OK);
    CHECK_EQ_INT(cz_merkle_prove(&tr, node, &p->tree_r_last), CZ_OK);
    ts_open_column(&p->c_x, labels, &tc, node);
    for (int j = 0; j < CZ_SDR_BASE_DEGREE; j++)
      ts_open_column(&p->drg[j], labels, &tc, parents[j]);
    for (int j = 0; j < CZ_SDR_EXP_DEGREE; j++)
      ts_open_column(&p->exp[j], labels, &tc, parents[CZ_SDR_BASE_DEGREE + j]);
    for (uint32_t l = 0; l < TS_LAYERS; l++)
      p->labeling[l] = (cz_porep_labeling){.layer = l + 1, .node = node};
    p->encoding = (cz_porep_labeling){.layer = TS_LAYERS, .node = node};
  }
  cz_merkle_tree_free(&td);
  cz_merkle_tree_free(&tc);
  cz_merkle_tree_free(&tr);
}

/* Synthesize partition 0 of c1 on a new system of the given mode (c1 only
 * where the mode takes values). */
static inline cz_cs *ts_synth(cz_cs_mode mode, const cz_porep_c1 *c1) {
  cz_cs *cs = cz_cs_new(mode, NULL);
  CHECK(cs != NULL);
  cz_err e = cz_porep_circuit(cs, &c1->registered->shape, cz_cs_needs_values(cs) ? c1 : NULL, 0);
  CHECK_EQ_INT(e, CZ_OK);
  if (e) fprintf(stderr, "  synthesis: %s\n", cz_cs_errmsg(cs));
  return cs;
}

#endif
