/* Layer: provers */
/* snarkjs keys (.zkey) kept by the daemon, and the CIRCOM proof kind that
 * proves with them through the engine (src/provers/circom_keys.c,
 * circom_prover.c; the service is cuzk.circom.v1, docs/circom.md).
 *
 * A key is named by its key_id, the SHA-256 of its .zkey file (64
 * lowercase hex digits on the wire), and is an engine SRS entry
 * "circom-<first 16 hex of key_id>" whose loader reads the mapped file
 * with cz_zkey_read: its resident bytes are charged to the memory budget,
 * it has the hot / warm / cold tiers, idle eviction, PreloadSRS / EvictSRS
 * and appears in GetStatus like Filecoin parameters. Keys are added and
 * removed while the engine runs; every function here is thread-safe. */
#ifndef CUZK_CIRCOM_KEYS_H
#define CUZK_CIRCOM_KEYS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/err.h"
#include "cuzk/provers.h"

#define CZ_CIRCOM_KEY_HEX 65  /* 64 hex digits and the NUL */
#define CZ_CIRCOM_NAME_MAX 64 /* a key's name, NUL included */

typedef struct cz_circom_keys cz_circom_keys;

/* A key as ListKeys and LoadKey report it. The sizes are known once the
 * key was loaded (LoadKey always loads it). */
typedef struct {
  char key_id[CZ_CIRCOM_KEY_HEX];
  char name[CZ_CIRCOM_NAME_MAX];
  char circuit_id[32]; /* its SRS entry */
  size_t n_vars, n_public, domain_size;
  uint64_t file_bytes;
  uint64_t resident_bytes; /* what a hot key is charged (file and tables) */
  uint64_t proofs;         /* proofs completed with it */
} cz_circom_key_info;

/* Register the CIRCOM kind with e (before cz_engine_start) and make the
 * key registry it proves from, in *out (owned by e: freed by
 * cz_engine_destroy). cfg->prove_threads is the prover's thread budget.
 * Errors: CZ_ERR_NOMEM, cz_engine_register_ops's. */
CZ_MUST_CHECK cz_err cz_circom_prover_register(cz_engine *e, const cz_provers_config *cfg,
                                               cz_circom_keys **out, char *msg, size_t msg_len);

/* What LoadKey names: a label, the file, and whether every point's
 * subgroup is checked (cz_zkey_load's CZ_ZKEY_CHECK_SUBGROUP). */
typedef struct {
  const char *name, *path;
  bool check_subgroup;
} cz_circom_key_spec;

/* LoadKey: hash the file at path, declare its SRS entry (unless a key of
 * that id is known: then only *already is set and name is kept) and make
 * it hot, in load_ms (may be NULL). A key that does not load is forgotten again.
 * Errors: CZ_ERR_NOT_FOUND (no file), CZ_ERR_IO, CZ_ERR_INVALID_ARG (a bad
 * name: 1-63 printable characters), the reader's refusal (CZ_ERR_PARSE,
 * TRUNCATED, NOT_ON_CURVE, ...: msg is its one line), CZ_ERR_NOMEM (the
 * key does not fit the memory budget). */
CZ_MUST_CHECK cz_err cz_circom_key_load(cz_circom_keys *k, const cz_circom_key_spec *spec,
                                        cz_circom_key_info *info, bool *already, uint64_t *load_ms,
                                        char *msg, size_t msg_len);
/* UnloadKey: drop the key's SRS entry and forget the key. *was_loaded: it
 * was hot or warm; *freed: the budget bytes it held. CZ_ERR_NOT_FOUND for
 * an unknown id, CZ_ERR_BUSY while a proof uses it. */
CZ_MUST_CHECK cz_err cz_circom_key_unload(cz_circom_keys *k, const char *key_id, bool *was_loaded,
                                          uint64_t *freed, char *msg, size_t msg_len);
/* The key of that id into *info (may be NULL); false when unknown. */
bool cz_circom_key_find(cz_circom_keys *k, const char *key_id, cz_circom_key_info *info);
/* The keys, at most cap, newest first; returns how many were written. */
size_t cz_circom_key_list(cz_circom_keys *k, cz_circom_key_info *out, size_t cap);

/* key_id as 32 bytes from its 64 hex digits (either case); false when it
 * is not that. */
bool cz_circom_key_id_parse(const char *hex, uint8_t out[32]);

/* A CIRCOM job's answer: the 192-byte proof (A G1 | B G2 | C G1,
 * compressed), then the public signals, 32 bytes each (canonical little
 * endian), as many as the key has. */
#define CZ_CIRCOM_ANSWER_BYTES(n_public) (192 + 32 * (size_t)(n_public))

#endif
