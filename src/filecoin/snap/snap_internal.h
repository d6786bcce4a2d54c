/* What the SnapDeals modules share and the public header does not promise. */
#ifndef CUZK_FILECOIN_SNAP_INTERNAL_H
#define CUZK_FILECOIN_SNAP_INTERNAL_H
#include <stddef.h>

#include "cuzk/snap.h"

/* An update's three commitments as Fr, in the order of its public inputs:
 * out[0] = comm_r_old, out[1] = comm_d_new, out[2] = comm_r_new.
 * CZ_ERR_INVALID_ARG when one is missing, CZ_ERR_NONCANONICAL when one is
 * not a canonical little-endian Fr (filecoin-proofs' as_safe_commitment
 * refuses it), each with msg "<name>: ..."; the first bad one is named. */
cz_err cz_snap_comms_fr(const cz_snap_comms *c, cz_fr out[3], char *msg, size_t msg_len);

#endif
