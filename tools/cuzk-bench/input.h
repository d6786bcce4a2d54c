/* Reading the inputs of cuzk-bench subcommands: whole files, hex text and
 * public-input JSON. Each loader explains a failure in one line written to
 * why (never longer than whylen, always terminated). */
#ifndef CUZK_BENCH_INPUT_H
#define CUZK_BENCH_INPUT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/fr.h"
#include "cuzk/groth16.h"
#include "cuzk/params_store.h"
#include "prove_common.h"

/* Read a whole file ("-": standard input, read to its end) into a fresh
 * heap buffer (NUL-terminated one byte past *len, so text can be treated
 * as a string). CZ_ERR_IO on failure. */
cz_err cz_bench_read_file(const char *path, uint8_t **buf, size_t *len, char *why, size_t whylen);

/* True when buf is hex text: an optional 0x prefix and an even number of
 * hex digits, with optional surrounding whitespace. Binary keys and proofs
 * never look like that (their first byte carries flag bits). */
bool cz_bench_is_hex_text(const uint8_t *buf, size_t len);

/* Decode hex text (same shape as above) into a fresh buffer. CZ_ERR_PARSE
 * names the first offending character. */
cz_err cz_bench_hex_decode(uint8_t **out, size_t *outlen, const uint8_t *text, size_t len,
                           char *why, size_t whylen);

/* Load public inputs from JSON {"inputs": ["<64 hex: 32-byte LE Fr>", ...],
 * "count": N} ("count" optional, but must match when present). Each input
 * must be below r. On success *inputs is a fresh array of *n elements
 * (NULL when *n = 0). CZ_ERR_IO or CZ_ERR_PARSE otherwise. */
cz_err cz_bench_load_public_inputs(const char *path, cz_fr **inputs, size_t *n, char *why,
                                   size_t whylen);

/* A sector size: plain bytes ("2048") or a number with KiB, MiB, GiB (or
 * K, M, G; any case) as powers of 1024. Returns 0 and sets *bytes, or -1. */
int cz_bench_parse_size(const char *text, uint64_t *bytes);

/* The bytes named by a command-line argument: hex text on the command line
 * (when no file of that name exists), else a file of raw bytes or of hex
 * text. *what says which ("proof hex" / "proof file", with `name` in place
 * of "proof"). CZ_ERR_IO / CZ_ERR_PARSE / CZ_ERR_NOMEM with why set. */
cz_err cz_bench_load_hex_or_file(const char *arg, const char *name, uint8_t **out, size_t *len,
                                 char *what, size_t whatlen, char *why, size_t whylen);

/* Exactly 32 bytes of hex (optional 0x) from option --opt into out; on
 * failure prints "<cmd>: --<opt>: <reason>" on stderr and returns 2. */
int cz_bench_hex32(const char *cmd, const char *opt, const char *arg, uint8_t out[32]);

/* Load a verifying key (raw bytes or hex text, either point layout; the
 * layout from its first byte unless force_compressed) for subcommand cmd.
 * 0 on success, else 2 after one line "<cmd>: verifying key ..." on stderr. */
int cz_bench_load_vk(const char *cmd, cz_groth16_vk *vk, const char *path, bool force_hex,
                     bool force_compressed);

/* The options naming a verifying key, as every verifier takes them (the
 * path, force_hex and force_compressed of cz_bench_load_vk), for a cz_opt
 * table (bench/common/args.h). */
#define CZ_BENCH_VK_OPTIONS(path, hex, compressed) \
  {"vk", CZ_OPT_STRING, path, "FILE", \
   "verifying key, bellperson layout, raw bytes or hex text (not a whole .params file)"}, \
      {"vk-compressed", CZ_OPT_FLAG, compressed, NULL, \
       "the key's points are compressed (else detected from its first byte)"}, \
  { \
    "vk-hex", CZ_OPT_FLAG, hex, NULL, "the key file is hex text (else detected)" \
  }

/* A verifier's two inputs (verify-post, verify-update, verify-seal).
 * The proof bytes named by arg (cz_bench_load_hex_or_file, name "proof"):
 * 0 with *bytes heap-owned and *what saying which form it was, or 2 after
 * one line "<cmd>: proof: <why>" (no such file, not hex) or "<cmd>: <what>:
 * <why>" on stderr. */
int cz_bench_load_proof(const char *cmd, const char *arg, uint8_t **bytes, size_t *len, char *what,
                        size_t whatlen);
/* cz_bench_load_vk, then the key must take n_inputs public inputs, else 2
 * after "<cmd>: the verifying key takes K public inputs, <who> has N" (the
 * key then freed). */
int cz_bench_load_vk_for(const char *cmd, cz_groth16_vk *vk, const char *path, bool force_hex,
                         bool force_compressed, size_t n_inputs, const char *who);

/* One line "<cmd>: <message>" on stderr; returns 2, the unusable-input
 * exit status: `return cz_bench_unusable(CMD, "...", ...)`. */
int cz_bench_unusable(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Write buf[0..len) to path atomically: a temporary file in the same
 * directory (path.tmp.<pid>), fsynced, then renamed over path, so a reader
 * sees the old file or the whole new one and a failed write leaves no
 * partial file. CZ_ERR_IO with why ("cannot write <path>: <strerror>"). */
cz_err cz_bench_write_atomic(const char *path, const void *buf, size_t len, char *why,
                             size_t whylen);

/* cz_bench_write_atomic; 0, or 2 after one line "<cmd>: <why>" on stderr. */
int cz_bench_write_file(const char *cmd, const char *path, const uint8_t *buf, size_t len);

/* Write vk (bellperson layout, uncompressed) to path: 0, or 2 after one
 * line on stderr. */
int cz_bench_write_vk(const char *cmd, const char *path, const cz_groth16_vk *vk);

/* `prove`'s parameters for circuit `name` with n_ic IC points from the
 * store (cz_params_store_get: the official file unless missing, else the
 * cached or freshly made test file under o->cache_dir with tag; mapped
 * unless o->decoded_key), timed and printed as "setup N ms" or
 * "load_params N ms". 0, or 2 after one line "prove: parameters: <why>"
 * on stderr (*out then empty). */
int cz_bench_prove_params(cz_groth16_params *out, const char *name, size_t n_ic, const char *tag,
                          const cz_bench_prove_opts *o, cz_params_keygen_fn keygen, void *ctx);

#endif
