/* Proving one challenge from a sealed sector, whatever holds it (internal:
 * shared by the in-memory sealer, porep_seal.c, and the sparse test
 * sector, porep_sparse.c). */
#ifndef CUZK_FILECOIN_POREP_CHALLENGE_H
#define CUZK_FILECOIN_POREP_CHALLENGE_H
#include <stddef.h>
#include <stdint.h>

#include "cuzk/porep.h"

typedef enum { CZ_POREP_TREE_D, CZ_POREP_TREE_C, CZ_POREP_TREE_R } cz_porep_tree_id;

/* A sealed sector as proving reads it: the label of any node the proof
 * opens in layer 1..layers (32 bytes, little-endian, < 2^254) and inclusion
 * proofs in tree D, tree C and tree R-last. */
typedef struct {
  const void *ctx;
  uint32_t layers;
  const uint8_t *(*label)(const void *ctx, uint32_t layer, uint32_t node);
  cz_err (*prove)(const void *ctx, cz_porep_tree_id tree, uint32_t node, cz_merkle_proof *p);
} cz_porep_sector_view;

/* The vanilla proof of `challenge` (stacked/vanilla/proof.rs
 * prove_layers_generate): its tree D and R-last paths, its column and its
 * 14 parents' columns (parents as cz_sdr_parents lays them out) with tree C
 * paths, its labeling proofs of every layer and the encoding proof. The
 * first error of v->prove, else CZ_OK. */
cz_err cz_porep_prove_challenge(const cz_porep_sector_view *v, uint64_t challenge,
                                const uint32_t parents[CZ_SDR_DEGREE],
                                cz_porep_challenge_proof *pr);

/* The checks shared by sealing (porep_seal.c, which defines them) and
 * verification (porep_verify.c): a registered proof this code handles and a
 * configuration that agrees with it. CZ_OK, or CZ_ERR_INVALID_ARG with msg
 * naming the cause. */
cz_err cz_porep_check_registered(const cz_registered_porep *k, const cz_porep_config *cfg,
                                 char *msg, size_t msg_len);
/* A sealer's input checks (the dense and the sparse one): an input and an
 * output (has_out), a registered proof, *cfg defaulting to the registered proof's own
 * configuration (written to *own), then cz_porep_check_registered. */
cz_err cz_porep_check_seal_input(const cz_porep_seal_input *in, bool has_out,
                                 const cz_porep_config **cfg, cz_porep_config *own, char *msg,
                                 size_t msg_len);

#endif
