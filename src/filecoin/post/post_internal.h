/* What the PoSt modules share and the public header does not promise. */
#ifndef CUZK_FILECOIN_POST_INTERNAL_H
#define CUZK_FILECOIN_POST_INTERNAL_H
#include <stddef.h>
#include <stdint.h>

#include "cuzk/post.h"

/* filecoin-proofs as_safe_commitment: b must be a canonical little-endian
 * Fr. CZ_ERR_NONCANONICAL with msg "<what>: ..." otherwise; CZ_OK and *out
 * (when not NULL) the value. */
cz_err cz_post_check_fr(const uint8_t b[32], const char *what, cz_fr *out, char *msg,
                        size_t msg_len);

/* The sector list of one partition as rust-fil-proofs hands it to the
 * circuit: Winning partition 0 and n == config_sector_count (*slots = the
 * 66 slots it fills); Window 1 <= n <= sector_count (*slots = n).
 * CZ_ERR_INVALID_ARG with msg otherwise. */
cz_err cz_post_partition_slots(const cz_registered_post *k, uint32_t partition, size_t n,
                               size_t *slots, char *msg, size_t msg_len);

#endif
