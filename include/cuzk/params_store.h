/* Layer: groth16 */
/* The parameter store, for any circuit (src/groth16/params_store.c).
 *
 * Official parameters: <official dir>/<name>.params, memory-mapped.
 * A file is returned as a mapped key (cz_groth16_params_map) unless
 * opts.decode; parameters generated now are returned decoded.
 * Otherwise TEST parameters (random toxic waste, discarded), cached as
 * <test dir>/cuzk-TEST-ONLY-[<tag>-]<name>.params: a name no official file
 * has, so test parameters are never mistaken for Filecoin's.
 *
 * Both functions take o NULL as all defaults. They may be called from
 * several threads (or processes) at once; nothing is locked, so two calls
 * that miss the same test file both generate it, and the atomic rename
 * keeps the file whole. */
#ifndef CUZK_PARAMS_STORE_H
#define CUZK_PARAMS_STORE_H
#include <stdbool.h>
#include <stddef.h>

#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "cuzk/params.h"

#define CZ_PARAMS_TEST_PREFIX "cuzk-TEST-ONLY-"
#define CZ_PARAMS_PATH_MAX 4096

/* Fills *out with the KEYGEN columns of the circuit (cz_cs_take_keygen after
 * cz_cs_finish). msg names a failure. */
typedef cz_err (*cz_params_keygen_fn)(void *ctx, cz_keygen_cols *out, char *msg, size_t msg_len);
/* Synthesizes the circuit into cs (a COUNT system, then a KEYGEN one
 * evaluating at tau: cz_cs_new_qap), without finishing it; returns
 * cz_cs_error(cs) or its own error. */
typedef cz_err (*cz_params_shape_fn)(void *ctx, cz_cs *cs);

/* The circuit's evaluations at tau without its columns: shape on a COUNT
 * system (the counts), then on cz_cs_new_qap's. Errors: shape's or the
 * system's (msg says which), CZ_ERR_NOMEM. Free *ev with cz_qap_evals_free. */
CZ_MUST_CHECK cz_err cz_params_shape_evals(cz_qap_evals *ev, cz_params_shape_fn shape, void *ctx,
                                           const cz_fr *tau, char *msg, size_t msg_len);

typedef struct {
  const char *official_dir;   /* NULL: $FIL_PROOFS_PARAMETER_CACHE, else
                                 /var/tmp/filecoin-proof-parameters */
  const char *test_dir;       /* NULL: $XDG_CACHE_HOME/cuzk, else ~/.cache/cuzk,
                                 else /tmp/cuzk-cache */
  const char *test_tag;       /* NULL or a circuit revision, part of the test
                                 file name so a changed circuit gets new params */
  bool no_official;           /* skip the official lookup (synthetic circuits) */
  bool official_only;         /* never use test parameters */
  bool no_test_cache;         /* generate test parameters, read/write no file */
  bool checked;               /* subgroup-check every point on load (slow) */
  bool decode;                /* decode every point into memory, as before
                                 mapped keys; default: a file is mapped
                                 (cz_groth16_params_map), its points decoded
                                 by the prover as it reads them */
  unsigned n_threads;         /* 0 = all cores */
  cz_params_keygen_fn keygen; /* NULL: test parameters only from the cache */
  cz_params_shape_fn shape;   /* preferred to keygen when set (both get
                                 keygen_ctx): setup from the circuit's
                                 evaluations, never its KEYGEN columns */
  void *keygen_ctx;
  const char *who;             /* prefix of stderr lines; NULL: "cuzk" */
  const cz_progress *progress; /* NULL: none; else phases "keygen" (no
                               total), "setup" (its points streamed into
                               the file), and "load params" (decode) or
                               "map params" (once, the file's bytes) are
                               reported (cuzk/params.h) */
} cz_params_store_opts;

typedef enum {
  CZ_PARAMS_OFFICIAL = 1,  /* <official dir>/<name>.params */
  CZ_PARAMS_TEST_CACHED,   /* a cached test file */
  CZ_PARAMS_TEST_GENERATED /* made now (and cached unless no_test_cache) */
} cz_params_source;

typedef struct {
  cz_params_source source;
  char path[CZ_PARAMS_PATH_MAX]; /* file loaded or written ("" if none) */
} cz_params_origin;

/* The two candidate paths for parameter set `name` under opts (either
 * output may be NULL). CZ_ERR_INVALID_ARG when a path does not fit
 * CZ_PARAMS_PATH_MAX, name is NULL or empty, or name or test_tag holds
 * '/'. */
CZ_MUST_CHECK cz_err cz_params_store_paths(const char *name, const cz_params_store_opts *o,
                                           char official[CZ_PARAMS_PATH_MAX],
                                           char test[CZ_PARAMS_PATH_MAX]);

/* Parameters for circuit `name` whose vk must have n_ic IC points (public
 * inputs + ONE; 0 = any). In order:
 *  1. unless no_official: the official file, when it exists. Its vk's IC
 *     count is read from the header first, so a file for another circuit is
 *     refused before its vectors are mapped. An official file that exists
 *     but does not load or fit is an error (CZ_ERR_INVALID_ARG for a wrong
 *     count, else the loader's), never a silent fall-back to test params.
 *  2. unless official_only or no_test_cache: the cached test file; one that
 *     does not load or fit is reported on stderr and replaced.
 *  3. unless official_only or both keygen and shape are NULL: the
 *     circuit's evaluations at a fresh random tau (shape: a COUNT run, then
 *     a KEYGEN run at tau, cz_cs_new_qap; else keygen's columns,
 *     cz_groth16_qap_from_cols), then cz_groth16_setup_stream into the test
 *     file (written whole under a temporary name, then renamed: the key is
 *     never held in memory), then the file is loaded as in step 2. A
 *     failed write is an error (msg names the path, the reason and the
 *     bytes). With no_test_cache: keygen, cz_groth16_setup in memory, no
 *     file (keygen is needed then).
 * Steps 2 and 3 run under an exclusive flock of <test file>.lock (left in
 * the cache, empty), so processes sharing a cache make a missing file once:
 * the others wait, then load it.
 * Using or generating test parameters prints one stderr line that says so.
 * Errors: CZ_ERR_IO (nothing usable found: msg names the official path, or
 * the test path under no_official),
 * CZ_ERR_INVALID_ARG (a count does not fit), keygen's, setup's, loader's.
 * On error *out is zeroed; origin (may be NULL) is set on success. The
 * caller frees *out with cz_groth16_params_free. */
CZ_MUST_CHECK cz_err cz_params_store_get(cz_groth16_params *out, const char *name, size_t n_ic,
                                         const cz_params_store_opts *o, cz_params_origin *origin,
                                         char *msg, size_t msg_len);

#endif
