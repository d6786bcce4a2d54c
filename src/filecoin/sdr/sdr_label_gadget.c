/* create_label_circuit: the label's SHA-256 in R1CS. */
#include <stdlib.h>

#include "cuzk/sdr.h"

#define MSG_BITS ((2 + CZ_SDR_LABEL_PARENTS) * 256)

cz_err cz_sdr_label_gadget(cz_cs *cs, cz_anum *out, const cz_bool *replica_id, size_t id_bits,
                           const cz_bool *const parents[CZ_SDR_LABEL_PARENTS],
                           const size_t parent_bits[CZ_SDR_LABEL_PARENTS], const cz_u32 *layer,
                           const cz_bool node_le[64]) {
  if (id_bits < 32 || id_bits > 256) return CZ_ERR_INVALID_ARG;
  for (int i = 0; i < CZ_SDR_LABEL_PARENTS; i++)
    if (parent_bits[i] < 1 || parent_bits[i] > 256 || !parents[i]) return CZ_ERR_INVALID_ARG;
  cz_bool *msg = malloc(MSG_BITS * sizeof *msg);
  if (!msg) return CZ_ERR_NOMEM;
  const cz_bool zero = cz_bool_const(false);
  size_t at = 0;
  for (size_t i = 0; i < 256; i++) msg[at++] = i < id_bits ? replica_id[i] : zero;
  cz_u32_into_bits_be(layer, msg + at);
  at += 32;
  for (int i = 63; i >= 0; i--) msg[at++] = node_le[i];
  while (at < 512) msg[at++] = zero;
  for (int p = 0; p < CZ_SDR_LABEL_PARENTS; p++)
    for (size_t i = 0; i < 256; i++) msg[at++] = i < parent_bits[p] ? parents[p][i] : zero;

  cz_bool digest[256], le[256];
  CZ_PUSH_NS(cs, "hash");
  cz_err e = cz_sha256(cs, digest, msg, MSG_BITS);
  CZ_POP_NS(cs);
  free(msg);
  if (e != CZ_OK) return e;
  /* reverse_bit_numbering: LSB first within each byte, so the bits read as
   * the little-endian integer of the digest bytes; 254 of them (CAPACITY)
   * are the trimmed label. */
  for (int i = 0; i < 256; i++) le[i] = digest[(i & ~7) | (7 - (i & 7))];
  CZ_PUSH_NS(cs, "result_num");
  e = cz_pack_bits(cs, out, le, CZ_FR_CAPACITY);
  CZ_POP_NS(cs);
  return e;
}
