/* cuzk-bench verify-seal: check a PoRep C2 proof (one 192-byte Groth16
 * proof per partition, concatenated, as filecoin-proofs' seal_commit_phase2
 * writes it) as filecoin-proofs' verify_seal does: the public inputs of
 * every partition from the sector's commitments and randomness, then the
 * Groth16 checks.
 *
 * The configuration is a registered proof (number or name), or explicit
 * sector size, porep_id and API version: vectors made outside the
 * registered configurations (the polka-storage 2 KiB one: porep_id zero
 * with 1.1.0 semantics) need the explicit form.
 *
 * Exit status: 0 valid ("valid"), 1 invalid ("invalid: <reason>"; a proof
 * that does not decode is invalid, as in `verify`), 2 unusable input (one
 * line on stderr). Like verify_seal, an all-zero or non-canonical comm_r /
 * comm_d and a proof of the wrong length are unusable input.
 *
 * cuzk-bench porep-inputs (the same options less --vk and --proof, plus
 * --partition K) prints one partition's public inputs instead, one
 * 64-hex-digit little-endian Fr per line, ONE excluded; cuzk-bench
 * sdr-parents prints a configuration's porep_id, API version and node
 * count, then "parents NODE" and the 6 DRG and 8 expander parents of each
 * node of --nodes (with --cache-digest, the SHA-256 of the whole parent
 * cache last: "parent_cache_digest HEX"). They are what tests/reference/porep_reference.py
 * compares with its own derivation. Exit status 0, or 2 (one line on
 * stderr). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "common/args.h"
#include "commands.h"
#include "cuzk/groth16.h"
#include "cuzk/porep.h"
#include "cuzk/sha256.h"
#include "input.h"

/* The running subcommand (verify-seal, porep-inputs or sdr-parents), for
 * its messages; main runs one command per process. */
static const char *cmd_name = "verify-seal";
/* One line "<cmd_name>: <reason>" on stderr; the unusable-input status. */
#define fail(...) cz_bench_unusable(cmd_name, __VA_ARGS__)
#define WHY_LEN 512

/* The option rows the three commands share: the configuration (all), the
 * sector's claimed values (verify-seal, porep-inputs). */
#define CONFIG_OPTIONS(co) \
  {"registered-proof", CZ_OPT_STRING, &(co).registered, "N", \
   "registered seal proof: 0-9 or its name (StackedDrg2KiBV1_1)"}, \
      {"sector-size", CZ_OPT_STRING, &(co).sector_size, "S", \
       "bytes or 2KiB/8MiB/512MiB/32GiB/64GiB"}, \
      {"porep-id", CZ_OPT_STRING, &(co).porep_id, "HEX", "32-byte porep_id (with --sector-size)"}, \
  { \
    "api-version", CZ_OPT_STRING, &(co).api, "V", "1.0.0, 1.1.0 or 1.2.0 (with --sector-size)" \
  }
#define CLAIM_OPTIONS(co) \
  {"sector-id", CZ_OPT_STRING, &(co).sector_id, "N", "sector number"}, \
      {"prover-id", CZ_OPT_STRING, &(co).prover_id, "HEX", "32 bytes"}, \
      {"ticket", CZ_OPT_STRING, &(co).ticket, "HEX", "32 bytes"}, \
      {"seed", CZ_OPT_STRING, &(co).seed, "HEX", "32 bytes (interactive randomness)"}, \
      {"comm-r", CZ_OPT_STRING, &(co).comm_r, "HEX", "32 bytes, little-endian Fr"}, \
      {"comm-d", CZ_OPT_STRING, &(co).comm_d, "HEX", "32 bytes, little-endian Fr"}, { \
    "c1", CZ_OPT_STRING, &(co).c1, "FILE", \
        "take kind, ticket, seed, comm_r, comm_d (and a wrapper's sector number) from a C1" \
  }

static const char SEAL_SYNOPSIS[] =
    "--vk FILE [--vk-compressed] [--vk-hex] (--registered-proof N | --sector-size S "
    "--porep-id HEX --api-version 1.0.0|1.1.0|1.2.0) --sector-id N --prover-id HEX --ticket HEX "
    "--seed HEX --comm-r HEX --comm-d HEX --proof HEX_OR_FILE [--partitions N | --partition K] "
    "(or --c1 FILE in place of the configuration, ticket, seed and commitments)";
static const char INPUTS_SYNOPSIS[] =
    "(--registered-proof N | --sector-size S --porep-id HEX --api-version V) --sector-id N "
    "--prover-id HEX --ticket HEX --seed HEX --comm-r HEX --comm-d HEX [--partition K] (or --c1 "
    "FILE in place of the configuration, ticket, seed and commitments)";
static const char PARENTS_SYNOPSIS[] =
    "(--registered-proof N | --sector-size S --porep-id HEX --api-version V) [--nodes "
    "N,N,...|@FILE] [--cache-digest]";
/* The running subcommand's synopsis, for "missing ..." messages. */
static const char *synopsis = SEAL_SYNOPSIS;

/* What is claimed about the sealed sector: the configuration and the values
 * the public inputs derive from. Filled from the options, or from a C1 file
 * (--c1: registered proof, commitments, ticket and seed; Curio's wrapper also gives the
 * sector number) plus --prover-id and --sector-id. */
typedef struct {
  cz_porep_config cfg;
  uint64_t sector_id;
  uint8_t prover_id[32], ticket[32], seed[32], comm_r[32], comm_d[32];
} seal_claim;

typedef struct {
  const char *registered, *sector_size, *porep_id, *api, *sector_id, *prover_id, *ticket, *seed,
      *comm_r, *comm_d, *c1;
  unsigned long partitions;
} claim_opts;

static bool parse_u64(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  if (!isdigit((unsigned char)*s)) return false;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end) return false;
  *out = v;
  return true;
}

static int config_from_options(cz_porep_config *cfg, const claim_opts *o) {
  const cz_registered_porep *k = NULL;
  bool explicit_form = o->sector_size || o->porep_id || o->api;
  if (o->registered && explicit_form)
    return fail("--registered-proof excludes --sector-size, --porep-id and --api-version");
  if (o->registered) {
    uint64_t id;
    k = parse_u64(o->registered, &id) ? (id < 64 ? cz_registered_porep_by_id((uint32_t)id) : NULL)
                                      : cz_registered_porep_by_name(o->registered);
    if (!k)
      return fail(
          "--registered-proof: unknown seal proof '%s' (0-9 or a name like "
          "StackedDrg2KiBV1_1)",
          o->registered);
    cz_registered_porep_config(k, cfg);
  } else {
    if (!o->sector_size || !o->porep_id || !o->api)
      return fail(
          "missing %s (give --registered-proof, or --sector-size, --porep-id and "
          "--api-version)",
          !o->sector_size ? "--sector-size"
          : !o->porep_id  ? "--porep-id"
                          : "--api-version");
    uint64_t size;
    if (cz_bench_parse_size(o->sector_size, &size) != 0)
      return fail("--sector-size: cannot read '%s' (bytes, or a number with KiB/MiB/GiB)",
                  o->sector_size);
    cz_api_version api;
    if (!strcmp(o->api, "1.0.0")) api = CZ_API_1_0_0;
    else if (!strcmp(o->api, "1.1.0")) api = CZ_API_1_1_0;
    else if (!strcmp(o->api, "1.2.0")) api = CZ_API_1_2_0;
    else return fail("--api-version: '%s' is not 1.0.0, 1.1.0 or 1.2.0", o->api);
    /* The shape (challenges, partitions) is the official one of that size;
     * it does not depend on V1 / V1_1. */
    k = cz_registered_porep_by_sector_size(size, true);
    if (!k)
      return fail(
          "--sector-size: %s is not a Filecoin sector size (2KiB, 8MiB, 512MiB, 32GiB, "
          "64GiB)",
          o->sector_size);
    cz_registered_porep_config(k, cfg);
    cfg->api = api;
    if (cz_bench_hex32(cmd_name, "porep-id", o->porep_id, cfg->porep_id)) return 2;
  }
  if (o->partitions) {
    if (o->partitions > 1024) return fail("--partitions: at most 1024");
    cfg->partitions = (uint32_t)o->partitions;
  }
  return 0;
}

/* A 32-byte commitment: canonical Fr and not all zero (verify_seal's
 * as_safe_commitment and its zero checks). */
static int commitment(const char *opt, const char *arg, uint8_t out[32]) {
  if (cz_bench_hex32(cmd_name, opt, arg, out)) return 2;
  static const uint8_t zero[32];
  if (!memcmp(out, zero, 32)) return fail("--%s is all zero (an invalid commitment)", opt);
  cz_fr x;
  if (cz_fr_from_bytes_le(&x, out) != CZ_OK)
    return fail("--%s is not a field element (not below the modulus r)", opt);
  return 0;
}

/* --c1: the values a C1 output carries. */
static int claim_from_c1(seal_claim *c, const claim_opts *o) {
  if (o->ticket || o->seed || o->comm_r || o->comm_d)
    return fail("--c1 gives the ticket, seed, comm_r and comm_d: drop --%s", o->ticket ? "ticket"
                                                                             : o->seed ? "seed"
                                                                             : o->comm_r
                                                                                 ? "comm-r"
                                                                                 : "comm-d");
  if (!o->prover_id) return fail("missing --prover-id (a C1 output does not carry it)");
  cz_porep_c1 c1;
  char why[WHY_LEN];
  if (cz_porep_c1_load(&c1, o->c1, why, sizeof why) != CZ_OK) return fail("%s: %s", o->c1, why);
  if (!o->registered && !o->sector_size) cz_registered_porep_config(c1.registered, &c->cfg);
  else if (config_from_options(&c->cfg, o)) {
    cz_porep_c1_free(&c1);
    return 2;
  }
  memcpy(c->ticket, c1.ticket, 32);
  memcpy(c->seed, c1.seed, 32);
  memcpy(c->comm_r, c1.comm_r, 32);
  memcpy(c->comm_d, c1.comm_d, 32);
  bool has_num = c1.has_sector_num;
  c->sector_id = c1.sector_num;
  cz_porep_c1_free(&c1);
  if (o->sector_id ? !parse_u64(o->sector_id, &c->sector_id) : !has_num)
    return fail(o->sector_id ? "--sector-id: '%s' is not a decimal u64"
                             : "missing --sector-id (only Curio's wrapper carries it)%s",
                o->sector_id ? o->sector_id : "");
  if (o->partitions) c->cfg.partitions = (uint32_t)o->partitions;
  return cz_bench_hex32(cmd_name, "prover-id", o->prover_id, c->prover_id);
}

static int claim_from_options(seal_claim *c, const claim_opts *o) {
  memset(c, 0, sizeof *c);
  if (o->c1) return claim_from_c1(c, o);
  int rc = config_from_options(&c->cfg, o);
  if (rc) return rc;
  const char *missing = !o->sector_id   ? "--sector-id"
                        : !o->prover_id ? "--prover-id"
                        : !o->ticket    ? "--ticket"
                        : !o->seed      ? "--seed"
                        : !o->comm_r    ? "--comm-r"
                        : !o->comm_d    ? "--comm-d"
                                        : NULL;
  if (missing) return fail("missing %s (usage: cuzk-bench %s %s)", missing, cmd_name, synopsis);
  if (!parse_u64(o->sector_id, &c->sector_id))
    return fail("--sector-id: '%s' is not a decimal u64", o->sector_id);
  if (cz_bench_hex32(cmd_name, "prover-id", o->prover_id, c->prover_id) ||
      cz_bench_hex32(cmd_name, "ticket", o->ticket, c->ticket) ||
      cz_bench_hex32(cmd_name, "seed", o->seed, c->seed) ||
      commitment("comm-r", o->comm_r, c->comm_r) || commitment("comm-d", o->comm_d, c->comm_d))
    return 2;
  return 0;
}

/* The public inputs of every partition, partition after partition. */
static int claim_public_inputs(const seal_claim *c, size_t per, cz_fr *out) {
  for (uint32_t p = 0; p < c->cfg.partitions; p++) {
    size_t n = per;
    cz_err e = cz_porep_public_inputs(&c->cfg,
                                      &(cz_porep_sealed){c->sector_id, c->prover_id, c->ticket,
                                                         c->seed, c->comm_d, c->comm_r},
                                      p, out + (size_t)p * per, &n);
    if (e != CZ_OK || n != per) return fail("public inputs of partition %u: %s", p, cz_err_str(e));
  }
  return 0;
}

/* Verify the proofs of partitions first, first + 1, ...: one batch check,
 * and on failure each alone to name the first that fails. Returns the exit
 * status. */
static int verify_all(const cz_groth16_vk *vk, const cz_fr *inputs, size_t per,
                      const uint8_t *bytes, size_t n, size_t first) {
  cz_groth16_proof *proofs = calloc(n, sizeof *proofs);
  if (!proofs) return fail("out of memory");
  int rc = 0;
  for (size_t i = 0; i < n && !rc; i++) {
    cz_err e = cz_groth16_proof_read(&proofs[i], bytes + i * CZ_GROTH16_PROOF_BYTES);
    if (e != CZ_OK) {
      printf("invalid: the proof of partition %zu does not decode: %s\n", first + i, cz_err_str(e));
      rc = 1;
    }
  }
  if (!rc) {
    cz_err e = n == 1 ? cz_groth16_verify(vk, inputs, per, &proofs[0])
                      : cz_groth16_verify_batch(vk, inputs, per, proofs, n);
    if (e == CZ_OK) {
      printf("valid\n");
    } else if (e == CZ_ERR_PROOF_INVALID) {
      size_t bad = 0;
      cz_groth16_pvk *pvk = n > 1 ? cz_groth16_prepare(vk) : NULL;
      for (size_t i = 0; pvk && i < n; i++)
        if (cz_groth16_verify_prepared(pvk, inputs + i * per, per, &proofs[i]) != CZ_OK) {
          bad = i;
          break;
        }
      cz_groth16_pvk_free(pvk);
      printf("invalid: the pairing check of partition %zu fails\n", first + bad);
      rc = 1;
    } else {
      fprintf(stderr, "%s: verification: %s\n", cmd_name, cz_err_str(e));
      rc = 2;
    }
  }
  free(proofs);
  return rc;
}

int cmd_verify_seal(int argc, char **argv) {
  const char *vk_path = NULL, *proof_arg = NULL;
  bool vk_compressed = false, vk_hex = false;
  claim_opts co = {0};
  unsigned long one = ~0ul;
  const cz_opt opts[] = {
      CZ_BENCH_VK_OPTIONS(&vk_path, &vk_hex, &vk_compressed),
      CONFIG_OPTIONS(co),
      CLAIM_OPTIONS(co),
      {"proof", CZ_OPT_STRING, &proof_arg, "HEX_OR_FILE",
       "192 bytes per partition: hex, or a file of raw bytes or hex"},
      {"partitions", CZ_OPT_UINT, &co.partitions, "N",
       "partitions in the proof (default: the sector size's)"},
      {"partition", CZ_OPT_UINT, &one, "K",
       "the proof is partition K's alone (192 bytes), checked against K's inputs"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse_or_help(argc, argv, opts, cmd_name, SEAL_SYNOPSIS);
  if (rc >= 0) return rc;
  if (!vk_path || !proof_arg)
    return fail("missing %s (usage: cuzk-bench %s %s)", !vk_path ? "--vk" : "--proof", cmd_name,
                SEAL_SYNOPSIS);
  seal_claim claim;
  if ((rc = claim_from_options(&claim, &co)) != 0) return rc;

  char what[32];
  uint8_t *bytes = NULL;
  size_t len = 0;
  if ((rc = cz_bench_load_proof(cmd_name, proof_arg, &bytes, &len, what, sizeof what)) != 0)
    return rc;
  if (one != ~0ul && one >= claim.cfg.partitions) {
    free(bytes);
    return fail("--partition %lu: the configuration has %u partitions", one, claim.cfg.partitions);
  }
  const size_t parts = one != ~0ul ? 1 : claim.cfg.partitions;
  if (len != parts * CZ_GROTH16_PROOF_BYTES) {
    fprintf(stderr, "%s: %s holds %zu bytes, expected %zu (%zu partition%s x %d)\n", cmd_name, what,
            len, parts * CZ_GROTH16_PROOF_BYTES, parts, parts == 1 ? "" : "s",
            CZ_GROTH16_PROOF_BYTES);
    free(bytes);
    return 2;
  }

  cz_groth16_vk vk;
  const size_t per = cz_porep_public_input_count(&claim.cfg);
  char who[64];
  snprintf(who, sizeof who, "a %llu-byte sector's PoRep",
           (unsigned long long)claim.cfg.sector_size);
  if ((rc = cz_bench_load_vk_for(cmd_name, &vk, vk_path, vk_hex, vk_compressed, per, who)) != 0) {
    free(bytes);
    return rc;
  }
  cz_fr *inputs = NULL;
  if (!(inputs = malloc(claim.cfg.partitions * per * sizeof *inputs))) {
    rc = fail("out of memory");
  } else if ((rc = claim_public_inputs(&claim, per, inputs)) == 0) {
    size_t first = one != ~0ul ? one : 0;
    rc = verify_all(&vk, inputs + first * per, per, bytes, parts, first);
  }
  fflush(stdout);
  free(inputs);
  free(bytes);
  cz_groth16_vk_free(&vk);
  return rc;
}

/* ---- porep-inputs ------------------------------------------------------- */

static void print_fr(const cz_fr *x) {
  uint8_t b[32];
  cz_fr_to_bytes_le(b, x);
  for (int j = 0; j < 32; j++) printf("%02x", b[j]);
  putchar('\n');
}

int cmd_porep_inputs(int argc, char **argv) {
  cmd_name = "porep-inputs";
  synopsis = INPUTS_SYNOPSIS;
  claim_opts co = {0};
  unsigned long partition = 0;
  const cz_opt opts[] = {
      CONFIG_OPTIONS(co),
      CLAIM_OPTIONS(co),
      {"partition", CZ_OPT_UINT, &partition, "K", "the partition (default 0)"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse_or_help(argc, argv, opts, cmd_name, INPUTS_SYNOPSIS);
  if (rc >= 0) return rc;
  seal_claim claim;
  if ((rc = claim_from_options(&claim, &co)) != 0) return rc;
  if (partition >= claim.cfg.partitions)
    return fail("--partition %lu: the configuration has %u partition%s", partition,
                claim.cfg.partitions, claim.cfg.partitions == 1 ? "" : "s");
  size_t per = cz_porep_public_input_count(&claim.cfg), n = per;
  cz_fr *in = malloc(per * sizeof *in);
  if (!in) return fail("out of memory");
  cz_err e =
      cz_porep_public_inputs(&claim.cfg,
                             &(cz_porep_sealed){claim.sector_id, claim.prover_id, claim.ticket,
                                                claim.seed, claim.comm_d, claim.comm_r},
                             (uint32_t)partition, in, &n);
  if (e == CZ_OK && n == per)
    for (size_t i = 0; i < n; i++) print_fr(&in[i]);
  else rc = fail("public inputs of partition %lu: %s", partition, cz_err_str(e));
  free(in);
  return rc;
}

/* ---- sdr-parents -------------------------------------------------------- */

static const char *api_name(cz_api_version api) {
  return api == CZ_API_1_0_0 ? "1.0.0" : api == CZ_API_1_1_0 ? "1.1.0" : "1.2.0";
}

/* The comma-separated node list into a fresh array (*out, *n; NULL, 0 for
 * an empty list), each below nodes; 0, or 2 after a line naming the entry
 * that is wrong. Nothing is printed before the whole list is read. */
static int parse_nodes(const char *list, uint64_t nodes, uint32_t **out, size_t *n) {
  size_t cap = 1;
  for (const char *p = list; *p; p++) cap += *p == ',';
  *n = 0;
  *out = malloc(cap * sizeof **out);
  if (!*out) return fail("out of memory");
  for (const char *p = list; *p; (*n)++) {
    char *end = (char *)p;
    errno = 0;
    unsigned long long node = isdigit((unsigned char)*p) ? strtoull(p, &end, 10) : 0;
    int rc = 0;
    if (end == p || errno || (*end && *end != ','))
      rc = fail("--nodes: entry %zu is not a decimal node index", *n);
    else if (node >= nodes)
      rc = fail("--nodes: entry %zu: node %llu is not below the graph's %llu nodes", *n, node,
                (unsigned long long)nodes);
    else if (*end && !end[1]) rc = fail("--nodes: a trailing ','");
    if (rc) {
      free(*out);
      *out = NULL;
      return rc;
    }
    (*out)[*n] = (uint32_t)node;
    p = *end ? end + 1 : end;
  }
  return 0;
}

/* SHA-256 of the whole parent cache as rust-fil-proofs writes it (cache.rs
 * ParentCache::generate: per node the 14 parents as u32 LE), the digest
 * storage-proofs-porep/parent_cache.json records for the official graphs.
 * One thread, the nodes in blocks: about 15 us a node on these VMs (8 MiB:
 * 4 s of CPU; 512 MiB: 4 min; 32 GiB: 4 h). */
static int print_cache_digest(const cz_sdr_graph *g) {
  enum { BLOCK = 4096 };
  uint32_t *par = malloc((size_t)BLOCK * CZ_SDR_DEGREE * sizeof *par);
  uint8_t *bytes = malloc((size_t)BLOCK * CZ_SDR_DEGREE * 4);
  if (!par || !bytes) {
    free(par);
    free(bytes);
    return fail("out of memory");
  }
  cz_sha256_ctx ctx;
  cz_err ok = cz_sha256_init(&ctx);
  (void)ok; /* cz_sha256_init always returns CZ_OK (sha256.h) */
  for (uint64_t first = 0; first < g->nodes; first += BLOCK) {
    uint32_t count = (uint32_t)(g->nodes - first < BLOCK ? g->nodes - first : BLOCK);
    cz_sdr_parents_range(g, (uint32_t)first, count, par);
    for (size_t i = 0; i < (size_t)count * CZ_SDR_DEGREE; i++)
      for (int j = 0; j < 4; j++) bytes[4 * i + j] = (uint8_t)(par[i] >> (8 * j));
    cz_sha256_update(&ctx, bytes, (size_t)count * CZ_SDR_DEGREE * 4);
  }
  uint8_t d[CZ_SHA256_BYTES];
  cz_sha256_final(&ctx, d);
  free(par);
  free(bytes);
  printf("parent_cache_digest ");
  for (int j = 0; j < CZ_SHA256_BYTES; j++) printf("%02x", d[j]);
  putchar('\n');
  return 0;
}

int cmd_sdr_parents(int argc, char **argv) {
  cmd_name = "sdr-parents";
  synopsis = PARENTS_SYNOPSIS;
  claim_opts co = {0};
  const char *nodes_arg = NULL;
  bool digest = false;
  const cz_opt opts[] = {
      CONFIG_OPTIONS(co),
      {"nodes", CZ_OPT_STRING, &nodes_arg, "N,N,...",
       "the nodes whose parents to print (or @FILE holding the list)"},
      {"cache-digest", CZ_OPT_FLAG, &digest, NULL,
       "also print the SHA-256 of the whole parent cache (every node: slow past 512 MiB)"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse_or_help(argc, argv, opts, cmd_name, PARENTS_SYNOPSIS);
  if (rc >= 0) return rc;
  cz_porep_config cfg;
  if ((rc = config_from_options(&cfg, &co)) != 0) return rc;
  cz_sdr_graph g;
  if (cz_sdr_graph_init(&g, cfg.sector_size / CZ_SDR_NODE_BYTES, cfg.porep_id, cfg.api) != CZ_OK)
    return fail("cannot build the graph of a %llu-byte sector",
                (unsigned long long)cfg.sector_size);
  /* "@FILE": the list is the file's text (long lists outgrow a command line). */
  uint8_t *text = NULL;
  size_t len = 0;
  char why[WHY_LEN];
  if (nodes_arg && nodes_arg[0] == '@') {
    if (cz_bench_read_file(nodes_arg + 1, &text, &len, why, sizeof why) != CZ_OK)
      return fail("--nodes: %s", why);
    while (len && (text[len - 1] == '\n' || text[len - 1] == ' ')) text[--len] = 0;
    nodes_arg = (const char *)text;
  }
  uint32_t *list = NULL;
  size_t n = 0;
  rc = nodes_arg ? parse_nodes(nodes_arg, g.nodes, &list, &n) : 0;
  free(text);
  if (rc) return rc;
  printf("porep_id ");
  for (int j = 0; j < 32; j++) printf("%02x", cfg.porep_id[j]);
  printf("\napi_version %s\nnodes %llu\n", api_name(cfg.api), (unsigned long long)g.nodes);
  for (size_t i = 0; i < n; i++) {
    uint32_t par[CZ_SDR_DEGREE];
    cz_sdr_parents(&g, list[i], par);
    printf("parents %u", list[i]);
    for (int j = 0; j < CZ_SDR_DEGREE; j++) printf(" %u", par[j]);
    putchar('\n');
  }
  free(list);
  rc = digest ? print_cache_digest(&g) : 0;
  fflush(stdout);
  return rc;
}
