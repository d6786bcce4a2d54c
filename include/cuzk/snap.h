/* Layer: filecoin */
/* Filecoin SnapDeals (the empty-sector update), the native half: the
 * bincode PartitionProof vanilla proofs and the update's public inputs and
 * challenges, as storage-proofs-update computes them (vanilla.rs,
 * challenges.rs, circuit.rs PublicInputs, constants.rs). The registered
 * update proofs and constants are cuzk/registry.h's (cz_registered_snap,
 * cz_snap_shape); the circuit is cuzk/snap_circuit.h.
 *
 * Module split (src/filecoin/snap/):
 *   snap_vanilla.c    bincode reader and writer of PartitionProof
 *   snap_challenge.c  phi, rho, the challenges, k_and_h_select, public inputs
 *   snap_generate.c   the encoding and the native vanilla prover
 *   snap_sector.c     test sectors: a CC sector sealed, then updated
 *   snap_verify.c     the native vanilla verifier
 *   snap_prove.c      one partition: parse, verify, synthesize, prove, verify;
 *                     the circuit's keys and parameters
 *
 * Field values are cz_fr (Montgomery); byte strings are 32-byte
 * little-endian Fr encodings as filecoin-proofs takes them. Every function
 * here touches only its arguments (and read-only tables and constants):
 * any number of threads may call them at once on distinct outputs. None
 * aborts. */
#ifndef CUZK_SNAP_H
#define CUZK_SNAP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/err.h"
#include "cuzk/fr.h"
#include "cuzk/params_store.h"
#include "cuzk/poseidon.h"
#include "cuzk/groth16_prove.h"
#include "cuzk/registry.h"
#include "cuzk/vanilla_merkle.h"

/* ---- Vanilla proofs: bincode PartitionProof (snap_vanilla.c) ------------- */

/* vanilla.rs ChallengeProof: the challenged node's inclusion in tree R old
 * (Poseidon, the sector's tree-R shape), in tree D new (SHA-256, binary,
 * Single) and in tree R new (Poseidon). Each cz_vanilla_merkle's shape
 * carries the hasher the field implies. */
typedef struct {
  cz_vanilla_merkle proof_r_old, proof_d_new, proof_r_new;
} cz_snap_challenge_proof;

/* vanilla.rs PartitionProof: comm_c, this partition's apex leaves of tree D
 * new, one ChallengeProof per challenge. */
typedef struct {
  cz_fr comm_c;
  cz_fr *apex_leaves; /* heap-owned, n_apex */
  size_t n_apex;
  cz_snap_challenge_proof *challenges; /* heap-owned, n_challenges */
  size_t n_challenges;
} cz_snap_partition_proof;

/* Parse one bincode 1 PartitionProof (the bytes filecoin-ffi's
 * generate_partition_proofs returns per partition, and
 * generate_empty_sector_update_proof_with_vanilla takes):
 *   PartitionProof { comm_c: [u8;32], apex_leafs: Vec<[u8;32]>,
 *                    challenge_proofs: Vec<ChallengeProof> }
 *   ChallengeProof { proof_r_old, proof_d_new, proof_r_new: MerkleProof }
 * from in[0..len), exactly (trailing bytes are an error), with the bincode
 * rules and MerkleProof limits of the PoSt reader (cz_post_vanilla_parse):
 * every length checked against the bytes left before anything is
 * allocated, each value a canonical Fr. A format check, not a proof check:
 * any counts and shapes; the verifier checks the rest. Memory: about 28 KB
 * per ChallengeProof (three cz_vanilla_merkle), 2.4 MB for a 32 GiB
 * partition's 86.
 *   index: the partition's position, for messages only:
 *     "vanilla_proofs[1].challenge_proofs[3].proof_d_new.path[2].hashes:
 *      unexpected end of input".
 * Errors: CZ_ERR_TRUNCATED, CZ_ERR_TRAILING, CZ_ERR_PARSE,
 * CZ_ERR_NONCANONICAL, CZ_ERR_NOMEM, CZ_ERR_INVALID_ARG (NULL out, or NULL
 * in with len > 0). On error *out is zeroed and owns nothing, and msg names
 * the field. On success the caller owns *out (cz_snap_vanilla_free). */
CZ_MUST_CHECK cz_err cz_snap_vanilla_parse(cz_snap_partition_proof *out, const uint8_t *in,
                                           size_t len, size_t index, char *msg, size_t msg_len);

/* The bincode encoding of v, byte for byte as bincode::serialize writes it
 * (the input of cz_snap_vanilla_parse for a value it produced). Writes into
 * out (cz_snap_vanilla_write(NULL, v) bytes) and returns the count; out
 * NULL: only the count. Returns 0 and writes nothing when v is not
 * something the parser could produce (a NULL array with a count, a
 * MerkleProof whose variant, counts or arities disagree). */
size_t cz_snap_vanilla_write(uint8_t *out, const cz_snap_partition_proof *v);

/* Release what v owns and zero it; idempotent on a zeroed value. */
void cz_snap_vanilla_free(cz_snap_partition_proof *v);

/* ---- Randomness, challenges, public inputs (snap_challenge.c) ----------- */

/* Poseidon arity 2 with the domain tag CType::Arbitrary(1) (constants.rs
 * POSEIDON_CONSTANTS_GEN_RANDOMNESS), built once, thread-safely, on first
 * use; static storage. NULL only if building failed (it cannot). */
const cz_poseidon_params *cz_snap_genrand_params(void);

/* vanilla.rs phi = genrand(comm_d_new, comm_r_old) and
 * rho = genrand(phi, high) with high the h high bits of a node index
 * (c >> (challenge bits - h)). */
void cz_snap_phi(cz_fr *phi, const cz_fr *comm_d_new, const cz_fr *comm_r_old);
void cz_snap_rho(cz_fr *rho, const cz_fr *phi, uint32_t high);

/* challenges.rs Challenges::new(sector_nodes, comm_r_new, k): the
 * s->challenges challenged nodes of partition k, into out. With b =
 * log2(nodes) - log2(partitions) random bits per challenge and 254 / b
 * challenges per digest, digest j = genrand(comm_r_new, k *
 * digests_per_partition + j) (digests_per_partition = ceil(challenges /
 * (254 / b))); challenge i of a digest is its little-endian bits [i*b,
 * (i+1)*b) with k in the bits above: every challenge lies in partition k's
 * nodes. Errors: CZ_ERR_INVALID_ARG (k >= s->partitions, NULL). */
CZ_MUST_CHECK cz_err cz_snap_challenges(const cz_snap_shape *s, const cz_fr *comm_r_new, uint32_t k,
                                        uint32_t *out);

/* circuit.rs PublicInputs::new: k_and_h_select = k | (h_select <<
 * log2(partitions)), h_select = 1 << (the index of h in s->hs; the first
 * when hs repeats it). Errors: CZ_ERR_INVALID_ARG (k >= partitions, h not
 * in hs). 32 GiB, h = 10: k + 128. */
CZ_MUST_CHECK cz_err cz_snap_k_and_h_select(const cz_snap_shape *s, uint32_t k, uint32_t h,
                                            uint64_t *out);

/* An update's three commitments, 32-byte little-endian Fr each, as the
 * request (and the chain) carries them; only read. */
typedef struct {
  const uint8_t *comm_r_old, *comm_d_new, *comm_r_new;
} cz_snap_comms;

/* The four public inputs of partition k's circuit (ONE excluded), as
 * circuit.rs PublicInputs::to_vec orders them: [k_and_h_select, comm_r_old,
 * comm_d_new, comm_r_new]; the commitments are 32-byte little-endian Fr.
 * Errors: cz_snap_k_and_h_select's, CZ_ERR_NONCANONICAL (a commitment not
 * a canonical Fr: filecoin-proofs' as_safe_commitment refuses it); msg
 * names the argument. */
#define CZ_SNAP_PUBLIC_INPUTS 4
CZ_MUST_CHECK cz_err cz_snap_public_inputs(const cz_snap_shape *s, uint32_t k, uint32_t h,
                                           const cz_snap_comms *c, cz_fr out[CZ_SNAP_PUBLIC_INPUTS],
                                           char *msg, size_t msg_len);

/* ---- Encoding and the native vanilla prover (snap_generate.c) ----------- */

/* vanilla.rs encode: labels_r_new[i] = labels_r_old[i] + data[i] * rho(phi,
 * i >> (log2(nodes) - h)) with phi = cz_snap_phi(comm_d_new, comm_r_old),
 * for the s->nodes nodes; out may alias labels_r_old. h must be one of
 * s->hs (production: s->h). Errors: CZ_ERR_INVALID_ARG (NULL, h not in hs).
 * Serial; 2^h rho hashes plus one multiply-add per node. */
CZ_MUST_CHECK cz_err cz_snap_encode(const cz_snap_shape *s, uint32_t h, const cz_fr *comm_d_new,
                                    const cz_fr *comm_r_old, const cz_fr *labels_r_old,
                                    const cz_fr *data, cz_fr *out);

/* The sector's three trees as the prover holds them: tree R old and tree R
 * new (Poseidon, s->tree_r over s->nodes leaves), tree D new (SHA-256
 * binary over the new data), and comm_c of the sealed sector. */
typedef struct {
  const cz_merkle_tree *tree_r_old, *tree_d_new, *tree_r_new;
  cz_fr comm_c;
} cz_snap_trees;

/* vanilla.rs EmptySectorUpdate::prove for partition k: comm_c, the k-th
 * chunk of s->apex_leaves nodes of tree D new's apex row (the row
 * log2(partitions) + log2(apex_leaves) levels below the root), and for
 * each challenge (cz_snap_challenges over comm_r_new = Poseidon-2(comm_c,
 * root of tree R new)) its proofs in the three trees (variant, counts and
 * levels as merkle/proof.rs builds them), each verified before it is kept.
 * Errors: CZ_ERR_INVALID_ARG (k >= partitions, a tree of the wrong shape or
 * size, NULL), CZ_ERR_NOMEM; msg says which. On success the caller owns
 * *out (cz_snap_vanilla_free; cz_snap_vanilla_write encodes it byte for
 * byte as bincode::serialize does); on error it is zeroed. Reentrant. */
CZ_MUST_CHECK cz_err cz_snap_vanilla_prove(const cz_snap_shape *s, uint32_t k,
                                           const cz_snap_trees *t, cz_snap_partition_proof *out,
                                           char *msg, size_t msg_len);

/* ---- Test sectors: a CC sector sealed and updated in memory (snap_sector.c) */

/* What filecoin-ffi's encode_into leaves behind for an update: the sealed
 * sector's tree R (old) and comm_c, the new data's tree D, the encoded
 * replica's tree R (new), and the three commitments (32-byte little-endian
 * Fr, as the request carries them). */
typedef struct {
  const cz_registered_snap *registered;
  cz_merkle_tree tree_r_old, tree_d_new, tree_r_new;
  cz_fr comm_c;
  uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
} cz_snap_sector;

/* Seal a committed-capacity (all-zero data) sector of k's size with the
 * StackedDrg V1_1 seal proof of that size (cz_porep_seal_replica: sector
 * sector_id, prover id 0, ticket 0c..0c, seed 0d..0d), then encode
 * new_data into it (cz_snap_encode with h = k->shape.h): new_data is
 * k->sector_size bytes of fr32-padded data (each 32-byte chunk < r), or
 * NULL for cz_porep_default_data's. n_threads 0 = all cores (sealing).
 * Errors: CZ_ERR_INVALID_ARG (NULL k, a data chunk >= r, a size the seal
 * cannot make: 2 KiB, 8 MiB and 512 MiB can), sealing's errors,
 * CZ_ERR_NOMEM; msg says which. On success the caller owns *out
 * (cz_snap_sector_free; about 2.3 x 32 bytes per node for the three
 * trees); on error it is zeroed. */
CZ_MUST_CHECK cz_err cz_snap_sector_make(const cz_registered_snap *k, uint64_t sector_id,
                                         const uint8_t *new_data, unsigned n_threads,
                                         cz_snap_sector *out, char *msg, size_t msg_len);
/* Release what s owns and zero it; idempotent on a zeroed value. */
void cz_snap_sector_free(cz_snap_sector *s);
/* The trees of s as cz_snap_vanilla_prove takes them (pointers into s). */
void cz_snap_sector_trees(const cz_snap_sector *s, cz_snap_trees *out);

/* ---- The native vanilla verifier (snap_verify.c) ------------------------ */

/* vanilla.rs EmptySectorUpdate::verify for partition k with h = s->h (what
 * filecoin-proofs' update uses), with the checks the circuit makes:
 *   - p has s->apex_leaves apex leaves and s->challenges challenge proofs;
 *   - each proof_r_old / proof_r_new has tree R's variant, levels and
 *     arities, each proof_d_new is Single, binary, log2(nodes) levels;
 *   - comm_r_old == Poseidon-2(comm_c, root_r_old) and comm_r_new ==
 *     Poseidon-2(comm_c, root_r_new), the roots the first challenge's;
 *   - the apex leaves hash (SHA-256) to a root that the first challenge's
 *     top log2(partitions) tree-D levels carry to comm_d_new at index k;
 *   - challenge i opens node cz_snap_challenges(...)[i] in all three trees,
 *     each path verifies to root_r_old, comm_d_new and root_r_new, and its
 *     tree-D path reaches the apex leaf its bits select;
 *   - leaf_r_new == leaf_r_old + leaf_d_new * rho(phi, c >> (log2(nodes) - h)).
 * index names the partition in messages. Returns CZ_OK or
 * CZ_ERR_PROOF_INVALID with msg naming the first failure
 * ("vanilla_proofs[0].challenge_proofs[3].proof_r_new: leaf is not
 * leaf_r_old + leaf_d_new * rho"); CZ_ERR_INVALID_ARG (k >= partitions,
 * NULL), CZ_ERR_NONCANONICAL (a commitment not a canonical Fr). Reentrant. */
CZ_MUST_CHECK cz_err cz_snap_vanilla_verify(const cz_snap_shape *s, uint32_t k,
                                            const cz_snap_comms *c,
                                            const cz_snap_partition_proof *p, size_t index,
                                            char *msg, size_t msg_len);

/* ---- Proving one partition (snap_prove.c) -------------------------------- */

/* One partition's request, parsed: what Curio sends per partition of an
 * update (the registered proof, the commitments, vanilla_proofs[k]). */
typedef struct {
  const cz_registered_snap *registered;
  uint32_t partition;
  uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
  cz_snap_partition_proof proof;
} cz_snap_partition;

/* Parse vanilla[0..len) as partition `partition` of an update of registered proof k
 * (cz_snap_vanilla_parse, messages name vanilla_proofs[partition]) and
 * check the commitments are canonical Fr. It does not verify the proof
 * (cz_snap_partition_verify). Errors: CZ_ERR_INVALID_ARG (NULL, partition
 * >= k's partitions), CZ_ERR_NONCANONICAL, the parser's. On success the
 * caller owns *out (cz_snap_partition_free); on error it is zeroed. */
CZ_MUST_CHECK cz_err cz_snap_partition_parse(cz_snap_partition *out, const cz_registered_snap *k,
                                             uint32_t partition, const cz_snap_comms *c,
                                             const uint8_t *vanilla, size_t len, char *msg,
                                             size_t msg_len);
void cz_snap_partition_free(cz_snap_partition *p); /* idempotent on a zeroed one */

/* cz_snap_vanilla_verify over p (its errors). */
CZ_MUST_CHECK cz_err cz_snap_partition_verify(const cz_snap_partition *p, char *msg,
                                              size_t msg_len);

/* The verifier's public inputs of p (cz_snap_public_inputs with h =
 * registered->shape.h), into out. */
CZ_MUST_CHECK cz_err cz_snap_partition_inputs(const cz_snap_partition *p,
                                              cz_fr out[CZ_SNAP_PUBLIC_INPUTS], char *msg,
                                              size_t msg_len);

/* Synthesize p's circuit into *as (a PROVE assignment, its challenges on
 * n_threads, 0 = all cores: cz_snap_witness). The circuit's public inputs
 * are checked against cz_snap_partition_inputs
 * (CZ_ERR_INVALID_ARG on a mismatch). The caller verifies p first; an
 * unverified proof makes an unsatisfied circuit, not an error. On success
 * the caller owns *as (cz_assignment_free); on error *as is zeroed. */
CZ_MUST_CHECK cz_err cz_snap_synthesize(const cz_snap_partition *p, unsigned n_threads,
                                        cz_assignment *as, char *msg, size_t msg_len);

/* Pre-compiled synthesis (cs.h's cz_pce), as for PoRep and PoSt:
 * cz_snap_record_shape records the update circuit of shape s once (RECORD
 * cs; about 46 bytes a constraint: 78 MB at 2 KiB); cz_snap_synthesize_pce
 * then makes the assignment as a WITNESS run plus cz_pce_eval on n_threads
 * (0: all cores), bit for bit what cz_snap_synthesize makes, inputs
 * checked the same way. shape NULL: cz_snap_synthesize. A shape of another
 * circuit fails (CZ_ERR_INVALID_ARG). The shape is immutable and may be
 * shared by threads; the caller frees it with cz_pce_free. */
CZ_MUST_CHECK cz_err cz_snap_record_shape(const cz_snap_shape *s, cz_pce **out, char *msg,
                                          size_t msg_len);
CZ_MUST_CHECK cz_err cz_snap_synthesize_pce(const cz_snap_partition *p, const cz_pce *shape,
                                            unsigned n_threads, cz_assignment *as, char *msg,
                                            size_t msg_len);

/* The whole partition: cz_snap_partition_verify, cz_snap_synthesize on
 * pc->n_threads (reported as the synthesis phase through pc->timing),
 * Groth16 with pc, and verification of the proof against pc->pvk (NULL:
 * prepared here from pc->params->vk) with the verifier's inputs before the
 * 192 bytes are written to out. Errors:
 * CZ_ERR_INVALID_ARG (parameters with another IC count), the verifier's,
 * synthesis' or prover's, CZ_ERR_PROOF_INVALID when the proof made does
 * not verify. out is written only on success. Reentrant. */
CZ_MUST_CHECK cz_err cz_snap_prove(const cz_snap_partition *p, const cz_prove_ctx *pc,
                                   uint8_t out[CZ_GROTH16_PROOF_BYTES], char *msg, size_t msg_len);

/* The second half of cz_snap_prove, for pipelines that synthesize apart:
 * prove *as (from cz_snap_synthesize or cz_snap_synthesize_pce of the same
 * partition; consumed either way) with pc and verify the proof with
 * pc->pvk (NULL: prepared here) and the verifier's inputs before writing
 * it to out.
 * Errors as cz_snap_prove's. */
CZ_MUST_CHECK cz_err cz_snap_groth16_prove(const cz_snap_partition *p, cz_assignment *as,
                                           const cz_prove_ctx *pc,
                                           uint8_t out[CZ_GROTH16_PROOF_BYTES], char *msg,
                                           size_t msg_len);

/* A cz_params_keygen_fn for the update circuit of ctx (a const
 * cz_snap_shape *): its KEYGEN columns. */
CZ_MUST_CHECK cz_err cz_snap_keygen(void *ctx, cz_keygen_cols *out, char *msg, size_t msg_len);
/* A cz_params_shape_fn for the same circuit (same ctx), as cz_porep_keygen_shape. */
CZ_MUST_CHECK cz_err cz_snap_keygen_shape(void *ctx, cz_cs *cs);

/* Part of the test-parameter file name (cz_params_store_opts.test_tag),
 * bumped whenever the circuit changes. */
#define CZ_SNAP_CIRCUIT_REVISION "snap-r1"

/* cz_params_store_get for k's circuit: name cz_snap_param_name, IC count
 * CZ_SNAP_PUBLIC_INPUTS + 1. The caller's opts choose the keygen
 * (cz_snap_keygen with ctx &k->shape) and test tag. */
CZ_MUST_CHECK cz_err cz_snap_params_get(cz_groth16_params *out, const cz_registered_snap *k,
                                        const cz_params_store_opts *o, cz_params_origin *origin,
                                        char *msg, size_t msg_len);

/* Verify the update proofs proofs[p * 192 ..] of all k->shape.partitions
 * partitions against vk, with each partition's public inputs (what
 * filecoin-proofs' verify_empty_sector_update_proof does). Returns CZ_OK
 * (all valid), CZ_ERR_PROOF_INVALID (msg names the first partition whose
 * proof does not decode or verify), CZ_ERR_INVALID_ARG (a length other
 * than partitions x 192, a vk with another IC count), CZ_ERR_NONCANONICAL
 * (a commitment). Reentrant. */
CZ_MUST_CHECK cz_err cz_snap_verify_proofs(const cz_groth16_vk *vk, const cz_registered_snap *k,
                                           const cz_snap_comms *c, const uint8_t *proofs,
                                           size_t len, char *msg, size_t msg_len);

#endif
