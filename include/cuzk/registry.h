/* Layer: filecoin */
/* The registered proofs of every Filecoin proof kind and their v28
 * parameter names (src/filecoin/registry/). Each family's tables live
 * here, so that the daemon, the bench tool and the circuits agree on what
 * a registered_proof number means. The tables are static and read-only:
 * every function here is pure and may be called from any thread. */
#ifndef CUZK_REGISTRY_H
#define CUZK_REGISTRY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/merkle.h"
#include "cuzk/sdr.h"

#define CZ_POREP_MAX_LAYERS 11

/* "v28-<prefix>-<hex SHA-256 of identifier[0..id_len)>", the base name of a
 * parameter file (storage-proofs-core parameter_cache.rs; append ".params"
 * or ".vk"). Returns the length; writes at most cap bytes incl. the NUL.
 * Pure; any thread. */
size_t cz_param_name_v28(const char *prefix, const char *identifier, size_t id_len, char *out,
                         size_t cap);

/* prover_id of a miner: its actor id as unsigned LEB128, zero-padded to 32
 * bytes (what Lotus and Curio pass as ProverId, for seals and PoSts). */
void cz_prover_id_of_miner(uint8_t out[32], uint64_t miner_id);

/* ---- Registered seal proofs (registry/registered_porep.c) ---------------------- */

/* What the circuit's shape depends on (not porep_id, not the API version). */
typedef struct {
  uint64_t nodes;         /* sector size / 32 */
  uint32_t layers;        /* SDR layers (2 for small sectors, 11 for 32/64 GiB) */
  uint32_t challenges;    /* interactive challenges per partition */
  cz_merkle_shape tree_r; /* shape of tree C and tree R-last (Poseidon) */
} cz_porep_shape;

typedef struct {
  uint32_t id;             /* registered_proof number: 0-4 V1, 5-9 V1_1,
                              10-14 V1_1 SyntheticPoRep, 15-19 V1_2 NI */
  const char *name;        /* "StackedDrg2KiBV1_1" (the C1 JSON string) */
  const char *vanilla_tag; /* "StackedDrg2KiBV1": the vanilla_proofs key */
  const char *size_name;   /* "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" */
  uint64_t sector_size;    /* bytes */
  uint32_t partitions;
  cz_porep_shape shape;
  cz_api_version api; /* V1: 1.0.0, V1_1: 1.1.0, the features: 1.2.0 */
  cz_porep_rule rule; /* how its challenges are drawn */
} cz_registered_porep;

#define CZ_REGISTERED_POREP_COUNT 20

/* The twenty registered seal proofs (static storage); NULL when unknown or
 * name is NULL. Kinds of one size share the circuit and the parameter
 * file: the identifier hashes only the challenges per partition. */
const cz_registered_porep *cz_registered_porep_by_id(uint32_t id);
const cz_registered_porep *cz_registered_porep_by_name(const char *name);
/* The interactive registered proof of a sector size in bytes (2048, 8 MiB, 512 MiB,
 * 32 GiB, 64 GiB), V1_1 when v1_1 else V1; NULL when no official size
 * matches. */
const cz_registered_porep *cz_registered_porep_by_sector_size(uint64_t sector_size, bool v1_1);
/* The public-input configuration of registered proof k (porep_id from its id, nonce 0,
 * its API version, challenge rule and partitions). */
void cz_registered_porep_config(const cz_registered_porep *k, cz_porep_config *cfg);

/* ---- PoRep parameter names (registry/param_name.c) ----------------------- */

/* The official parameter base name of registered proof k, as rust-fil-proofs' parameter
 * cache names it: "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-
 * 8-0-0-sha256_hasher-<sha256 hex of the public params identifier>" (append
 * ".params" / ".vk"). Returns the length; writes at most cap bytes incl. NUL. */
size_t cz_porep_param_name(const cz_registered_porep *k, char *out, size_t cap);

/* The strings that name is derived from (storage-proofs-porep
 * PublicParams::identifier over StackedGraph / BucketGraph identifiers), for
 * logs and tests: returns the length, writes at most cap bytes incl. NUL. */
size_t cz_porep_param_identifier(const cz_registered_porep *k, char *out, size_t cap);

/* ---- Registered PoSt proofs (registry/registered_post.c) ------------------------------- */

typedef enum { CZ_POST_WINNING = 0, CZ_POST_WINDOW = 1 } cz_post_type;

/* One registered PoSt proof, numbered as filecoin-ffi (and the Go actors)
 * number RegisteredPoStProof:
 *   0-4   StackedDrgWinning{2KiB,8MiB,512MiB,32GiB,64GiB}V1, ApiVersion 1.0.0
 *   5-9   StackedDrgWindow{...}V1,   ApiVersion 1.0.0
 *   10-14 StackedDrgWindow{...}V1_1, ApiVersion 1.2.0: filecoin-proofs-api
 *         calls these StackedDrgWindow*V1_2 (filecoin-ffi
 *         rust/src/proofs/types.rs maps V1_1 <-> V1_2).
 *
 * Two pairs of counts. config_*: filecoin-proofs' PoStConfig, the view of
 * the vanilla proofs (Winning: 66 challenges in 1 sector; Window: 10
 * challenges per sector, 2 / 2349 / 2300 sectors). challenge_count and
 * sector_count: fallback::PublicParams, the circuit's view. For Window they
 * are the config's. For Winning, parameters.rs winning_post_setup_params
 * swaps them ("parameter swap"): the circuit has 66 sector slots of 1
 * challenge each, all slots holding the one challenged sector, slot i
 * taking challenge n = 0 with sector_index i. The parameter identifier (and
 * so the parameter file) is over the swapped counts. */
typedef struct {
  uint32_t id;      /* RegisteredPoStProof number, 0-14 */
  const char *name; /* "StackedDrgWinning2KiBV1", "StackedDrgWindow32GiBV1_1" */
  cz_post_type type;
  const char *size_name;  /* "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" */
  uint64_t sector_size;   /* bytes; the tree has sector_size / 32 leaves */
  cz_merkle_shape tree_r; /* Poseidon 8-0-0 (2KiB..512MiB), 8-8-0 (32GiB), 8-8-2 (64GiB) */
  cz_api_version api;
  uint32_t config_challenge_count; /* PoStConfig: 66 Winning, 10 Window */
  uint32_t config_sector_count;    /* PoStConfig: 1 Winning, 2 / 2349 / 2300 Window */
  uint32_t challenge_count;        /* PublicParams: challenges per sector slot (1 Winning) */
  uint32_t sector_count;           /* PublicParams: sector slots per partition (66 Winning) */
} cz_registered_post;

#define CZ_REGISTERED_POST_COUNT 15

/* The registered proof numbered id, or NULL when unknown (id >= 15). */
const cz_registered_post *cz_registered_post_by_id(uint32_t id);
/* By filecoin-ffi name ("StackedDrgWindow32GiBV1_1"); NULL when unknown. */
const cz_registered_post *cz_registered_post_by_name(const char *name);

/* The parameter identifier of k's circuit, exactly as rust-fil-proofs
 * formats fallback::PublicParams::identifier (ParameterSetMetadata):
 * "FallbackPoSt::PublicParams{sector_size: 2048, challenge_count: 1,
 * sector_count: 66}". Returns its length; writes at most cap bytes including
 * the NUL (snprintf's contract: a return >= cap means truncated). */
size_t cz_post_param_identifier(const cz_registered_post *k, char *out, size_t cap);
/* The official parameter base name (storage-proofs-core parameter_cache.rs
 * with FallbackPoStCompound::cache_prefix):
 * "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-<base>-<sub>-
 * <top>-<hex SHA-256 of the identifier>"; append ".params" / ".vk". The API
 * version does not enter it: Window V1 and V1_1 share parameters. Returns
 * the length as cz_post_param_identifier does. */
size_t cz_post_param_name(const cz_registered_post *k, char *out, size_t cap);

/* Public inputs of one partition's circuit, excluding ONE:
 * sector_count * (1 + challenge_count) (Winning: 132; 32 GiB Window 25839). */
size_t cz_post_public_input_count(const cz_registered_post *k);

/* Partitions of a PoSt over n_sectors sectors: Winning 1; Window
 * ceil(n_sectors / sector_count), at least 1 (post_util.rs
 * get_num_partition_for_fallback_post). */
size_t cz_post_partitions(const cz_registered_post *k, size_t n_sectors);

/* ---- Registered update proofs: SnapDeals (registry/registered_snap.c) ---------- */

/* The empty-sector-update constants as functions of the sector size in
 * 32-byte nodes (storage-proofs-update constants.rs): every size
 * rust-fil-proofs allows, the test sizes 1 KiB-32 KiB, 8 MiB, 16 MiB and
 * 512 MiB included, so that tests can build its small circuits.
 *   partitions: 1 up to 8 KiB, 2 up to 32 KiB, 4 up to 16 MiB, else 16;
 *   challenges per partition: 10 up to 16 MiB, else 86;
 *   hs: [1; 6] up to 32 KiB, else [7, 8, 9, 10, 11, 12]; h = hs[3]
 *     (h_default: 1 for the small sizes, 10 in production);
 *   apex leaves per partition: 8 up to 8 KiB, else 128;
 *   tree R: Poseidon 8-a-b as validate_tree_r_shape requires it (1 KiB
 *     8-4-0, 2 KiB 8-0-0, 4 KiB 8-2-0, 8 KiB 8-4-0, 16 KiB 8-8-0, 32 KiB
 *     8-8-2, 8 MiB 8-0-0, 16 MiB 8-2-0, 512 MiB 8-0-0, 32 GiB 8-8-0,
 *     64 GiB 8-8-2). Tree D is always a binary SHA-256 tree. */
#define CZ_SNAP_N_HS 6

typedef struct {
  uint64_t nodes; /* sector size / 32, a power of two */
  uint32_t partitions;
  uint32_t challenges;       /* per partition */
  uint32_t apex_leaves;      /* per partition */
  uint32_t hs[CZ_SNAP_N_HS]; /* the h values the circuit can select */
  uint32_t h;                /* hs[3]: the h every production proof uses */
  cz_merkle_shape tree_r;
} cz_snap_shape;

/* The constants of a sector of `nodes` nodes into *out; false (and *out
 * zeroed) when rust-fil-proofs does not allow that size (ALLOWED_SECTOR_SIZES).
 * Pure; any thread. */
bool cz_snap_shape_of(uint64_t nodes, cz_snap_shape *out);

/* One registered update proof, numbered as filecoin-ffi's
 * RegisteredUpdateProof: 0-4 StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1,
 * all ApiVersion 1.1.0 (filecoin-proofs-api registry.rs). */
typedef struct {
  uint32_t id;
  const char *name;      /* "StackedDrg2KiBV1" */
  const char *size_name; /* "2KiB", ... */
  uint64_t sector_size;  /* bytes */
  cz_api_version api;
  cz_snap_shape shape;
} cz_registered_snap;

#define CZ_REGISTERED_SNAP_COUNT 5

/* The registered update proof numbered id (NULL when id >= 5), by name, or
 * by sector size in bytes (NULL when none matches). Static storage. */
const cz_registered_snap *cz_registered_snap_by_id(uint32_t id);
const cz_registered_snap *cz_registered_snap_by_name(const char *name);
const cz_registered_snap *cz_registered_snap_by_sector_size(uint64_t sector_size);

/* The parameter identifier of the update circuit over `nodes` nodes,
 * exactly as storage-proofs-update vanilla.rs formats PublicParams'
 * identifier: "empty_sector_update::PublicParams{ sector_nodes: 64 }".
 * Returns its length; writes at most cap bytes incl. the NUL (snprintf). */
size_t cz_snap_param_identifier(uint64_t nodes, char *out, size_t cap);
/* The official parameter base name (EmptySectorUpdateCompound::cache_prefix
 * "empty-sector-update-" TreeR::display()):
 * "v28-empty-sector-update-merkletree-poseidon_hasher-<base>-<sub>-<top>-
 * <hex SHA-256 of the identifier>"; append ".params" / ".vk". Returns the
 * length as cz_snap_param_identifier does. */
size_t cz_snap_param_name(const cz_snap_shape *s, char *out, size_t cap);

#endif
