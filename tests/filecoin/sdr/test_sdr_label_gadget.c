/* The label gadget: rust-fil-proofs' own test of create_label_circuit
 * (storage-proofs-porep src/stacked/circuit/create_label.rs, test_create_label):
 * 64 nodes, porep_id [32; 32], ApiVersion 1.1.0, layer 3, node 22, random
 * labels for the current and previous layer, the id and the 37 parent labels
 * allocated as bits (bytes_into_boolean_vec_be), layer and node constants.
 * It asserts 532_025 constraints in total and that the output equals the
 * native create_label_exp; so do we, and that a flipped bit is caught. */
#include <stdlib.h>

#include "check.h"
#include "cuzk/cs.h"
#include "cuzk/gadgets.h"
#include "cuzk/sdr.h"

#define NODES 64

/* bytes_into_boolean_vec_be: MSB first per byte, namespaces "bit i". */
static void alloc_be(cz_cs *cs, cz_bool out[256], cz_abit abits[256], const uint8_t bytes[32]) {
  bool v[256];
  cz_bytes_to_bits(v, bytes, 32);
  for (int i = 0; i < 256; i++) {
    CZ_PUSH_NS(cs, "bit %d", i);
    CHECK(cz_abit_alloc(cs, &abits[i], v[i]) == CZ_OK);
    CZ_POP_NS(cs);
    out[i] = cz_bool_from_bit(abits[i]);
  }
}

static void random_labels(uint8_t *out, size_t n) {
  check_rand_bytes(out, 32 * n);
  for (size_t i = 0; i < n; i++) out[32 * i + 31] &= 0x3f; /* a valid Fr */
}

static void run(int flip) {
  uint8_t porep_id[32], id[32], cur[NODES * 32], prev[NODES * 32];
  memset(porep_id, 32, 32);
  random_labels(id, 1);
  random_labels(cur, NODES);
  random_labels(prev, NODES);
  cz_sdr_graph g;
  CHECK_EQ_INT(cz_sdr_graph_init(&g, NODES, porep_id, CZ_API_1_1_0), CZ_OK);
  const uint32_t layer = 3, node = 22;
  uint32_t parents[CZ_SDR_DEGREE];
  cz_sdr_parents(&g, node, parents);

  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  static cz_bool pbits[CZ_SDR_LABEL_PARENTS][256];
  static cz_abit pabits[CZ_SDR_LABEL_PARENTS][256];
  const cz_bool *pp[CZ_SDR_LABEL_PARENTS];
  size_t plen[CZ_SDR_LABEL_PARENTS];
  for (int i = 0; i < CZ_SDR_LABEL_PARENTS; i++) {
    int k = i % CZ_SDR_DEGREE; /* 14, 14, then the first 9 again */
    const uint8_t *src = (k < CZ_SDR_BASE_DEGREE ? cur : prev) + 32 * (size_t)parents[k];
    CZ_PUSH_NS(cs, "parents %d", i);
    alloc_be(cs, pbits[i], pabits[i], src);
    CZ_POP_NS(cs);
    pp[i] = pbits[i];
    plen[i] = 256;
  }
  cz_bool idbits[256];
  cz_abit idab[256];
  CZ_PUSH_NS(cs, "id");
  alloc_be(cs, idbits, idab, id);
  CZ_POP_NS(cs);
  cz_u32 layer_c;
  cz_u32_const(&layer_c, layer);
  cz_bool node_le[64];
  for (int i = 0; i < 64; i++) node_le[i] = cz_bool_const(((uint64_t)node >> i) & 1);

  cz_anum out;
  CZ_PUSH_NS(cs, "create_label");
  CHECK_EQ_INT(cz_sdr_label_gadget(cs, &out, idbits, 256, pp, plen, &layer_c, node_le), CZ_OK);
  CZ_POP_NS(cs);
  CHECK_EQ_INT(cz_cs_error(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_num_constraints(cs), 532025);

  uint8_t want[32], got[32];
  CHECK_EQ_INT(cz_sdr_label(want, &g, id, layer, node, cur, prev), CZ_OK);
  cz_fr_to_bytes_le(got, &out.value);
  CHECK_MEM(got, want, 32);

  if (!flip) {
    CHECK(cz_cs_is_satisfied(cs));
  } else {
    /* One parent bit flipped after synthesis: some constraint must fail. */
    cz_abit *b = &pabits[5][100];
    cz_fr v = b->value ? CZ_FR_ZERO : CZ_FR_ONE;
    CHECK(cz_cs_set_value(cs, b->var, &v));
    CHECK(!cz_cs_is_satisfied(cs));
  }
  cz_cs_free(cs);

  /* Bad lengths are refused before anything is synthesised. */
  cz_cs *cs2 = cz_cs_new(CZ_CS_TEST, NULL);
  CHECK_EQ_INT(cz_sdr_label_gadget(cs2, &out, idbits, 31, pp, plen, &layer_c, node_le),
               CZ_ERR_INVALID_ARG);
  plen[3] = 257;
  CHECK_EQ_INT(cz_sdr_label_gadget(cs2, &out, idbits, 256, pp, plen, &layer_c, node_le),
               CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_cs_num_constraints(cs2), 0);
  cz_cs_free(cs2);
}

int main(void) {
  run(0);
  run(1);
  return check_report("test_sdr_label_gadget");
}
