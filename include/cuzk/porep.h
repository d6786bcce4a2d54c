/* Layer: filecoin */
/* Filecoin PoRep (interactive StackedDRG) from C1 to C2: the C1 model
 * (SealCommitPhase1Output: the vanilla proofs), its JSON, sealing of test
 * sectors, the native vanilla verifier, the StackedDRG circuit, C2 and its
 * parameters.
 *
 * Module split (under src/filecoin/porep/; the registered proofs and the
 * v28 names are in cuzk/registry.h, the parameter store in
 * cuzk/params_store.h):
 *   porep_c1_read.c       C1 JSON in: filecoin-proofs' serde JSON, plain
 *                         or in Curio's base64 wrapper, from memory or a
 *                         file (on the scanner src/util/json_scan.h)
 *   porep_c1_write.c      C1 JSON out
 *   porep_c1_synthetic.c  the synthetic C1 (tests, benchmarks)
 *   porep_seal.c          test-sector sealing
 *   porep_verify.c        the native vanilla verifier
 *   porep_sparse.c        sparse test sectors of any size (no sealing)
 *   porep_challenge.c     one challenge's vanilla proof (seal and sparse)
 *   porep_circuit.c       StackedCircuit (storage-proofs-porep stacked/circuit)
 *                         and the partitions' public inputs
 *   porep_c2.c            C2: synthesis, proving and verification of
 *                         partitions; keygen, size hints, recorded shapes
 *   porep_params.c        the StackedDRG circuit's parameters from the store
 * (cz_porep_c1_alloc / free live with the registered proofs, in
 * src/filecoin/registry/registered_porep.c.)
 *
 * Field values are Fr in Montgomery form (cz_fr); byte strings (comm_*,
 * replica_id, seed, ticket) are the 32-byte little-endian Fr / raw bytes
 * that filecoin-proofs serialises.
 *
 * Threads: nothing here keeps state except the size hints (atomic); a C1,
 * parameters and a recorded shape are only read, so any number of threads
 * may seal, verify, synthesize and prove at once, each with its own cs and
 * assignment. */
#ifndef CUZK_POREP_H
#define CUZK_POREP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "cuzk/fr.h"
#include "cuzk/merkle.h"
#include "cuzk/progress.h"
#include "cuzk/params.h"
#include "cuzk/params_store.h"
#include "cuzk/groth16_prove.h"
#include "cuzk/registry.h"
#include "cuzk/sdr.h"

#define CZ_POREP_LABEL_PARENTS 37 /* storage-proofs-porep TOTAL_PARENTS */

/* ---- The C1 model -------------------------------------------------------- */

/* One opened column of tree C: the node's label in layers 1..layers and the
 * inclusion proof of its column hash. */
typedef struct {
  uint32_t index;
  cz_fr rows[CZ_POREP_MAX_LAYERS];
  cz_merkle_proof tree_c;
} cz_porep_column;

/* LabelingProof / EncodingProof: layer_index, node and the 37 parent labels
 * as the label hash consumes them (repeated cyclically). */
typedef struct {
  uint32_t layer;
  uint64_t node;
  cz_fr parents[CZ_POREP_LABEL_PARENTS];
} cz_porep_labeling;

/* The vanilla proof of one challenge (stacked/vanilla/proof.rs Proof). */
typedef struct {
  uint64_t challenge;          /* node index, from tree_d.challenge */
  cz_merkle_proof tree_d;      /* comm_d_proofs: data leaf in tree D */
  cz_merkle_proof tree_r_last; /* comm_r_last_proof: replica leaf */
  cz_porep_column c_x;         /* replica_column_proofs */
  cz_porep_column drg[CZ_SDR_BASE_DEGREE];
  cz_porep_column exp[CZ_SDR_EXP_DEGREE];
  cz_porep_labeling labeling[CZ_POREP_MAX_LAYERS]; /* layers 1..layers at [0..layers) */
  cz_porep_labeling encoding;
} cz_porep_challenge_proof;

/* SealCommitPhase1Output. proofs[p * n_challenges + i] is challenge i of
 * partition p. sector_num is set only when Curio's wrapper carried it. */
typedef struct {
  const cz_registered_porep *registered;
  uint8_t comm_r[32], comm_d[32], replica_id[32], seed[32], ticket[32];
  uint32_t n_partitions, n_challenges;
  cz_porep_challenge_proof *proofs; /* heap-owned */
  bool has_sector_num;
  uint64_t sector_num;
} cz_porep_c1;

/* Allocates c1->proofs for `registered` (partitions x challenges, zeroed; 175 KiB
 * per challenge) and sets the counts; c1 is zeroed first. Free with
 * cz_porep_c1_free. CZ_ERR_NOMEM. */
CZ_MUST_CHECK cz_err cz_porep_c1_alloc(cz_porep_c1 *c1, const cz_registered_porep *registered);
void cz_porep_c1_free(cz_porep_c1 *c1); /* idempotent on a zeroed struct */

/* ---- C1 JSON (porep_c1_read.c, _write.c, _synthetic.c) ------------------ */

/* Parse filecoin-proofs' serde JSON SealCommitPhase1Output, or Curio's
 * wrapper {"SectorNum":N,"Phase1Out":"<base64 of that JSON>","SectorSize":S}.
 * Checks everything structural before returning: the registered proof is
 * known and matches the vanilla_proofs key (and SectorSize); partition,
 * challenge, layer, parent and path counts and arities fit the kind; every
 * field element is < r; comm_d, comm_r and seed are not all zero. It does
 * not verify the proofs (cz_porep_vanilla_verify does). On success the
 * caller frees *out with cz_porep_c1_free. On error *out owns nothing and
 * msg (when not NULL) holds one line naming what is wrong.
 * Errors: CZ_ERR_PARSE (syntax, missing/unknown fields, wrong types or
 * counts), CZ_ERR_NONCANONICAL (a value >= r), CZ_ERR_INVALID_ARG (zero
 * commitment or seed, unknown proof), CZ_ERR_NOMEM. */
CZ_MUST_CHECK cz_err cz_porep_c1_parse(cz_porep_c1 *out, const char *json, size_t len, char *msg,
                                       size_t msg_len);
/* Read (mmap) and parse a file (CZ_ERR_IO when not a readable regular
 * file). */
CZ_MUST_CHECK cz_err cz_porep_c1_load(cz_porep_c1 *out, const char *path, char *msg,
                                      size_t msg_len);
/* Serialise c1 as filecoin-proofs' serde JSON (the form filecoin-proofs
 * itself reads). *out is malloc'd and NUL-terminated, *len excludes the NUL.
 * CZ_ERR_NOMEM. */
CZ_MUST_CHECK cz_err cz_porep_c1_to_json(const cz_porep_c1 *c1, char **out, size_t *len);
/* A structurally valid C1 of a registered proof filled with pseudo-random canonical
 * values from seed (the same seed gives the same C1); it is NOT a valid
 * proof, but synthesis accepts it: each partition's challenges are the ones
 * the public inputs derive (cz_porep_challenges), the columns are their
 * graph parents', and they share one tree-R and one tree-C root. Counts,
 * arities and layers follow the kind; each Merkle path's indices spell its
 * challenge (tree D and R-last: the challenge, tree C: the column's index);
 * labeling layers are 1..layers, nodes the challenge; comm_d, comm_r and
 * seed are non-zero. For JSON tests and production-size benchmarks. c1 is
 * allocated as cz_porep_c1_alloc does. CZ_ERR_NOMEM. */
CZ_MUST_CHECK cz_err cz_porep_c1_synthetic(cz_porep_c1 *c1, const cz_registered_porep *registered,
                                           uint64_t seed);

/* ---- Sealing test sectors (porep_seal.c), the vanilla verifier (porep_verify.c) */

typedef struct {
  const cz_registered_porep *registered;
  uint64_t sector_id;
  uint8_t prover_id[32], ticket[32], seed[32];
  /* sector_size bytes of fr32-padded data (each 32-byte chunk < r), or NULL
   * for the deterministic default data. */
  const uint8_t *data;
  /* NULL, or where sealing reports phase "seal" in "nodes": tree D, each
   * SDR layer, tree C and the replica with tree R-last count sector nodes
   * each, then one per challenge proved (the layers are serial: they are
   * most of the time). Reported from the sealing threads. */
  const cz_progress *progress;
} cz_porep_seal_input;

/* Seal a sector: tree D over the data (comm_d), replica_id, the SDR layers,
 * tree C over the column hashes, the encoded replica and tree R-last
 * (comm_r = Poseidon(comm_c, comm_r_last)), then the vanilla proofs of
 * every partition's interactive challenges. n_threads 0 = all cores.
 * Errors: CZ_ERR_INVALID_ARG (bad data chunk, unsupported registered proof, over
 * 512 MiB: see cz_porep_seal_config), CZ_ERR_NOMEM; msg names the cause.
 * The caller frees *out with cz_porep_c1_free. */
CZ_MUST_CHECK cz_err cz_porep_seal(const cz_porep_seal_input *in, cz_porep_c1 *out,
                                   unsigned n_threads, char *msg, size_t msg_len);

/* The deterministic default data of a sector (sector_size bytes into out):
 * fr32-valid, different per chunk. */
void cz_porep_default_data(uint8_t *out, uint64_t sector_size);

/* Verify the vanilla proofs natively, as storage-proofs-porep's
 * StackedDrg::verify_all_partitions does: challenges derived from
 * replica_id and seed; per challenge the tree D, R-last and C inclusions
 * under comm_d / comm_r_last / comm_c, the comm_r relation, the parents'
 * indices, the labels recomputed from their parents, the encoding. CZ_OK or
 * CZ_ERR_PROOF_INVALID with msg naming the first failure (partition,
 * challenge, what). */
CZ_MUST_CHECK cz_err cz_porep_vanilla_verify(const cz_porep_c1 *c1, char *msg, size_t msg_len);

/* cz_porep_seal and cz_porep_vanilla_verify under an explicit configuration
 * in place of the registered proof's (cz_registered_porep_config): its porep_id and API
 * version drive replica_id, the graph and the challenges. This is for
 * sectors sealed outside the registered proofs, such as the polka-storage
 * vector (porep_id zero with 1.1.0/1.2.0 graph semantics). cfg's
 * sector_size, challenges and partitions must equal the registered proof's
 * (CZ_ERR_INVALID_ARG otherwise); cfg NULL means the registered proof's own. Both
 * verifiers return CZ_ERR_INVALID_ARG, not PROOF_INVALID, for a NULL c1,
 * registered proof or proofs array and for a registered proof whose shape they cannot handle.
 * Sealing works in memory and refuses sectors over 512 MiB. */
CZ_MUST_CHECK cz_err cz_porep_seal_config(const cz_porep_seal_input *in, const cz_porep_config *cfg,
                                          cz_porep_c1 *out, unsigned n_threads, char *msg,
                                          size_t msg_len);
CZ_MUST_CHECK cz_err cz_porep_vanilla_verify_config(const cz_porep_c1 *c1,
                                                    const cz_porep_config *cfg, char *msg,
                                                    size_t msg_len);

/* A TEST INPUT, not a sealed sector (porep_sparse.c): the C1 of a
 * committed-capacity sector (all-zero data) of any registered size, 2 KiB
 * to 64 GiB, made without sealing it. comm_d is the all-zero-data root;
 * replica_id and the interactive challenges follow as in sealing. Only the
 * challenged nodes and their parents are labelled (pseudo-random labels,
 * the challenged nodes' by the SDR rule from their parents); every other
 * node's label is zero, and trees C and R-last are sparse trees over
 * those. The vanilla proofs verify (cz_porep_vanilla_verify) and the
 * circuit is satisfied, but no replica of the sector exists. Time and
 * memory grow with the challenges (a few thousand nodes) times the tree
 * depth, not with the sector: seconds of Poseidon hashing and a few MB beside the C1
 * (175 KiB per challenge) at 32 GiB. in->data must be NULL and
 * in->progress is not used; cfg as cz_porep_seal_config's, whose rule must
 * be interactive (the synthetic and NI challenges depend on comm_r). On
 * success *n_touched (when not NULL) is the number of labelled nodes.
 * Errors: CZ_ERR_INVALID_ARG (data given, a non-interactive rule, an
 * unsupported registered proof), CZ_ERR_NOMEM; msg names the cause. The caller frees
 * *out with cz_porep_c1_free. */
CZ_MUST_CHECK cz_err cz_porep_seal_sparse(const cz_porep_seal_input *in, const cz_porep_config *cfg,
                                          cz_porep_c1 *out, size_t *n_touched, char *msg,
                                          size_t msg_len);

/* What a PoSt over a sealed sector needs, as filecoin-proofs'
 * PrivateReplicaInfo holds it (the replica's tree R-last from the cache
 * directory, comm_c and comm_r_last from its persistent aux). */
typedef struct {
  cz_merkle_tree tree_r_last; /* the registered proof's tree_r shape over its nodes */
  cz_fr comm_c;               /* tree C's root */
  cz_fr comm_r_last;          /* tree_r_last.root */
  uint8_t comm_r[32];         /* Poseidon-2(comm_c, comm_r_last), as the C1's comm_r */
} cz_porep_replica;

/* cz_porep_seal_config that also hands back the sector's replica: with
 * replica NULL it is exactly cz_porep_seal_config. Otherwise, on success,
 * *replica owns tree R-last (which sealing would have freed; about
 * 1.15 x 32 bytes per node for an 8-ary tree: 9.6 MB at 8 MiB) and the
 * caller releases it with cz_porep_replica_free; on error *replica is
 * zeroed and owns nothing. Errors as cz_porep_seal_config. */
CZ_MUST_CHECK cz_err cz_porep_seal_replica(const cz_porep_seal_input *in,
                                           const cz_porep_config *cfg, cz_porep_c1 *out,
                                           cz_porep_replica *replica, unsigned n_threads, char *msg,
                                           size_t msg_len);
/* Release what r owns and zero it; idempotent on a zeroed value. */
void cz_porep_replica_free(cz_porep_replica *r);

/* ---- The StackedDRG circuit (porep_circuit.c) ---------------------------- */

/* StackedCircuit::synthesize for one partition, allocation for allocation
 * as rust-fil-proofs builds it (replica_id, comm_d, comm_r inputs; comm_r_last,
 * comm_c; the comm_r check; per challenge "challenge_<i>": tree-D
 * inclusion, the 14 parent columns, the challenge, the labels of every
 * layer, the encoding, tree-R and tree-C inclusions). c1 supplies the
 * witness and may be NULL when !cz_cs_needs_values(cs) (keygen, recording);
 * then shape alone decides the circuit. With c1, shape must be
 * c1->registered->shape and partition < c1->n_partitions. Errors:
 * CZ_ERR_INVALID_ARG (NULL cs, shape/partition mismatch; not sticky),
 * CZ_ERR_NOMEM, or the cs's error. */
CZ_MUST_CHECK cz_err cz_porep_circuit(cz_cs *cs, const cz_porep_shape *shape, const cz_porep_c1 *c1,
                                      uint32_t partition);

/* The same circuit as a finished PROVE or WITNESS run of partition
 * `partition` of c1 would give it, its challenges synthesized on n_threads
 * (0 = all cores; at most one thread per challenge) and merged in order
 * (cz_slots_synthesize): bit for bit the serial run's, for any budget. cfg:
 * the LC layout (NULL: default). Errors name the field or the challenge
 * ("vanilla_proofs[0][3].comm_r_last_proof root differs from challenge
 * 0's", "slot 2: ..."): CZ_ERR_INVALID_ARG, CZ_ERR_NONCANONICAL,
 * CZ_ERR_NOMEM; *out is zeroed then. */
CZ_MUST_CHECK cz_err cz_porep_witness(cz_cs_mode mode, const cz_porep_c1 *c1, uint32_t partition,
                                      const cz_cs_config *cfg, unsigned n_threads,
                                      cz_assignment *out, char *msg, size_t msg_len);

/* The public inputs (ONE excluded) of partition `partition` of c1, as
 * cz_porep_public_inputs orders them, from c1's replica_id, seed, comm_d
 * and comm_r. *n: capacity in, count out (as cz_porep_public_inputs). */
CZ_MUST_CHECK cz_err cz_porep_c1_public_inputs(const cz_porep_c1 *c1, uint32_t partition,
                                               cz_fr *out, size_t *n);

/* The same under an explicit configuration in place of the registered proof's, as
 * cz_porep_seal_config takes one (e.g. the polka-storage vector's porep_id
 * zero with API 1.1.0): its porep_id and API version derive the graph.
 * cfg NULL means the registered proof's own; cfg's sector_size, challenges and
 * partitions must equal the registered proof's (CZ_ERR_INVALID_ARG otherwise). */
CZ_MUST_CHECK cz_err cz_porep_c1_public_inputs_config(const cz_porep_c1 *c1,
                                                      const cz_porep_config *cfg,
                                                      uint32_t partition, cz_fr *out, size_t *n);

/* ---- Keys ---------------------------------------------------------------- */

/* A cz_params_keygen_fn for the StackedDRG circuit: ctx is the
 * const cz_registered_porep *; fills *out with the KEYGEN columns of its circuit
 * (the caller frees them with cz_keygen_cols_free). */
CZ_MUST_CHECK cz_err cz_porep_keygen(void *ctx, cz_keygen_cols *out, char *msg, size_t msg_len);
/* A cz_params_shape_fn for the same circuit (same ctx): synthesizes it
 * without a witness into cs, unfinished (the streaming setup evaluates it
 * at tau instead of keeping its columns). */
CZ_MUST_CHECK cz_err cz_porep_keygen_shape(void *ctx, cz_cs *cs);

/* Part of the test-parameter file name (cz_params_store_opts.test_tag):
 * bumped whenever the circuit changes, so stale test parameters are never
 * reused. Official parameters are named by Filecoin's identifier alone. */
#define CZ_POREP_CIRCUIT_REVISION "porep-r1"

/* ---- C2: C1 -> proofs (porep_c2.c) ---------------------------------------- */

/* Prove every partition of c1 with pc (pc->params: the circuit of
 * c1->registered): the vanilla proofs are verified natively first (a bad C1 never
 * reaches synthesis), each partition is synthesized on pc->n_threads (PROVE
 * cs, reported as the synthesis phase through pc->timing) and proved, and
 * every proof is verified against pc->pvk (NULL: prepared here) with the
 * public inputs of cz_porep_c1_public_inputs before it is returned. out
 * receives n_partitions * 192 bytes, partition after partition; r and s
 * are random. Errors: CZ_ERR_PROOF_INVALID (vanilla proofs, or a made proof that does
 * not verify: msg says which),
 * CZ_ERR_INVALID_ARG (a NULL argument, params do not fit the circuit), the
 * synthesis or prover errors; msg names the cause. On error the partitions
 * before the failing one are already in out. */
CZ_MUST_CHECK cz_err cz_porep_c2(const cz_porep_c1 *c1, const cz_prove_ctx *pc, uint8_t *out,
                                 char *msg, size_t msg_len);

/* The steps of cz_porep_c2, for pipelines that overlap them (the daemon):
 * synthesize partition p into *as (cz_porep_witness, PROVE, its challenges
 * on n_threads, 0 = all cores; its public inputs are checked against
 * cz_porep_c1_public_inputs, CZ_ERR_INVALID_ARG on a mismatch),
 * then prove it with pc into out (192 bytes) and verify the proof with
 * pc->pvk (NULL: prepared here) before returning; as is consumed either way.
 * A p that is not one of c1's partitions is CZ_ERR_INVALID_ARG.
 * The caller verifies the vanilla proofs first (cz_porep_vanilla_verify).
 * synthesize: on success the caller owns *as (cz_assignment_free); on error
 * there is nothing to free, but *as may not have been written at all (do
 * not cz_assignment_free it unless you zeroed it first). */
CZ_MUST_CHECK cz_err cz_porep_synthesize(const cz_porep_c1 *c1, size_t p, unsigned n_threads,
                                         cz_assignment *as, char *msg, size_t msg_len);
CZ_MUST_CHECK cz_err cz_porep_groth16_prove(const cz_porep_c1 *c1, size_t p, cz_assignment *as,
                                            const cz_prove_ctx *pc, uint8_t out[192], char *msg,
                                            size_t msg_len);

/* Pre-compiled synthesis (cuzk's PCE, cs.h's cz_pce). cz_porep_record_shape
 * records registered proof k's circuit once (RECORD cs; about a plain synthesis' time;
 * 2 KiB: 117 MiB, cz_pce_get_info says exactly). The shape is immutable and
 * may be shared by threads. */
CZ_MUST_CHECK cz_err cz_porep_record_shape(const cz_registered_porep *k, cz_pce **out, char *msg,
                                           size_t msg_len);
/* cz_porep_synthesize through a shape recorded from c1->registered: a WITNESS
 * run and cz_pce_eval, both on n_threads (0 = all cores); the assignment is bit
 * for bit the plain one's. shape NULL: the plain path. A shape of another
 * size fails (CZ_ERR_INVALID_ARG); one of another circuit with the same
 * counts would make proofs that fail cz_porep_c2's verification. */
CZ_MUST_CHECK cz_err cz_porep_synthesize_pce(const cz_porep_c1 *c1, size_t p, const cz_pce *shape,
                                             unsigned n_threads, cz_assignment *as, char *msg,
                                             size_t msg_len);
/* cz_porep_c2 synthesizing through shape (NULL: plain, as cz_porep_c2). */
CZ_MUST_CHECK cz_err cz_porep_c2_pce(const cz_porep_c1 *c1, const cz_prove_ctx *pc,
                                     const cz_pce *shape, uint8_t *out, char *msg, size_t msg_len);
/* The same for partitions [first, first + count) only, their proofs at
 * out[0 .. 192 count) (one 32 GiB partition is minutes on a few cores:
 * a benchmark proves one). CZ_ERR_INVALID_ARG for a range past the C1's
 * partitions. */
CZ_MUST_CHECK cz_err cz_porep_c2_partitions(const cz_porep_c1 *c1, const cz_prove_ctx *pc,
                                            const cz_pce *shape, uint32_t first, uint32_t count,
                                            uint8_t *out, char *msg, size_t msg_len);

/* ---- Parameters (porep_params.c) ----------------------------------------- */

/* cz_params_store_get for the StackedDRG circuit of registered proof k: name from
 * cz_porep_param_name, n_ic from cz_porep_public_input_count + 1. */
CZ_MUST_CHECK cz_err cz_porep_params_get(cz_groth16_params *out, const cz_registered_porep *k,
                                         const cz_params_store_opts *o, cz_params_origin *origin,
                                         char *msg, size_t msg_len);

#endif
