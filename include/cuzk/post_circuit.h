/* Layer: filecoin */
/* The Filecoin fallback PoSt circuit, which WinningPoSt and WindowPoSt
 * share: storage-proofs-post fallback/circuit.rs (FallbackPoStCircuit,
 * Sector::synthesize) and its public inputs (fallback/compound.rs,
 * generate_public_inputs), allocation for allocation.
 *
 * One partition has n_sectors sector slots. Per slot, in this order:
 * comm_r_last and comm_c (private), comm_r (allocated, then inputized),
 * comm_r == Poseidon-2(comm_c, comm_r_last) (hash2_circuit of the tree
 * hasher), then n_challenges PoR inclusions of a leaf of tree R_last:
 * the leaf allocated inside the PoR ("value"), the path, the root bound
 * to the slot's comm_r_last, private root (the path bits are packed into
 * one public input, the root is not inputized). Allocation order is a
 * compatibility contract with the parameter files. Names are those of
 * bellperson's TestConstraintSystem on synthesize_default:
 * "outer namespace/sector_<i>/..." (the prover's synthesize_extendable
 * numbers sectors per chunk instead; only names differ).
 *
 * A partition with fewer real sectors than slots repeats its last sector
 * (FallbackPoStCompound::circuit and generate_public_inputs); the caller
 * fills the slots so. Every slot needs the same tree shape and the same
 * challenge count, so the sizes below decide the circuit. The registered
 * sizes (tree shape, slots, challenges per slot) are cz_registered_post's
 * (cuzk/post.h): tree_r, sector_count, challenge_count.
 *
 * Threading: nothing here keeps state; calls on different constraint
 * systems may run on several threads at once (a cz_cs itself is used by
 * one thread at a time). cz_post_circuit itself is serial;
 * cz_post_witness synthesizes the slots in parallel, each in a system of
 * its own, and merges them at fixed offsets (cz_slots_synthesize: what
 * bellperson's synthesize_extendable and ConstraintSystem::extend do): a
 * WITNESS run, for cz_pce_eval with the recorded shape, or a whole PROVE
 * run. */
#ifndef CUZK_POST_CIRCUIT_H
#define CUZK_POST_CIRCUIT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "cuzk/fr.h"
#include "cuzk/merkle.h"

/* The witness of one sector slot. comm_r, comm_c and comm_r_last are Fr
 * in Montgomery form; proofs points at n_challenges inclusion proofs in
 * tree R_last (each its challenged leaf, its path and the challenge, the
 * leaf index within the sector). Owned by the caller; read only. */
typedef struct {
  cz_fr comm_r, comm_c, comm_r_last;
  const cz_merkle_proof *proofs;
} cz_post_slot;

/* The circuit's public inputs, ONE excluded: n_sectors * (1 + n_challenges)
 * (0 when that overflows). ONE included, the circuit has one more. */
size_t cz_post_circuit_input_count(size_t n_sectors, size_t n_challenges);

/* Check a witness against the sizes: tree valid for sector_leaves leaves
 * (cz_merkle_shape_ok), n_sectors and n_challenges > 0, sectors and every
 * slot's proofs non-NULL, and each proof of the tree's shape (hasher,
 * arities, level count), its challenge below sector_leaves and its path
 * indices the digits of that challenge (so that the circuit's packed path
 * equals the public input). The proofs' hashes are not checked: a wrong
 * sibling or root makes the circuit unsatisfied, not invalid.
 * Returns CZ_OK or CZ_ERR_INVALID_ARG with the first fault in msg (NULL or
 * msg_len 0: no message), e.g. "sectors[3].proofs[1].challenge: 70 is not
 * below the sector's 64 leaves". Thread-safe. */
CZ_MUST_CHECK cz_err cz_post_check_sectors(const cz_merkle_shape *tree, size_t sector_leaves,
                                           size_t n_sectors, size_t n_challenges,
                                           const cz_post_slot *sectors, char *msg, size_t msg_len);

/* FallbackPoStCircuit::synthesize on cs for n_sectors slots of
 * n_challenges challenges over sectors of sector_leaves leaves in trees of
 * shape tree. sectors supplies the witness; it may be NULL when
 * !cz_cs_needs_values(cs) (KEYGEN, RECORD, COUNT), and is then ignored.
 * Returns CZ_OK or the cs's sticky error; CZ_ERR_INVALID_ARG (the cs left
 * untouched) for cs NULL, bad sizes, or a witness that
 * cz_post_check_sectors rejects (call it for the message). The caller
 * still calls cz_cs_finish. Allocates nothing that outlives the call
 * beyond what cs keeps. */
CZ_MUST_CHECK cz_err cz_post_circuit(cz_cs *cs, const cz_merkle_shape *tree, size_t sector_leaves,
                                     size_t n_sectors, size_t n_challenges,
                                     const cz_post_slot *sectors);

/* A PoSt circuit's sizes, as cz_post_circuit takes them: n_sectors slots of
 * n_challenges challenges over sectors of sector_leaves leaves in trees of
 * shape tree. */
typedef struct {
  const cz_merkle_shape *tree;
  size_t sector_leaves, n_sectors, n_challenges;
} cz_post_dims;

/* The public inputs, ONE excluded, as FallbackPoStCompound's
 * generate_public_inputs orders them: per slot comm_r, then each
 * challenge's packed path, which is the challenged leaf index as an Fr.
 * They equal inputs 1.. of a PROVE or TEST run of cz_post_circuit on the
 * same witness. *n: capacity of out in, count written out. Returns CZ_OK;
 * CZ_ERR_INVALID_ARG when the witness fails cz_post_check_sectors (message
 * in msg) or the capacity is below cz_post_circuit_input_count (*n then
 * holds the count needed, out untouched). Thread-safe. */
CZ_MUST_CHECK cz_err cz_post_circuit_inputs(const cz_post_dims *d, const cz_post_slot *sectors,
                                            cz_fr *out, size_t *n, char *msg, size_t msg_len);

/* One sector slot of the circuit (storage-proofs-post Sector::synthesize):
 * comm_r_last, comm_c, comm_r (an input), the comm_r check and the
 * n_challenges inclusion proofs, in the caller's namespace; w is NULL
 * without values. Returns the system's error. */
CZ_MUST_CHECK cz_err cz_post_sector_circuit(cz_cs *cs, const cz_merkle_shape *tree, size_t leaves,
                                            size_t n_challenges, const cz_post_slot *w);

/* cz_post_circuit of sizes d on a system in mode `mode`, CZ_CS_WITNESS or CZ_CS_PROVE,
 * the slots synthesized on n_threads threads (0: all online cores) by
 * cz_slots_synthesize. *out receives, bit for bit, the assignment a serial
 * run of that mode takes after cz_cs_finish. WITNESS: inputs (ONE first),
 * packed aux and n_constraints, no a/b or densities, ready for cz_pce_eval
 * / cz_r1cs_eval with the circuit's recorded shape. PROVE: also a/b (input
 * constraints included) and the densities, ready for the prover. The
 * caller owns *out (cz_assignment_free).
 * Working memory: the result (inputs 32 bytes each, aux packed: about 2
 * bits each and 32 bytes per value neither 0 nor 1; PROVE: 64 bytes per
 * constraint), plus per thread one slot's values (one 32 GiB slot's are
 * 1.7 MB). Returns CZ_OK; CZ_ERR_INVALID_ARG with msg when
 * cz_post_check_sectors rejects the witness, out is NULL or mode is
 * another; CZ_ERR_NOMEM. *out is zeroed on error. Thread-safe; the
 * witness is only read. */
CZ_MUST_CHECK cz_err cz_post_witness(const cz_post_dims *d, const cz_post_slot *sectors,
                                     cz_cs_mode mode, unsigned n_threads, cz_assignment *out,
                                     char *msg, size_t msg_len);

/* The recorded shape of the circuit of these sizes (cz_slots_record: its
 * sector slots repeat, so the shape holds one slot); msg on error is
 * "<what>: recording the circuit: <why>". */
CZ_MUST_CHECK cz_err cz_post_record_slots(const cz_merkle_shape *tree, size_t sector_leaves,
                                          size_t n_sectors, size_t n_challenges, const char *what,
                                          cz_pce **out, char *msg, size_t msg_len);

#endif
