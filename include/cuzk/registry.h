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

/* ---- Registered seal proofs (registry/porep_kind.c) ---------------------- */

/* What the circuit's shape depends on (not porep_id, not the API version). */
typedef struct {
  uint64_t nodes;           /* sector size / 32 */
  uint32_t layers;          /* SDR layers (2 for small sectors, 11 for 32/64 GiB) */
  uint32_t challenges;      /* interactive challenges per partition */
  cz_merkle_shape tree_r;   /* shape of tree C and tree R-last (Poseidon) */
} cz_porep_shape;

typedef struct {
  uint32_t id;              /* registered_proof number: 0-4 V1, 5-9 V1_1 */
  const char *name;         /* "StackedDrg2KiBV1_1" (the C1 JSON string) */
  const char *vanilla_tag;  /* "StackedDrg2KiBV1": the vanilla_proofs key */
  const char *size_name;    /* "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" */
  uint64_t sector_size;     /* bytes */
  uint32_t partitions;
  cz_porep_shape shape;
  cz_api_version api;       /* V1: 1.0.0, V1_1: 1.1.0 */
} cz_porep_kind;

/* The ten registered seal proofs (static storage); NULL when unknown or
 * name is NULL. */
const cz_porep_kind *cz_porep_kind_by_id(uint32_t id);
const cz_porep_kind *cz_porep_kind_by_name(const char *name);
/* The kind of a sector size in bytes (2048, 8 MiB, 512 MiB, 32 GiB,
 * 64 GiB), V1_1 when v1_1 else V1; NULL when no official size matches. */
const cz_porep_kind *cz_porep_kind_by_sector_size(uint64_t sector_size, bool v1_1);
/* The public-input configuration of kind k (porep_id from its id, nonce 0). */
void cz_porep_kind_config(const cz_porep_kind *k, cz_porep_config *cfg);

/* ---- PoRep parameter names (registry/param_name.c) ----------------------- */

/* The official parameter base name of kind k, as rust-fil-proofs' parameter
 * cache names it: "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-
 * 8-0-0-sha256_hasher-<sha256 hex of the public params identifier>" (append
 * ".params" / ".vk"). Returns the length; writes at most cap bytes incl. NUL. */
size_t cz_porep_param_name(const cz_porep_kind *k, char *out, size_t cap);

/* The strings that name is derived from (storage-proofs-porep
 * PublicParams::identifier over StackedGraph / BucketGraph identifiers), for
 * logs and tests: returns the length, writes at most cap bytes incl. NUL. */
size_t cz_porep_param_identifier(const cz_porep_kind *k, char *out, size_t cap);

#endif
