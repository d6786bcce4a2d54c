/* Layer: filecoin */
/* Filecoin fallback PoSt (WinningPoSt and WindowPoSt), the native half: the
 * registered PoSt proofs, their v28 parameter names, the bincode vanilla
 * proofs (FallbackPoStSectorProof), challenge derivation, the public inputs
 * of one partition's circuit, and the native vanilla verifier, as
 * rust-fil-proofs computes them (storage-proofs-post fallback/{vanilla.rs,
 * utils.rs, compound.rs}; filecoin-proofs api/{post_util.rs,
 * winning_post.rs, window_post.rs}, parameters.rs, constants.rs).
 *
 * Module split (one .c each under src/filecoin/post/):
 *   post_vanilla.c    bincode 1 reader and writer of FallbackPoStSectorProof
 *   post_challenge.c  sector and leaf challenges, public inputs
 *   post_verify.c     the native vanilla verifier
 *   post_prove.c      one partition: parse, verify, synthesize, prove, verify;
 *                     the circuit's keys and parameters
 *   post_generate.c   the native vanilla prover (over an in-memory tree R-last)
 * (The circuit itself is cuzk/post_circuit.h.)
 *
 * Byte strings (randomness, prover_id, comm_r) are 32-byte little-endian Fr
 * encodings, as filecoin-proofs takes them; parsed field values are cz_fr in
 * Montgomery form. Every function here is reentrant: it touches only its
 * arguments (and the read-only tables and Poseidon constants), so any number
 * of threads may call them at once on distinct outputs. None aborts. */
#ifndef CUZK_POST_H
#define CUZK_POST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/err.h"
#include "cuzk/fr.h"
#include "cuzk/merkle.h"
#include "cuzk/params_store.h"
#include "cuzk/registry.h"
#include "cuzk/groth16_prove.h"
#include "cuzk/sdr.h" /* cz_api_version */
#include "cuzk/vanilla_merkle.h"

/* The registered PoSt proofs (cz_registered_post) are in cuzk/registry.h. */

/* filecoin-proofs as_safe_commitment: CZ_OK when b is a canonical
 * little-endian Fr, else CZ_ERR_NONCANONICAL with msg "<what>: ...". */
CZ_MUST_CHECK cz_err cz_post_check_commitment(const uint8_t b[32], const char *what, char *msg,
                                              size_t msg_len);

/* (The prover id of a miner is cz_prover_id_of_miner, cuzk/registry.h.) */

/* ---- Vanilla proofs: bincode FallbackPoStSectorProof (post_vanilla.c) ---- */

/* One MerkleProof of tree R-last (cuzk/vanilla_merkle.h: variant, path
 * counts, the levels as one cz_merkle_proof with a Poseidon shape). */
typedef cz_vanilla_merkle cz_post_inclusion;

/* fallback::SectorProof: one inclusion proof per challenge, comm_c,
 * comm_r_last. */
typedef struct {
  cz_post_inclusion *inclusions; /* heap-owned, n_inclusions */
  size_t n_inclusions;
  cz_fr comm_c, comm_r_last;
} cz_post_sector_proof;

/* filecoin-proofs FallbackPoStSectorProof: what generate_single_vanilla_proof
 * returns for one sector (vanilla_proof.sectors holds one SectorProof). */
typedef struct {
  uint64_t sector_id;
  cz_fr comm_r;
  cz_post_sector_proof *sectors; /* heap-owned, n_sectors (vanilla_proof.sectors) */
  size_t n_sectors;
} cz_post_vanilla;

/* Parse one bincode 1 (serde default options: little-endian fixint, u64
 * lengths and usize, u32 enum indices, [u8; 32] raw, no tags)
 * FallbackPoStSectorProof from in[0..len), exactly: trailing bytes are an
 * error. It is a format check, not a proof check: any sector id, any counts;
 * cz_post_vanilla_verify checks the rest. Beyond serde, it requires what a
 * cz_merkle_proof can hold, which every real proof satisfies: each field
 * value < r; each PathElement with 1, 3 or 7 hashes (arity 2, 4, 8) and
 * index < arity; at most CZ_MERKLE_MAX_LEVELS levels in all; a path index
 * below 2^64. A length is checked against the bytes left (at the smallest
 * encoding of one element) before anything is allocated, so a length of
 * 2^63 costs nothing. Memory: sizeof(cz_post_inclusion) (about 9.4 KB: a
 * cz_merkle_proof has room for CZ_MERKLE_MAX_LEVELS levels) per inclusion
 * proof, about 3.8 times the 2,484 bincode bytes of a 32 GiB one: 94 KB
 * for a WindowPoSt sector's 10, 620 KB for WinningPoSt's 66.
 *   index: the proof's position, for messages only: they read
 *     "vanilla_proofs[<index>].sectors[0].inclusion_proofs[3].sub_proof.
 *      path[1].hashes: unexpected end of input".
 * Errors: CZ_ERR_TRUNCATED (input or a length runs past the end),
 * CZ_ERR_TRAILING, CZ_ERR_PARSE (unknown variant, bad hash count or index,
 * too many levels), CZ_ERR_NONCANONICAL (a value >= r), CZ_ERR_NOMEM,
 * CZ_ERR_INVALID_ARG (NULL out, or NULL in with len > 0). On error *out is
 * zeroed and owns nothing, and msg names the field. On success the caller
 * owns *out: release it with cz_post_vanilla_free. */
CZ_MUST_CHECK cz_err cz_post_vanilla_parse(cz_post_vanilla *out, const uint8_t *in, size_t len,
                                           size_t index, char *msg, size_t msg_len);

/* The bincode encoding of v, as rust-fil-proofs' bincode::serialize writes
 * it: byte-identical to the input of cz_post_vanilla_parse for a value it
 * produced. Writes into out (which needs cz_post_vanilla_write(NULL, v)
 * bytes) and returns the byte count; out NULL: only the count. v must
 * satisfy what the parser guarantees (variant consistent with n_base /
 * n_sub / n_top, n_levels their sum, each arity a power of two <= 8);
 * otherwise it returns 0 and writes nothing. */
size_t cz_post_vanilla_write(uint8_t *out, const cz_post_vanilla *v);

/* Release what v owns and zero it; idempotent on a zeroed value. */
void cz_post_vanilla_free(cz_post_vanilla *v);

/* ---- Challenges and public inputs (post_challenge.c) -------------------- */

/* fallback::utils get_challenge_index: sector_index * challenge_count + n
 * for ApiVersion 1.0.0 and 1.1.0; just n for 1.2.0 (the fix that stops a
 * prover grinding the sector order). challenge_count is per sector, in the
 * view the caller's sector_index counts in. */
uint64_t cz_post_challenge_index(cz_api_version api, uint64_t sector_index,
                                 uint64_t challenge_count, uint64_t n);

/* vanilla.rs generate_leaf_challenge: the leaf
 * LE_u64(SHA-256(randomness || sector_id u64 LE || challenge_index u64 LE)
 * [0..8]) mod (sector_size / 32). randomness is taken as given (see
 * cz_post_sector_challenges for the check). The prover id is not hashed. */
uint64_t cz_post_leaf_challenge(const cz_registered_post *k, const uint8_t randomness[32],
                                uint64_t sector_id, uint64_t challenge_index);

/* post_util.rs generate_fallback_sector_challenges for one sector: the
 * k->config_challenge_count leaves its vanilla proof must open, into out.
 * sector_index is the sector's position in the whole PoSt: Window
 * partition * sector_count + i for the i-th sector of a partition; Winning 0
 * (one sector). Errors: CZ_ERR_NONCANONICAL when randomness is not a
 * canonical Fr (filecoin-proofs as_safe_commitment rejects it; Lotus clears
 * the top two bits of byte 31 before calling), CZ_ERR_INVALID_ARG (NULL k
 * or out). */
CZ_MUST_CHECK cz_err cz_post_sector_challenges(const cz_registered_post *k,
                                               const uint8_t randomness[32], uint64_t sector_index,
                                               uint64_t sector_id, uint64_t *out, char *msg,
                                               size_t msg_len);

/* winning_post.rs generate_winning_post_sector_challenge (vanilla.rs
 * generate_sector_challenge): the k->config_sector_count (1) indices into
 * the prover's sector set, n-th = LE_u64(SHA-256(prover_id || randomness ||
 * n u64 LE)[0..8]) mod sector_set_len, into out. Errors:
 * CZ_ERR_INVALID_ARG (k not Winning, sector_set_len 0, NULL argument),
 * CZ_ERR_NONCANONICAL (randomness or prover_id not a canonical Fr). */
CZ_MUST_CHECK cz_err cz_post_winning_sectors(const cz_registered_post *k,
                                             const uint8_t randomness[32],
                                             const uint8_t prover_id[32], uint64_t sector_set_len,
                                             uint64_t *out, char *msg, size_t msg_len);

/* A challenged sector as the verifier knows it (fallback::PublicSector):
 * its number and its comm_r (the sealed CID's 32-byte digest). */
typedef struct {
  uint64_t sector_id;
  uint8_t comm_r[32];
} cz_post_sector;

/* What a partition's challenges are drawn from: the registered proof, the
 * chain's randomness, the prover (32 bytes each; only read) and the
 * partition's index. The public inputs do not depend on the prover. */
typedef struct {
  const cz_registered_post *registered;
  const uint8_t *randomness;
  const uint8_t *prover_id;
  uint32_t partition;
} cz_post_challenge_seed;

/* FallbackPoStCompound::generate_public_inputs for partition `partition`,
 * as verify_winning_post / verify_window_post build them:
 *   Winning: sectors is the n = 1 challenged sector; it fills all 66
 *     slots, slot i taking sector_index i; partition must be 0.
 *   Window: sectors are this partition's sectors, 1 <= n <= sector_count;
 *     the i-th has sector_index partition * sector_count + i.
 * Per slot: comm_r, then its challenge_count leaf indices as Fr; a short
 * last partition repeats the last slot's inputs up to sector_count slots.
 * out receives cz_post_public_input_count(k) values (ONE excluded), which
 * out_cap must allow. Errors: CZ_ERR_INVALID_ARG (a count, the partition or
 * out_cap), CZ_ERR_NONCANONICAL (randomness or a comm_r not a canonical
 * Fr); msg says which. */
CZ_MUST_CHECK cz_err cz_post_public_inputs(const cz_post_challenge_seed *seed,
                                           const cz_post_sector *sectors, size_t n, cz_fr *out,
                                           size_t out_cap, char *msg, size_t msg_len);

/* ---- The native vanilla verifier (post_verify.c) ------------------------ */

/* Verify the vanilla proofs of one partition natively, as fallback
 * vanilla.rs FallbackPoSt::verify does, with the checks the circuit also
 * makes. proofs[i] is sectors[i]'s FallbackPoStSectorProof; n as for
 * cz_post_public_inputs (Winning 1, Window 1..sector_count; the padding
 * slots repeat a checked sector and are not checked again). For each:
 *   - its sector_id and comm_r equal sectors[i]'s;
 *   - it holds one SectorProof with k->config_challenge_count inclusions;
 *   - comm_r == Poseidon-2(comm_c, comm_r_last);
 *   - each inclusion has the variant and the level count and arities of
 *     k->tree_r over sector_size / 32 leaves (merkle/proof.rs expected_len);
 *   - the leaf index it spells equals the derived challenge
 *     (cz_post_sector_challenges);
 *   - its root equals comm_r_last (rust-fil-proofs compares against the
 *     first inclusion's root; the SectorProof's own comm_r_last, which the
 *     circuit uses, must be that same value) and the path hashes up to it
 *     (cz_merkle_verify).
 * prover_id does not enter the leaf challenges; it is checked canonical, as
 * filecoin-proofs does. Returns CZ_OK, or CZ_ERR_PROOF_INVALID with msg
 * naming the first failure ("vanilla_proofs[0].sectors[0].inclusion_proofs
 * [3]: leaf index 12 is not the challenge 707914199"); CZ_ERR_INVALID_ARG
 * for wrong counts, a wrong partition or a tree of the wrong shape (proofs
 * made for another registered proof), CZ_ERR_NONCANONICAL for randomness,
 * prover_id or a public comm_r not a canonical Fr. */
CZ_MUST_CHECK cz_err cz_post_vanilla_verify(const cz_post_challenge_seed *seed,
                                            const cz_post_sector *sectors,
                                            const cz_post_vanilla *proofs, size_t n, char *msg,
                                            size_t msg_len);

/* ---- Proving one partition (post_prove.c) -------------------------------- */

/* One partition's request as the prover takes it: what Curio sends for a
 * WinningPoSt or one WindowPoSt partition, parsed. sectors[i] is the
 * sector proofs[i] claims (its id and comm_r): the request carries no other
 * sector list, so the public inputs are computed from these. */
typedef struct {
  const cz_registered_post *registered;
  uint8_t randomness[32], prover_id[32];
  uint32_t partition;
  size_t n;                /* vanilla proofs: Winning 1, Window 1..sector_count */
  cz_post_sector *sectors; /* heap-owned, n */
  cz_post_vanilla *proofs; /* heap-owned, n */
} cz_post_partition;

/* Parse the n bincode vanilla proofs vanilla[i][0..lens[i]) of partition
 * `partition` of a PoSt of registered proof k (cz_post_vanilla_parse each, messages name
 * vanilla_proofs[i]). Checks the count (Winning exactly 1, partition 0;
 * Window 1..sector_count) and that randomness is a canonical Fr; it does
 * not verify the proofs (cz_post_partition_verify). On success the caller
 * owns *out (cz_post_partition_free); on error *out owns nothing and msg
 * says why: CZ_ERR_INVALID_ARG (counts, partition, NULL), the parser's
 * errors, CZ_ERR_NONCANONICAL, CZ_ERR_NOMEM. Reentrant. */
CZ_MUST_CHECK cz_err cz_post_partition_parse(cz_post_partition *out,
                                             const cz_post_challenge_seed *seed,
                                             const uint8_t *const *vanilla, const size_t *lens,
                                             size_t n, char *msg, size_t msg_len);
/* Release what p owns and zero it; idempotent on a zeroed value. */
void cz_post_partition_free(cz_post_partition *p);

/* cz_post_vanilla_verify over the partition (its errors). */
CZ_MUST_CHECK cz_err cz_post_partition_verify(const cz_post_partition *p, char *msg,
                                              size_t msg_len);

/* Synthesize the partition's circuit into *as (a PROVE assignment, the
 * slots synthesized in parallel on n_threads, 0: all cores, by
 * cz_post_witness): the sector slots filled as rust-fil-proofs fills them (Winning: the one
 * sector in all 66 slots, slot i opening challenge i; Window: sector i in
 * slot i, the last repeated). The circuit's public inputs are checked
 * against cz_post_public_inputs (CZ_ERR_INVALID_ARG on a mismatch). The
 * caller verifies the vanilla proofs first; unverified paths make an
 * unsatisfied circuit, not an error. On success the caller owns *as
 * (cz_assignment_free); on error *as is zeroed. */
CZ_MUST_CHECK cz_err cz_post_synthesize(const cz_post_partition *p, unsigned n_threads,
                                        cz_assignment *as, char *msg, size_t msg_len);

/* Pre-compiled synthesis (cs.h's cz_pce): cz_post_record_shape records
 * k's circuit once (RECORD cs; about 46 bytes per constraint: 2 KiB
 * Winning 4 MiB, 32 GiB Window 5.8 GB); cz_post_synthesize_pce then makes
 * the assignment as a WITNESS run with the sector slots synthesized in
 * parallel on n_threads (0: all cores, cz_post_witness) plus cz_pce_eval,
 * bit for bit what cz_post_synthesize makes. shape NULL: the plain path.
 * A shape of another circuit fails (CZ_ERR_INVALID_ARG). The shape is
 * immutable and may be shared by threads. */
CZ_MUST_CHECK cz_err cz_post_record_shape(const cz_registered_post *k, cz_pce **out, char *msg,
                                          size_t msg_len);
CZ_MUST_CHECK cz_err cz_post_synthesize_pce(const cz_post_partition *p, const cz_pce *shape,
                                            unsigned n_threads, cz_assignment *as, char *msg,
                                            size_t msg_len);

/* The whole partition: cz_post_partition_verify, cz_post_synthesize on
 * pc->n_threads (reported as the synthesis phase through pc->timing),
 * Groth16 with pc, and verification of the proof against pc->pvk (NULL:
 * prepared here from pc->params->vk) with the verifier's public inputs
 * before the 192 bytes are written to out. Errors:
 * CZ_ERR_INVALID_ARG (params for another circuit: IC count), the
 * verifier's, synthesis' or prover's errors, CZ_ERR_PROOF_INVALID when the
 * proof made does not verify; msg says which. out is written only on
 * success. Reentrant (params and pvk are only read). */
CZ_MUST_CHECK cz_err cz_post_prove(const cz_post_partition *p, const cz_prove_ctx *pc,
                                   uint8_t out[CZ_GROTH16_PROOF_BYTES], char *msg, size_t msg_len);

/* The second half of cz_post_prove, for pipelines that synthesize apart:
 * prove *as (from cz_post_synthesize of the same partition; consumed
 * either way) with pc and verify the proof with pc->pvk (NULL: prepared
 * here) and the verifier's public inputs before writing it to out. Errors as
 * cz_post_prove's. */
CZ_MUST_CHECK cz_err cz_post_groth16_prove(const cz_post_partition *p, cz_assignment *as,
                                           const cz_prove_ctx *pc,
                                           uint8_t out[CZ_GROTH16_PROOF_BYTES], char *msg,
                                           size_t msg_len);

/* A cz_params_keygen_fn for the PoSt circuit of ctx (a const cz_registered_post
 * *): its KEYGEN columns. */
CZ_MUST_CHECK cz_err cz_post_keygen(void *ctx, cz_keygen_cols *out, char *msg, size_t msg_len);
/* A cz_params_shape_fn for the same circuit (same ctx), as cz_porep_keygen_shape. */
CZ_MUST_CHECK cz_err cz_post_keygen_shape(void *ctx, cz_cs *cs);

/* Part of the test-parameter file name (cz_params_store_opts.test_tag),
 * bumped whenever the circuit changes. */
#define CZ_POST_CIRCUIT_REVISION "post-r1"

/* cz_params_store_get for k's circuit: name cz_post_param_name, IC count
 * cz_post_public_input_count + 1. The caller's opts choose the keygen
 * (cz_post_keygen with ctx k) and test tag (CZ_POST_CIRCUIT_REVISION). */
CZ_MUST_CHECK cz_err cz_post_params_get(cz_groth16_params *out, const cz_registered_post *k,
                                        const cz_params_store_opts *o, cz_params_origin *origin,
                                        char *msg, size_t msg_len);

/* ---- The native vanilla prover (post_generate.c) ------------------------ */

/* One MerkleProof of leaf `challenge` of tree t, as merkle/proof.rs builds
 * it from the tree's type: variant 0 Single (base tree alone), 1 Sub (with
 * a sub tree), 2 Top (with a top tree); n_base = the base tree's levels,
 * n_sub = 1 with a sub tree, n_top = 1 with a top tree; proof as
 * cz_merkle_prove writes it (the levels in that order, shape = t's).
 * Errors: CZ_ERR_INVALID_ARG (NULL, an empty tree, a SHA-256 tree, an arity
 * other than 2, 4 or 8, challenge >= t->n_leaves); *out is then zeroed.
 * Reentrant (t is only read). */
CZ_MUST_CHECK cz_err cz_post_inclusion_prove(const cz_merkle_tree *t, uint64_t challenge,
                                             cz_post_inclusion *out);

/* A sealed sector as the vanilla prover reads it: its number, comm_r (32
 * bytes), comm_c, comm_r_last and tree R-last; only read. */
typedef struct {
  uint64_t sector_id;
  const uint8_t *comm_r;
  const cz_fr *comm_c, *comm_r_last;
  const cz_merkle_tree *tree_r_last;
} cz_post_replica;

/* filecoin-proofs generate_single_vanilla_proof (fallback vanilla.rs
 * vanilla_proof): the FallbackPoStSectorProof of sector sector_id, whose
 * replica is tree_r_last (tree R-last: k->tree_r over k->sector_size / 32
 * leaves), comm_c and comm_r_last, for the challenged leaves
 * challenges[0..n_challenges) in that order (cz_post_sector_challenges:
 * k->config_challenge_count of them is what cz_post_vanilla_verify takes;
 * any count >= 1 is made). *out: sector_id, comm_r, one SectorProof with
 * one inclusion per challenge (cz_post_inclusion_prove), comm_c and
 * comm_r_last; cz_post_vanilla_write then encodes it byte for byte as
 * bincode::serialize does. Each inclusion is verified against its leaf
 * and comm_r_last before it is kept (vanilla_proof's ensure).
 * Beyond rust-fil-proofs, which leaves it to the verifier, comm_r must be
 * Poseidon-2(comm_c, comm_r_last).
 * Errors: CZ_ERR_INVALID_ARG (a NULL argument, no challenges, a challenge
 * >= the leaf count, a tree not of k's shape and size, comm_r_last not the
 * tree's root, comm_r not Poseidon-2(comm_c, comm_r_last)),
 * CZ_ERR_NONCANONICAL (comm_r not a canonical Fr), CZ_ERR_NOMEM; msg
 * names the argument. On error *out is zeroed and owns nothing; on success
 * the caller owns it (cz_post_vanilla_free). Memory: about 9.4 KB per
 * challenge (sizeof(cz_post_inclusion)). Reentrant: tree_r_last is only
 * read, so threads may prove sectors (or one sector) at once. */
CZ_MUST_CHECK cz_err cz_post_vanilla_prove(const cz_registered_post *k, const cz_post_replica *rep,
                                           const uint64_t *challenges, size_t n_challenges,
                                           cz_post_vanilla *out, char *msg, size_t msg_len);

#endif
