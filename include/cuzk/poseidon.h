/* Layer: hash */
/* Poseidon over the BLS12-381 scalar field, exactly as neptune v11 computes
 * it with Strength::Standard and HashType::MerkleTree (what Filecoin's
 * filecoin-hashers uses for tree C, tree R and comm_r):
 *
 *  - width t = arity + 1, x^5 S-box, 8 full rounds, partial rounds 55
 *    (arity 2), 56 (arity 4), 57 (arity 8 and 11);
 *  - round constants from the Grain LFSR (field tag 1, S-box tag 1, 255
 *    bits), generated here at first use, not pasted;
 *  - MDS = Cauchy matrix M[i][j] = 1/(i + t + j), applied as a row vector
 *    times M (M is symmetric);
 *  - state = [2^arity - 1, inputs...], output state[1].
 *
 * Two equivalent computations are provided: the textbook one (round
 * constants added before every round, dense MDS) and neptune's optimised one
 * ("compressed" round constants, a pre-sparse matrix and one sparse matrix
 * per partial round), which the circuit follows. Both give the same hash.
 *
 * Parameters are built once per arity, thread-safely, on first use, and
 * never freed (static storage). The hashes allocate nothing and keep no
 * state: any thread, concurrently. Sources: src/hash/poseidon.c (hashes),
 * src/hash/poseidon_params.c (constants). */
#ifndef CUZK_POSEIDON_H
#define CUZK_POSEIDON_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/err.h"
#include "cuzk/fr.h"

#define CZ_POSEIDON_MAX_ARITY 11
#define CZ_POSEIDON_MAX_WIDTH (CZ_POSEIDON_MAX_ARITY + 1)
#define CZ_POSEIDON_FULL_ROUNDS 8
#define CZ_POSEIDON_MAX_PARTIAL 57
#define CZ_POSEIDON_MAX_ROUNDS (CZ_POSEIDON_FULL_ROUNDS + CZ_POSEIDON_MAX_PARTIAL)

/* Everything neptune's PoseidonConstants holds for one arity. Read-only
 * once returned by cz_poseidon_params_get. Matrices are [row][column]. */
typedef struct {
  unsigned arity, width, full_rounds, partial_rounds;
  cz_fr domain_tag; /* 2^arity - 1 (HashType::MerkleTree), or a custom tag */
  /* Grain output: (full + partial) * width, round r at [r * width]. */
  cz_fr round_constants[CZ_POSEIDON_MAX_ROUNDS * CZ_POSEIDON_MAX_WIDTH];
  /* neptune's compressed_round_constants: full * width + partial. */
  cz_fr compressed[CZ_POSEIDON_FULL_ROUNDS * CZ_POSEIDON_MAX_WIDTH + CZ_POSEIDON_MAX_PARTIAL];
  cz_fr mds[CZ_POSEIDON_MAX_WIDTH][CZ_POSEIDON_MAX_WIDTH];
  cz_fr mds_inv[CZ_POSEIDON_MAX_WIDTH][CZ_POSEIDON_MAX_WIDTH];
  cz_fr pre_sparse[CZ_POSEIDON_MAX_WIDTH][CZ_POSEIDON_MAX_WIDTH];
  /* Sparse matrix k (partial round k): first column w_hat[k][0..t) and
   * first row v_rest[k][0..t-1) (after the corner); identity elsewhere. */
  cz_fr sparse_w_hat[CZ_POSEIDON_MAX_PARTIAL][CZ_POSEIDON_MAX_WIDTH];
  cz_fr sparse_v_rest[CZ_POSEIDON_MAX_PARTIAL][CZ_POSEIDON_MAX_WIDTH - 1];
} cz_poseidon_params;

/* True for the supported arities: 2, 4, 8 and 11. */
bool cz_poseidon_arity_supported(unsigned arity);

/* The parameters of an arity (built on first call, thread-safe); NULL when
 * the arity is not supported. */
const cz_poseidon_params *cz_poseidon_params_get(unsigned arity);

/* The parameters of an arity with neptune's custom domain tag
 * HashType::Custom(CType::Arbitrary(id)) into *out: the constants of
 * cz_poseidon_params_get(arity) (neptune derives round constants and
 * matrices from the width alone) with domain_tag = id * 2^40 (hash_type.rs
 * CType::domain_tag, id in 1..=256). storage-proofs-update hashes its
 * randomness with Arbitrary(1) at arity 2. The caller owns *out (about
 * 90 KB) and may hash with it from any thread once written. Errors:
 * CZ_ERR_INVALID_ARG (unsupported arity, id outside 1..256, NULL out). */
CZ_MUST_CHECK cz_err cz_poseidon_params_custom(cz_poseidon_params *out, unsigned arity,
                                               uint64_t id);

/* out = Poseidon(inputs[0..arity)) with the Merkle-tree domain tag (the
 * optimised computation). CZ_ERR_INVALID_ARG for an unsupported arity or a
 * NULL inputs / out (out untouched). out may alias inputs. */
CZ_MUST_CHECK cz_err cz_poseidon_hash(unsigned arity, const cz_fr *inputs, cz_fr *out);

/* The same with parameters in hand: no lookup, no allocation. inputs has
 * p->arity elements; out may alias inputs. */
void cz_poseidon_hash_opt(const cz_poseidon_params *p, const cz_fr *inputs, cz_fr *out);
/* The textbook computation (reference for tests; slower). out may alias
 * inputs. */
void cz_poseidon_hash_plain(const cz_poseidon_params *p, const cz_fr *inputs, cz_fr *out);

/* out[i] = Poseidon(inputs[i * arity .. (i+1) * arity)) for i < n: the
 * tree-building path, allocation-free, single-threaded (callers split the
 * range across threads). out must not overlap inputs. */
void cz_poseidon_hash_many(const cz_poseidon_params *p, const cz_fr *inputs, cz_fr *out, size_t n);
/* The same split over n_threads workers (0: all online cores) with
 * cz_parallel_for; results identical to cz_poseidon_hash_many. */
void cz_poseidon_hash_many_par(const cz_poseidon_params *p, const cz_fr *inputs, cz_fr *out,
                               size_t n, unsigned n_threads);

#endif
