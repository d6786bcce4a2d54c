/* cuzk-bench verify-post: check a WinningPoSt or WindowPoSt partition proof
 * (192 bytes) as filecoin-proofs' verify_winning_post / verify_window_post
 * do: the public inputs from the registered proof, the randomness and the
 * challenged sectors (computed here, cz_post_public_inputs), then Groth16.
 *
 *   cuzk-bench verify-post --vk FILE --registered-proof N --randomness HEX
 *       --prover-id HEX --sectors ID:COMM_R[,ID:COMM_R...] [--partition K]
 *       --proof HEX_OR_FILE [--vk-compressed] [--vk-hex]
 *
 * --sectors lists the partition's sectors in order (Winning: the one
 * challenged sector), or @FILE holds that list; COMM_R is 64 hex digits, the little-endian Fr (the
 * sealed CID's digest). The prover id is checked canonical, as
 * filecoin-proofs does, but does not enter the inputs.
 * Exit status: 0 valid ("valid"), 1 invalid ("invalid: <reason>"), 2
 * unusable input (one line on stderr).
 *
 * cuzk-bench post-inputs (the same options less --vk and --proof) prints
 * the public inputs instead, one 64-hex-digit little-endian Fr per line,
 * ONE excluded: what tests/reference/ compares with its own derivation. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common/args.h"
#include "cuzk/groth16.h"
#include "cuzk/post.h"
#include "input.h"

#define CMD "verify-post"
/* One line "<CMD>: <reason>" on stderr; the unusable-input status. */
#define fail(...) cz_bench_unusable(CMD, __VA_ARGS__)
#define MAX_SECTORS 4096

static const char SYNOPSIS[] =
    "--vk FILE --registered-proof N --randomness HEX --prover-id HEX --sectors ID:COMM_R,... "
    "[--partition K] --proof HEX_OR_FILE";

/* "ID:HEX,ID:HEX,..." into sectors (at most cap); 0 or 2 after a line. */
static int parse_sectors(const char *arg, cz_post_sector *sectors, size_t cap, size_t *n) {
  *n = 0;
  for (const char *p = arg; *p;) {
    if (*n == cap) return fail("--sectors: more than %zu sectors", cap);
    char *end;
    errno = 0;
    unsigned long long id = strtoull(p, &end, 10);
    if (end == p || errno || *end != ':')
      return fail("--sectors: entry %zu: expected SECTOR_ID:COMM_R", *n);
    const char *hex = end + 1, *stop = strchr(hex, ',');
    size_t len = stop ? (size_t)(stop - hex) : strlen(hex);
    char buf[80];
    if (len >= sizeof buf) return fail("--sectors: entry %zu: comm_r is not 64 hex digits", *n);
    memcpy(buf, hex, len);
    buf[len] = 0;
    char opt[40];
    snprintf(opt, sizeof opt, "sectors[%zu] comm_r", *n);
    if (cz_bench_hex32(CMD, opt, buf, sectors[*n].comm_r) != 0) return 2;
    sectors[(*n)++].sector_id = id;
    p = stop ? stop + 1 : hex + len;
    if (stop && !*p) return fail("--sectors: a trailing ','");
  }
  return *n ? 0 : fail("--sectors: no sector given");
}

/* post-inputs: the inputs, one hex line each. */
static int print_inputs(const cz_registered_post *k, const uint8_t randomness[32],
                        const uint8_t prover_id[32], uint32_t partition,
                        const cz_post_sector *sectors, size_t n) {
  size_t per = cz_post_public_input_count(k);
  cz_fr *in = malloc(per * sizeof *in);
  char why[512];
  if (!in) return fail("out of memory");
  if (cz_post_check_commitment(prover_id, "prover-id", why, sizeof why) != CZ_OK ||
      cz_post_public_inputs(&(cz_post_challenge_seed){.registered = k,
                                                      .randomness = randomness,
                                                      .partition = partition},
                            sectors, n, in, per, why, sizeof why) != CZ_OK) {
    free(in);
    return fail("%s", why);
  }
  for (size_t i = 0; i < per; i++) {
    uint8_t b[32];
    cz_fr_to_bytes_le(b, &in[i]);
    for (int j = 0; j < 32; j++) printf("%02x", b[j]);
    putchar('\n');
  }
  free(in);
  return 0;
}

/* The partition's sectors from --sectors: the list itself, or "@FILE",
 * the file's text (a 32 GiB partition's 2349 sectors do not fit one
 * command-line argument). *out from calloc (the caller frees it). 0, or
 * the exit status after a line on stderr. */
static int load_sectors(const char *arg, cz_post_sector **out, size_t *n) {
  *n = 0;
  *out = calloc(MAX_SECTORS, sizeof **out);
  if (!*out) return fail("out of memory");
  uint8_t *list = NULL;
  size_t list_len = 0;
  char why[512];
  if (arg[0] == '@') {
    if (cz_bench_read_file(arg + 1, &list, &list_len, why, sizeof why) != CZ_OK) {
      free(*out);
      *out = NULL;
      return fail("--sectors: %s", why);
    }
    while (list_len && (list[list_len - 1] == '\n' || list[list_len - 1] == ' '))
      list[--list_len] = 0;
    arg = (const char *)list;
  }
  int rc = parse_sectors(arg, *out, MAX_SECTORS, n);
  free(list);
  if (rc != 0) {
    free(*out);
    *out = NULL;
  }
  return rc;
}

/* What one verification checks: the partition's challenge seed and its
 * sectors. */
typedef struct {
  const cz_registered_post *k;
  const uint8_t *randomness, *prover_id;
  uint32_t partition;
  const cz_post_sector *sectors;
  size_t n;
} post_claim;

/* The proof (CZ_GROTH16_PROOF_BYTES bytes) against the key and the
 * public inputs of the claim: "valid" or "invalid: ..." on stdout. 0
 * valid, 1 invalid, 2 unusable input (a line on stderr). per: the
 * registered proof's public-input count, which the caller already has. */
static int verify_proof(const post_claim *c, const cz_groth16_vk *vk, const uint8_t *bytes,
                        size_t per) {
  cz_fr *inputs = malloc(per * sizeof *inputs);
  if (!inputs) return fail("out of memory");
  char why[512];
  cz_post_challenge_seed seed = {.registered = c->k,
                                 .randomness = c->randomness,
                                 .partition = c->partition};
  int rc = 0;
  cz_err e;
  if (cz_post_check_commitment(c->prover_id, "prover-id", why, sizeof why) != CZ_OK ||
      cz_post_public_inputs(&seed, c->sectors, c->n, inputs, per, why, sizeof why) != CZ_OK) {
    rc = fail("%s", why);
  } else {
    cz_groth16_proof proof;
    if ((e = cz_groth16_proof_read(&proof, bytes)) != CZ_OK) {
      printf("invalid: the proof does not decode: %s\n", cz_err_str(e));
      rc = 1;
    } else if ((e = cz_groth16_verify(vk, inputs, per, &proof)) == CZ_OK) {
      printf("valid\n");
    } else {
      printf("invalid: %s\n",
             e == CZ_ERR_PROOF_INVALID ? "the pairing check fails" : cz_err_str(e));
      rc = 1;
    }
  }
  fflush(stdout);
  free(inputs);
  return rc;
}

/* Load the proof and the key, then verify_proof. */
static int verify_claim(const post_claim *c, const char *proof_arg, const char *vk_path,
                        bool vk_hex, bool vk_compressed) {
  char what[32];
  uint8_t *bytes = NULL;
  size_t len = 0;
  int rc = cz_bench_load_proof(CMD, proof_arg, &bytes, &len, what, sizeof what);
  if (rc != 0) return rc;
  cz_groth16_vk vk;
  memset(&vk, 0, sizeof vk);
  size_t per = cz_post_public_input_count(c->k);
  if (len != CZ_GROTH16_PROOF_BYTES)
    rc = fail("%s holds %zu bytes, expected %d", what, len, CZ_GROTH16_PROOF_BYTES);
  else rc = cz_bench_load_vk_for(CMD, &vk, vk_path, vk_hex, vk_compressed, per, c->k->name);
  if (rc == 0) rc = verify_proof(c, &vk, bytes, per);
  free(bytes);
  cz_groth16_vk_free(&vk);
  return rc;
}

static int run(int argc, char **argv, bool print_only) {
  const char *vk_path = NULL, *proof_arg = NULL, *rand_hex = NULL, *prover_hex = NULL,
             *sectors_arg = NULL;
  unsigned long reg = ~0ul, partition = 0;
  bool vk_hex = false, vk_compressed = false;
  const cz_opt opts[] = {
      CZ_BENCH_VK_OPTIONS(&vk_path, &vk_hex, &vk_compressed),
      {"registered-proof", CZ_OPT_UINT, &reg, "N", "RegisteredPoStProof 0-14"},
      {"randomness", CZ_OPT_STRING, &rand_hex, "HEX", "32 bytes, a canonical little-endian Fr"},
      {"prover-id", CZ_OPT_STRING, &prover_hex, "HEX", "32 bytes (LEB128 miner id, padded)"},
      {"sectors", CZ_OPT_STRING, &sectors_arg, "ID:COMM_R,...",
       "the partition's sectors (or @FILE holding the list)"},
      {"partition", CZ_OPT_UINT, &partition, "K", "WindowPoSt partition index (default 0)"},
      {"proof", CZ_OPT_STRING, &proof_arg, "HEX_OR_FILE", "the 192-byte proof"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse_or_help(argc, argv, opts, CMD, SYNOPSIS);
  if (rc >= 0) return rc;
  if ((!print_only && (!vk_path || !proof_arg)) || !rand_hex || !prover_hex || !sectors_arg ||
      reg == ~0ul)
    return fail("missing options (usage: cuzk-bench " CMD " %s)", SYNOPSIS);
  const cz_registered_post *k =
      reg < CZ_REGISTERED_POST_COUNT ? cz_registered_post_by_id((uint32_t)reg) : NULL;
  if (!k) return fail("--registered-proof %lu: not a registered PoSt proof (0-14)", reg);
  if (partition > UINT32_MAX) return fail("--partition %lu is out of range", partition);
  uint8_t randomness[32], prover_id[32];
  if (cz_bench_hex32(CMD, "randomness", rand_hex, randomness) ||
      cz_bench_hex32(CMD, "prover-id", prover_hex, prover_id))
    return 2;
  cz_post_sector *sectors = NULL;
  size_t n = 0;
  if ((rc = load_sectors(sectors_arg, &sectors, &n)) != 0) return rc;
  if (print_only) rc = print_inputs(k, randomness, prover_id, (uint32_t)partition, sectors, n);
  else {
    post_claim c = {k, randomness, prover_id, (uint32_t)partition, sectors, n};
    rc = verify_claim(&c, proof_arg, vk_path, vk_hex, vk_compressed);
  }
  free(sectors);
  return rc;
}

int cmd_verify_post(int argc, char **argv) { return run(argc, argv, false); }
int cmd_post_inputs(int argc, char **argv) { return run(argc, argv, true); }
