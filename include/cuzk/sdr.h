/* Layer: filecoin */
/* Filecoin StackedDRG (SDR) primitives, native, as rust-fil-proofs computes
 * them: the BucketGraph DRG parents (storage-proofs-core drgraph.rs), the
 * Feistel expander parents (storage-proofs-porep stacked/vanilla/graph.rs,
 * storage-proofs-core crypto/feistel.rs), porep_id, replica_id, interactive
 * challenges, labels (create_label/single.rs), the encoding and the public
 * inputs of one PoRep partition (StackedCompound::generate_public_inputs).
 *
 * Nodes are 32 bytes; labels, replica ids and commitments are little-endian
 * Fr bytes. Layers are numbered from 1. Sources: src/filecoin/sdr/ (sdr.c,
 * sdr_graph.c, sdr_label_gadget.c, sdr_gadgets.c). Nothing here keeps
 * state: any thread (the gadgets on their own cs). Node indices passed to
 * the graph functions are not range-checked. */
#ifndef CUZK_SDR_H
#define CUZK_SDR_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/err.h"
#include "cuzk/fr.h"
#include "cuzk/gadgets.h"

#define CZ_SDR_NODE_BYTES 32
#define CZ_SDR_BASE_DEGREE 6
#define CZ_SDR_EXP_DEGREE 8
#define CZ_SDR_DEGREE (CZ_SDR_BASE_DEGREE + CZ_SDR_EXP_DEGREE)
/* Public inputs per challenge: tree-D index, 6 DRG + 8 expander parents,
 * the challenge, the tree-R and tree-C indices. */
#define CZ_SDR_INPUTS_PER_CHALLENGE 18

/* ApiVersion: 1.0.0 puts the immediate predecessor last among the DRG parents
 * and truncates Feistel outputs to u32 before dividing by 8; 1.1.0 and 1.2.0
 * put the predecessor first and divide in 64 bits. */
typedef enum { CZ_API_1_0_0 = 0, CZ_API_1_1_0 = 1, CZ_API_1_2_0 = 2 } cz_api_version;

typedef struct {
  uint64_t nodes; /* sector size / 32 */
  cz_api_version api;
  uint8_t drg_seed[28];     /* SHA-256("Filecoin_DRSample" | porep_id)[0..28] */
  uint64_t feistel_keys[4]; /* SHA-256("Filecoin_Feistel" | porep_id) as 4 u64 LE */
  uint64_t feistel_left_mask, feistel_right_mask, feistel_half_bits;
} cz_sdr_graph;

/* Builds the stacked graph for `nodes` nodes (2 <= nodes <= 2^32 - 1, as
 * rust-fil-proofs requires nodes <= u32::MAX). CZ_ERR_INVALID_ARG otherwise or
 * for an unknown api. */
CZ_MUST_CHECK cz_err cz_sdr_graph_init(cz_sdr_graph *g, uint64_t nodes, const uint8_t porep_id[32],
                                       cz_api_version api);

/* The 6 DRG parents of node (< g->nodes), in rust-fil-proofs' order (nodes 0
 * and 1: all zero). Parents may repeat. */
void cz_sdr_drg_parents(const cz_sdr_graph *g, uint32_t node, uint32_t out[CZ_SDR_BASE_DEGREE]);
/* The 8 expander parents of node (< g->nodes). */
void cz_sdr_exp_parents(const cz_sdr_graph *g, uint32_t node, uint32_t out[CZ_SDR_EXP_DEGREE]);
/* Both, DRG first: the layout of rust-fil-proofs' parent cache entry. In a
 * layer L > 1, the DRG parents name labels of layer L and the expander parents
 * labels of layer L - 1; layer 1 uses only the DRG parents. */
void cz_sdr_parents(const cz_sdr_graph *g, uint32_t node, uint32_t out[CZ_SDR_DEGREE]);

/* The parents of nodes first .. first+count-1 (all < g->nodes), 14 per node
 * as cz_sdr_parents lays them out: the rows of rust-fil-proofs' parent cache
 * (stacked/vanilla/cache.rs, which stores them as u32 little-endian). */
void cz_sdr_parents_range(const cz_sdr_graph *g, uint32_t first, uint32_t count, uint32_t *out);

/* porep_id of a registered seal proof: id as u64 LE, nonce as u64 LE, then 16
 * zero bytes (filecoin-proofs-api RegisteredSealProof::porep_id; the nonce is
 * 0 for every registered proof so far). */
void cz_porep_id(uint8_t out[32], uint64_t registered_proof_id, uint64_t nonce);

/* replica_id = SHA-256(prover_id | sector_id u64 BE | ticket | comm_d |
 * porep_id), trimmed to 254 bits (stacked/vanilla/params.rs generate_replica_id). */
void cz_sdr_replica_id(uint8_t out[32], const uint8_t prover_id[32], uint64_t sector_id,
                       const uint8_t ticket[32], const uint8_t comm_d[32],
                       const uint8_t porep_id[32]);

/* The interactive challenges of partition k: for i < count, j = count*k + i,
 * challenge = LE(SHA-256(replica_id | seed | j as u32 LE)) mod (nodes - 1) + 1
 * (stacked/vanilla/challenges.rs InteractiveChallenges::derive).
 * nodes >= 2. */
void cz_sdr_challenges(uint64_t *out, size_t count, uint64_t nodes, const uint8_t replica_id[32],
                       const uint8_t seed[32], uint32_t k);

/* The NI-PoRep challenges of partition k (FIP-0092; NiChallenges::derive):
 * j = count*k + i, challenge = LE(SHA-256("filecoin.io|PoRep|1|
 * NonInteractive|1" | replica_id | comm_r | j as u32 LE)) mod (nodes - 1)
 * + 1. No seed. nodes >= 2. */
void cz_sdr_ni_challenges(uint64_t *out, size_t count, uint64_t nodes, const uint8_t replica_id[32],
                          const uint8_t comm_r[32], uint32_t k);

/* Synthetic PoRep (challenges.rs SynthChallengeGenerator). The sector has
 * min(nodes, 2^18) synthetic challenges, fixed at sealing by replica_id
 * and comm_r: synthetic challenge s = LE(bytes [32 s, 32 s + 32) of the
 * ChaCha20 keystream, nonce "synth-porep\0", key BLAKE2b-256 keyed
 * "filecoin.io|PoRep|1|Synthetic|1|Generation" of replica_id | comm_r))
 * mod (nodes - 1) + 1. The seed then selects partition k's challenges:
 * index_i = LE u32 of bytes [4 j, 4 j + 4), j = count*k + i, of the
 * keystream keyed BLAKE2b-256 "filecoin.io|PoRep|1|Synthetic|1|Selection"
 * of replica_id | seed, mod the synthetic count; challenge_i = synthetic
 * challenge index_i. nodes >= 2. */
uint32_t cz_sdr_synth_count(uint64_t nodes);
void cz_sdr_synth_indexes(uint32_t *out, size_t count, uint64_t nodes, const uint8_t replica_id[32],
                          const uint8_t seed[32], uint32_t k);
void cz_sdr_synth_challenges(uint64_t *out, size_t count, uint64_t nodes,
                             const uint8_t replica_id[32], const uint8_t comm_r[32],
                             const uint8_t seed[32], uint32_t k);

/* One label from its parents' labels: SHA-256(replica_id | layer u32 BE |
 * node u64 BE | 20 zero bytes | P) trimmed to 254 bits, where P is the
 * n_parents labels repeated cyclically to 37 labels (n_parents = 6 in layer 1,
 * 14 after, DRG parents first); node 0 hashes no parents (n_parents = 0). */
CZ_MUST_CHECK cz_err cz_sdr_label_from_parents(uint8_t out[32], const uint8_t replica_id[32],
                                               uint32_t layer, uint64_t node,
                                               const uint8_t (*parent_labels)[32],
                                               size_t n_parents);

/* Label of `node` in `layer`: cur holds the labels of this layer for nodes
 * < node (at least; may be NULL for node 0), prev the whole previous layer
 * (ignored, may be NULL, for layer 1). CZ_ERR_INVALID_ARG for layer 0,
 * node >= nodes or a missing cur / prev. */
CZ_MUST_CHECK cz_err cz_sdr_label(uint8_t out[32], const cz_sdr_graph *g,
                                  const uint8_t replica_id[32], uint32_t layer, uint32_t node,
                                  const uint8_t *cur, const uint8_t *prev);

/* All labels of one layer into cur (nodes * 32 bytes), prev as for
 * cz_sdr_label; one thread, node by node (each label needs the previous
 * ones). On error cur is partly written. */
CZ_MUST_CHECK cz_err cz_sdr_label_layer(const cz_sdr_graph *g, const uint8_t replica_id[32],
                                        uint32_t layer, uint8_t *cur, const uint8_t *prev);

/* The label as a gadget: storage-proofs-porep stacked/circuit/create_label.rs
 * create_label_circuit, constraint for constraint. The SHA-256 message is
 * replica_id (id_bits Booleans, 32..256, zero-padded to 256), layer (its 32
 * bits big-endian), node (node_le: 64 bits LSB first, UInt64's order, put
 * big-endian), zero padding to 512 bits, then each of the 37 parents
 * (parent_bits[i] Booleans, 1..256, zero-padded to 256). All bits are in
 * message order (MSB first per byte). SHA-256 runs in namespace "hash"; the
 * digest's bits, renumbered LSB first per byte, are packed (first 254) into
 * *out in namespace "result_num". Pushes no namespace of its own: callers
 * push the one rust-fil-proofs gives ("create_label").
 * CZ_ERR_INVALID_ARG (not sticky, nothing done) for lengths outside those
 * ranges or a NULL parent; CZ_ERR_NOMEM (not sticky) for its message
 * bits (about 120 KiB). Otherwise the sticky error of cs. */
#define CZ_SDR_LABEL_PARENTS 37
CZ_MUST_CHECK cz_err cz_sdr_label_gadget(cz_cs *cs, cz_anum *out, const cz_bool *replica_id,
                                         size_t id_bits,
                                         const cz_bool *const parents[CZ_SDR_LABEL_PARENTS],
                                         const size_t parent_bits[CZ_SDR_LABEL_PARENTS],
                                         const cz_u32 *layer, const cz_bool node_le[64]);

/* The encoding: out = key + data in Fr (both little-endian canonical bytes;
 * CZ_ERR_NONCANONICAL otherwise). */
CZ_MUST_CHECK cz_err cz_sdr_encode(uint8_t out[32], const uint8_t key[32], const uint8_t data[32]);
/* The decoding: out = replica - key in Fr. */
CZ_MUST_CHECK cz_err cz_sdr_decode(uint8_t out[32], const uint8_t key[32],
                                   const uint8_t replica[32]);

/* The column hash of tree C: Poseidon over the node's labels in every layer
 * (stacked/vanilla/hash.rs hash_single_column), only for 2 or 11 layers
 * (arities 2 and 11, the Merkle-tree domain tag); CZ_ERR_INVALID_ARG
 * otherwise (out untouched). */
CZ_MUST_CHECK cz_err cz_sdr_column_hash(cz_fr *out, const cz_fr *column, size_t layers);
/* comm_r = Poseidon-2(comm_c, comm_r_last) (PoseidonFunction::hash2, as
 * stacked/vanilla/proof.rs builds it); little-endian Fr bytes,
 * CZ_ERR_NONCANONICAL for an input >= r. */
CZ_MUST_CHECK cz_err cz_sdr_comm_r(uint8_t out[32], const uint8_t comm_c[32],
                                   const uint8_t comm_r_last[32]);

/* What the public inputs of a PoRep partition depend on. challenges is the
 * number per partition (2 for 2 KiB/8 MiB/512 MiB; 18 for 32/64 GiB with 10
 * partitions in the official configurations: filecoin-proofs' minimum of
 * 176 challenges, div_ceil(176, 10) per partition). */
/* How a seal's challenges are drawn (challenges.rs): from the seed
 * (interactive), from the synthetic set by the seed (SyntheticPoRep), or
 * from comm_r alone (NonInteractivePoRep). */
typedef enum { CZ_POREP_INTERACTIVE = 0, CZ_POREP_SYNTHETIC, CZ_POREP_NI } cz_porep_rule;

typedef struct {
  uint64_t sector_size; /* bytes, a multiple of 32 */
  uint8_t porep_id[32];
  cz_api_version api;
  uint32_t challenges; /* per partition */
  uint32_t partitions;
  cz_porep_rule rule; /* zero: interactive */
} cz_porep_config;

/* Partition k's cfg->challenges challenges under cfg->rule (the
 * cz_sdr_*challenges above; comm_r is unused when interactive, seed when
 * NI). */
void cz_porep_challenges(uint64_t *out, const cz_porep_config *cfg, const uint8_t replica_id[32],
                         const uint8_t comm_r[32], const uint8_t seed[32], uint32_t k);

/* 3 + 18 * cfg->challenges. */
size_t cz_porep_public_input_count(const cz_porep_config *cfg);

/* A sealed sector's public side: the ids and ticket its replica id is
 * derived from, the interactive seed, comm_d and comm_r (32 bytes each;
 * only read). */
typedef struct {
  uint64_t sector_id;
  const uint8_t *prover_id, *ticket, *seed, *comm_d, *comm_r;
} cz_porep_sealed;

/* The public inputs (ONE excluded) of partition `partition` of an interactive
 * StackedDRG PoRep, as StackedCompound::generate_public_inputs orders them:
 * replica_id, comm_d, comm_r, then per challenge c: c (tree-D path), its 6 DRG
 * parents, its 8 expander parents, c, c (tree-R and tree-C paths). An index
 * input is the multipacked path bits, i.e. the index itself as an Fr.
 * *n: capacity of out on entry, inputs written on return. Errors:
 * CZ_ERR_INVALID_ARG (bad config, partition >= partitions, capacity too
 * small: then *n is set to the count needed), CZ_ERR_NONCANONICAL (comm_d or
 * comm_r not a canonical Fr), CZ_ERR_NOMEM. On error out is partly
 * written. */
CZ_MUST_CHECK cz_err cz_porep_public_inputs(const cz_porep_config *cfg, const cz_porep_sealed *s,
                                            uint32_t partition, cz_fr *out, size_t *n);

/* The same from replica_id itself (what a C1 carries) in place of the
 * sector id, prover id and ticket it is derived from; the same errors, and
 * CZ_ERR_NONCANONICAL also for a replica_id >= r. */
CZ_MUST_CHECK cz_err cz_porep_public_inputs_replica(
    const cz_porep_config *cfg, const uint8_t replica_id[32], const uint8_t seed[32],
    const uint8_t comm_d[32], const uint8_t comm_r[32], uint32_t partition, cz_fr *out, size_t *n);

/* ---- The SDR gadgets besides the label (src/filecoin/sdr/sdr_gadgets.c) - */

/* storage-proofs-core gadgets/encode.rs encode: constraint::add(key, data)
 * in namespace "encode_add" (out = key + data, 1 variable, 1 constraint);
 * StackedCircuit's callers push "encode_node". Value: cz_sdr_encode's. */
CZ_MUST_CHECK cz_err cz_sdr_encode_gadget(cz_cs *cs, cz_anum *out, const cz_anum *key,
                                          const cz_anum *data);
/* encode.rs decode: constraint::sub(replica, key) in "decode_sub"
 * (out = replica - key, 1 variable, 1 constraint). */
CZ_MUST_CHECK cz_err cz_sdr_decode_gadget(cz_cs *cs, cz_anum *out, const cz_anum *key,
                                          const cz_anum *replica);
/* stacked/circuit/hash.rs hash_single_column: neptune's poseidon_hash of
 * arity `layers` (2 or 11; 311 or 598 constraints) over the column, in the
 * caller's namespace (column.rs pushes none of its own). CZ_ERR_INVALID_ARG
 * (nothing done) for another length. Value: cz_sdr_column_hash's. */
CZ_MUST_CHECK cz_err cz_sdr_column_hash_gadget(cz_cs *cs, cz_anum *out, const cz_anum *column,
                                               size_t layers);
/* The comm_r check of StackedCircuit::synthesize (stacked/circuit/proof.rs):
 * PoseidonFunction::hash2_circuit(comm_c, comm_r_last) in namespace
 * "H_comm_c_comm_r_last", then constraint::equal "enforce comm_r =
 * H(comm_c || comm_r_last)" against comm_r: 312 constraints, satisfied iff
 * comm_r == cz_sdr_comm_r(comm_c, comm_r_last). */
CZ_MUST_CHECK cz_err cz_sdr_comm_r_gadget(cz_cs *cs, const cz_anum *comm_r, const cz_anum *comm_c,
                                          const cz_anum *comm_r_last);

#endif
