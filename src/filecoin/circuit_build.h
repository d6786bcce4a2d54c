/* A Filecoin circuit built without a witness, for its Groth16 keygen or its
 * recorded shape: the one sequence (system, circuit, finish, take) that the
 * PoRep, PoSt and SnapDeals circuits share. */
#ifndef CUZK_FILECOIN_CIRCUIT_BUILD_H
#define CUZK_FILECOIN_CIRCUIT_BUILD_H
#include "cuzk/cs.h"
#include "cuzk/cs_slots.h"

/* Allocate ctx's circuit into cs, with no witness. */
typedef cz_err (*cz_circuit_shape_fn)(cz_cs *cs, const void *ctx);

/* The keygen columns of build(ctx) in *out; on error msg is
 * "<what> keygen: <why>". */
cz_err cz_circuit_keygen(cz_circuit_shape_fn build, const void *ctx, const char *what,
                         cz_keygen_cols *out, char *msg, size_t msg_len);

/* The recorded shape of build(ctx) in *out (NULL on error, msg
 * "<what>: recording the circuit: <why>"). */
cz_err cz_circuit_record(cz_circuit_shape_fn build, const void *ctx, const char *what, cz_pce **out,
                         char *msg, size_t msg_len);

/* The recorded shape of a circuit of slots (cz_slots_record: tiled when
 * its slots repeat), msg as cz_circuit_record's. */
cz_err cz_circuit_record_slots(const cz_slotted_circuit *c, const char *what, cz_pce **out,
                               char *msg, size_t msg_len);

#endif
