/* Layer: filecoin */
/* The SnapDeals circuit: storage-proofs-update circuit.rs
 * (EmptySectorUpdateCircuit::synthesize) and its gadgets (gadgets.rs:
 * apex_por, gen_challenge_bits, get_challenge_high_bits, label_r_new),
 * allocation for allocation, constraint for constraint
 * (src/filecoin/snap/snap_circuit.c). Allocation order is a compatibility
 * contract with the parameter files:
 *   1. k_and_h_select (aux, inputized), its log2(partitions) + 6 bits and
 *      their decomposition, the packed partition index k; comm_r_old,
 *      comm_d_new, comm_r_new (each aux, inputized); phi = genrand(comm_d_new,
 *      comm_r_old);
 *   2. comm_c, root_r_old, root_r_new, the apex leaves, the partition path
 *      (private);
 *   3. comm_r_old == Poseidon-2(comm_c, root_r_old), the same for new;
 *   4. the apex tree (SHA-256) and its root's path up to comm_d_new;
 *   5. the challenges' random bits (gen_challenge_bits), then per
 *      challenge: c_high, rho, leaf_r_old, leaf_d_new, leaf_r_new =
 *      leaf_r_old + leaf_d_new * rho, the tree-R-old and tree-R-new
 *      inclusions, the apex leaf selected by the challenge's bits and the
 *      SHA-256 inclusion of leaf_d_new up to it.
 * Five inputs with ONE. Names are bellperson TestConstraintSystem's.
 *
 * Threading: no state; calls on different systems may run at once. */
#ifndef CUZK_SNAP_CIRCUIT_H
#define CUZK_SNAP_CIRCUIT_H
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "cuzk/gadgets.h"
#include "cuzk/registry.h"
#include "cuzk/snap.h"

/* The public inputs as field values, in circuit order. */
typedef struct {
  cz_fr k_and_h_select, comm_r_old, comm_d_new, comm_r_new;
} cz_snap_public;

/* Synthesize the circuit of a sector of shape s (cz_snap_shape_of: any size
 * rust-fil-proofs allows) into cs. When cz_cs_needs_values(cs), pub and w
 * (the partition's proof, parsed) give the witness: root_r_old and
 * root_r_new are the first challenge's roots, the partition path is the
 * top log2(partitions) levels of its proof_d_new (the other challenges'
 * are not read: the native verifier checks they agree). A wrong proof
 * makes an unsatisfied circuit, not an error. Errors: CZ_ERR_INVALID_ARG
 * for a NULL cs or s, a shape cz_snap_shape_of does not give, or (with
 * values) NULL pub / w, k_and_h_select not a k < partitions with one
 * h_select bit, or a proof of the wrong shape (apex or challenge count,
 * level counts or arities of the three paths); otherwise cs's sticky
 * error. */
CZ_MUST_CHECK cz_err cz_snap_circuit(cz_cs *cs, const cz_snap_shape *s, const cz_snap_public *pub,
                                     const cz_snap_partition_proof *w);

/* The same circuit as a finished PROVE or WITNESS run would give it, its
 * challenges synthesized on n_threads (0: all cores) and merged in order
 * (cz_slots_synthesize): bit for bit the serial run's. pub and w must give
 * the witness. Errors (msg says which): CZ_ERR_INVALID_ARG as
 * cz_snap_circuit's, or a challenge's ("slot 3: ..."); CZ_ERR_NOMEM.
 * *out is zeroed on error; the caller owns it (cz_assignment_free). */
CZ_MUST_CHECK cz_err cz_snap_witness(cz_cs_mode mode, const cz_snap_shape *s,
                                     const cz_snap_public *pub, const cz_snap_partition_proof *w,
                                     unsigned n_threads, cz_assignment *out, char *msg,
                                     size_t msg_len);

/* gadgets.rs gen_challenge_bits: for each of ceil(challenges / (254 /
 * bits)) digests j, digest_index = k * digests + j (allocated, one
 * constraint), genrand(comm_r_new, digest_index), its 255 allocated bits
 * and their decomposition (568 constraints a digest); out receives
 * challenges x bits AllocatedBits, challenge i at out[i * bits]. bits in
 * 1..254, else CZ_ERR_INVALID_ARG. */
CZ_MUST_CHECK cz_err cz_snap_gen_challenge_bits(cz_cs *cs, const cz_anum *comm_r_new,
                                                const cz_anum *partition, size_t challenges,
                                                unsigned bits, cz_abit *out);

#endif
