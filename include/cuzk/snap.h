/* Filecoin SnapDeals (the empty-sector update), the native half: the
 * bincode PartitionProof vanilla proofs and the update's public inputs and
 * challenges, as storage-proofs-update computes them (vanilla.rs,
 * challenges.rs, circuit.rs PublicInputs, constants.rs). The registered
 * update proofs and constants are cuzk/registry.h's (cz_snap_kind,
 * cz_snap_shape); the circuit is cuzk/snap_circuit.h.
 *
 * Module split (src/filecoin/snap/):
 *   snap_vanilla.c    bincode reader and writer of PartitionProof
 *   snap_challenge.c  phi, rho, the challenges, k_and_h_select, public inputs
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
#include "cuzk/poseidon.h"
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
cz_err cz_snap_vanilla_parse(cz_snap_partition_proof *out, const uint8_t *in, size_t len,
                             size_t index, char *msg, size_t msg_len);

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
cz_err cz_snap_challenges(const cz_snap_shape *s, const cz_fr *comm_r_new, uint32_t k,
                          uint32_t *out);

/* circuit.rs PublicInputs::new: k_and_h_select = k | (h_select <<
 * log2(partitions)), h_select = 1 << (the index of h in s->hs; the first
 * when hs repeats it). Errors: CZ_ERR_INVALID_ARG (k >= partitions, h not
 * in hs). 32 GiB, h = 10: k + 128. */
cz_err cz_snap_k_and_h_select(const cz_snap_shape *s, uint32_t k, uint32_t h, uint64_t *out);

/* The four public inputs of partition k's circuit (ONE excluded), as
 * circuit.rs PublicInputs::to_vec orders them: [k_and_h_select, comm_r_old,
 * comm_d_new, comm_r_new]; the commitments are 32-byte little-endian Fr.
 * Errors: cz_snap_k_and_h_select's, CZ_ERR_NONCANONICAL (a commitment not
 * a canonical Fr: filecoin-proofs' as_safe_commitment refuses it); msg
 * names the argument. */
#define CZ_SNAP_PUBLIC_INPUTS 4
cz_err cz_snap_public_inputs(const cz_snap_shape *s, uint32_t k, uint32_t h,
                             const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                             const uint8_t comm_r_new[32], cz_fr out[CZ_SNAP_PUBLIC_INPUTS],
                             char *msg, size_t msg_len);

#endif
