/* The SDR encoding, column hash and comm_r check as gadgets, with the
 * namespaces rust-fil-proofs gives them (so constraint names match). */
#include "cuzk/merkle.h"
#include "cuzk/por.h"
#include "cuzk/poseidon_gadget.h"
#include "cuzk/sdr.h"

cz_err cz_sdr_encode_gadget(cz_cs *cs, cz_anum *out, const cz_anum *key, const cz_anum *data) {
  CZ_PUSH_NS(cs, "encode_add");
  cz_cs_sticky(cz_constraint_add(cs, out, key, data));
  CZ_POP_NS(cs);
  return cz_cs_error(cs);
}

cz_err cz_sdr_decode_gadget(cz_cs *cs, cz_anum *out, const cz_anum *key, const cz_anum *replica) {
  CZ_PUSH_NS(cs, "decode_sub");
  cz_cs_sticky(
      cz_constraint_sub(cs, out, replica, key)); /* replica - key, argument order as encode.rs */
  CZ_POP_NS(cs);
  return cz_cs_error(cs);
}

cz_err cz_sdr_column_hash_gadget(cz_cs *cs, cz_anum *out, const cz_anum *column, size_t layers) {
  if (layers != 2 && layers != 11) return CZ_ERR_INVALID_ARG;
  return cz_poseidon_hash_circuit(cs, cz_poseidon_params_get((unsigned)layers), column, out);
}

cz_err cz_sdr_comm_r_gadget(cz_cs *cs, const cz_anum *comm_r, const cz_anum *comm_c,
                            const cz_anum *comm_r_last) {
  cz_anum h;
  CZ_PUSH_NS(cs, "H_comm_c_comm_r_last");
  cz_err e = cz_merkle_hash2_circuit(cs, CZ_MERKLE_POSEIDON, comm_c, comm_r_last, &h);
  CZ_POP_NS(cs);
  if (e != CZ_OK) return e;
  /* constraint::equal(a = comm_r, b = hash): comm_r * 1 = hash. */
  return cz_anum_enforce_equal(cs, comm_r, &h, "enforce comm_r = H(comm_c || comm_r_last)");
}
