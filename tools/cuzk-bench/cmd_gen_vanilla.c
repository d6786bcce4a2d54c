/* cuzk-bench gen-vanilla porep: seal a test sector and write its C1 output
 * (SealCommitPhase1Output JSON, as filecoin-proofs writes it; with --curio
 * wrapped as Curio sends it to cuzk). The vanilla proofs are verified
 * natively before anything is written. gen-vanilla winning-post and
 * window-post are in cmd_gen_vanilla_post.c, snap-prove in cmd_gen_vanilla_snap.c.
 *
 *   cuzk-bench gen-vanilla porep --sector-size 2KiB|8MiB|512MiB
 *       [--v1 | --synthetic | --ni] [--data FILE] [--sector-id N] [--prover-id HEX] [--ticket HEX]
 *       [--seed HEX] [--curio] --out FILE
 *   cuzk-bench gen-vanilla porep --sparse --sector-size 2KiB|8MiB|512MiB|32GiB|64GiB [--v1] ...
 * Defaults: deterministic data, sector 1, prover id 0, ticket 0x0c..,
 * seed 0x0d... --synthetic seals a SyntheticPoRep sector (registered proof
 * 10-12: the C1 holds the proofs of the challenges the seed selects from
 * its synthetic set), --ni an NI-PoRep one (15-17: challenges from comm_r,
 * 13 partitions; the seed is written but unused). --sparse writes a TEST
 * INPUT, not a sealed sector's C1 (cz_porep_seal_sparse): an all-zero
 * (committed-capacity) sector of any size of which only the challenged
 * nodes and their parents are labelled, in seconds at 32 GiB; it
 * verifies and proves like a sealed one, and says so on stderr. Exit 0
 * written, 2 on any problem (one line on stderr). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "commands.h"
#include "cuzk/clock.h"
#include "cuzk/porep.h"
#include "cuzk/groth16_prove.h"
#include "base64.h"
#include "input.h"
#include "common/progress_out.h"

static const char SYNOPSIS[] =
    "porep --sector-size 2KiB|8MiB|512MiB [--v1|--synthetic|--ni] [--data FILE] [--sector-id N] "
    "[--prover-id HEX] [--ticket HEX] [--seed HEX] [--curio] --out FILE\n"
    "       cuzk-bench gen-vanilla porep --sparse --sector-size 2KiB|8MiB|512MiB|32GiB|64GiB "
    "[--v1] "
    "[--sector-id N] [--prover-id HEX] [--ticket HEX] [--seed HEX] [--curio] --out FILE\n"
    "         (--sparse: a TEST INPUT, not a sealed sector: an all-zero sector of which only the\n"
    "          challenged nodes and their parents are labelled; any size, no sealing)\n"
    "       cuzk-bench gen-vanilla winning-post|window-post --help (PoSt vanilla proofs)\n"
    "       cuzk-bench gen-vanilla snap-prove --help (SnapDeals partition proofs)";

/* The options of gen-vanilla porep as given. */
typedef struct {
  const char *size_s, *data_path, *out_path, *prover_s, *ticket_s, *seed_s;
  unsigned long sector, threads;
  bool v1, synthetic, ni, curio, sparse;
} porep_opts;

/* The seal input the options ask for, *size the sector's bytes and *data
 * the sector's contents read from --data (NULL: generated; the caller
 * frees it). 0, or 2 after a line on stderr. */
static int seal_input(const porep_opts *o, cz_porep_seal_input *in, uint64_t *size,
                      uint8_t **data) {
  *data = NULL;
  if (!o->size_s || cz_bench_parse_size(o->size_s, size) != 0 || !o->out_path) {
    fprintf(stderr, "gen-vanilla: need --sector-size and --out (usage: gen-vanilla %s)\n",
            SYNOPSIS);
    return 2;
  }
  if (o->v1 + o->synthetic + o->ni > 1) {
    fprintf(stderr, "gen-vanilla: --v1, --synthetic and --ni exclude one another\n");
    return 2;
  }
  if (o->sparse && (o->synthetic || o->ni || o->data_path)) {
    fprintf(stderr,
            "gen-vanilla: --sparse excludes --synthetic, --ni and --data (its sector is "
            "all zero, its challenges interactive)\n");
    return 2;
  }
  *in = (cz_porep_seal_input){0};
  in->registered = cz_registered_porep_by_sector_size(*size, !o->v1);
  /* The feature registered proofs follow V1_1's ids: 5 + s -> 10 + s, 15 + s. */
  if (in->registered && (o->synthetic || o->ni))
    in->registered = cz_registered_porep_by_id(in->registered->id + (o->ni ? 10 : 5));
  in->sector_id = o->sector;
  in->progress = cz_bench_progress();
  memset(in->ticket, 0x0c, 32);
  memset(in->seed, 0x0d, 32);
  if (!in->registered) {
    fprintf(stderr, "gen-vanilla: %s is not a Filecoin sector size\n", o->size_s);
    return 2;
  }
  int rc;
  if ((o->prover_s &&
       (rc = cz_bench_hex32("gen-vanilla", "prover-id", o->prover_s, in->prover_id))) ||
      (o->ticket_s && (rc = cz_bench_hex32("gen-vanilla", "ticket", o->ticket_s, in->ticket))) ||
      (o->seed_s && (rc = cz_bench_hex32("gen-vanilla", "seed", o->seed_s, in->seed))))
    return rc;
  if (!o->data_path) return 0;
  char why[512] = "";
  size_t n;
  if (cz_bench_read_file(o->data_path, data, &n, why, sizeof why) != CZ_OK) {
    fprintf(stderr, "gen-vanilla: %s\n", why);
    return 2;
  }
  if (n != *size) {
    fprintf(stderr, "gen-vanilla: %s holds %zu bytes, the sector %llu\n", o->data_path, n,
            (unsigned long long)*size);
    free(*data);
    *data = NULL;
    return 2;
  }
  in->data = *data;
  return 0;
}

/* The C1 as JSON (wrapped as Curio sends it when curio), written
 * atomically to path. 0, or 2 after a line on stderr. */
static int write_c1(const cz_porep_c1 *c1, const porep_opts *o, uint64_t size) {
  char *json = NULL, *wrapped = NULL;
  size_t len = 0, wrapped_len = 0;
  cz_err e = cz_porep_c1_to_json(c1, &json, &len);
  if (e == CZ_OK && o->curio &&
      !(wrapped = cz_bench_curio_wrap(json, len, o->sector, size, &wrapped_len)))
    e = CZ_ERR_NOMEM;
  const char *text = wrapped ? wrapped : json;
  char werr[4400] = "out of memory";
  if (e == CZ_OK)
    e = cz_bench_write_atomic(o->out_path, text, wrapped ? wrapped_len : len, werr, sizeof werr);
  free(json);
  free(wrapped);
  if (e != CZ_OK) {
    fprintf(stderr, "gen-vanilla: %s\n", werr);
    return 2;
  }
  printf("c1 %s\n", o->out_path);
  return 0;
}

/* Seal, verify the vanilla proofs natively, write the C1. */
static int gen_porep(const porep_opts *o) {
  cz_porep_seal_input in;
  uint64_t size = 0;
  uint8_t *data = NULL;
  int rc = seal_input(o, &in, &size, &data);
  if (rc) return rc;
  char why[512] = "";
  cz_porep_c1 c1;
  uint64_t t0 = cz_now_ns();
  size_t touched = 0;
  cz_err e = o->sparse ? cz_porep_seal_sparse(&in, NULL, &c1, &touched, why, sizeof why)
                       : cz_porep_seal(&in, &c1, (unsigned)o->threads, why, sizeof why);
  free(data);
  if (e != CZ_OK) {
    fprintf(stderr, "gen-vanilla: sealing: %s: %s\n", cz_err_str(e), why);
    return 2;
  }
  printf("%s %.1f ms\n", o->sparse ? "sparse" : "seal", (double)(cz_now_ns() - t0) / 1e6);
  if (o->sparse) {
    printf("touched_nodes %zu nodes\n", touched);
    fprintf(stderr,
            "gen-vanilla: --sparse: writing a TEST INPUT, not a sealed sector: an all-zero %s "
            "sector of which only %zu nodes (the challenges and their parents) are labelled; "
            "no replica of it exists\n",
            in.registered->name, touched);
  }
  t0 = cz_now_ns();
  if (cz_porep_vanilla_verify(&c1, why, sizeof why) != CZ_OK) {
    fprintf(stderr, "gen-vanilla: the vanilla proofs do not verify: %s\n", why);
    rc = 2;
  } else {
    printf("verify_vanilla %.1f ms\n", (double)(cz_now_ns() - t0) / 1e6);
    rc = write_c1(&c1, o, size);
  }
  cz_porep_c1_free(&c1);
  return rc;
}

int cmd_gen_vanilla(int argc, char **argv) {
  porep_opts o = {.sector = 1};
  const cz_opt opts[] = {
      {"sector-size", CZ_OPT_STRING, &o.size_s, "SIZE",
       "2KiB, 8MiB or 512MiB (or bytes); with --sparse also 32GiB, 64GiB"},
      {"sparse", CZ_OPT_FLAG, &o.sparse, NULL,
       "TEST INPUT, not a sealed sector: an all-zero sector with only the challenged nodes and "
       "their parents labelled (any size, no sealing)"},
      {"v1", CZ_OPT_FLAG, &o.v1, NULL, "StackedDrg...V1 (API 1.0.0) instead of V1_1"},
      {"synthetic", CZ_OPT_FLAG, &o.synthetic, NULL, "..._Feat_SyntheticPoRep (API 1.2.0)"},
      {"ni", CZ_OPT_FLAG, &o.ni, NULL, "..._Feat_NonInteractivePoRep (API 1.2.0)"},
      {"data", CZ_OPT_STRING, &o.data_path, "FILE",
       "sector data, fr32-padded (default: generated)"},
      {"sector-id", CZ_OPT_UINT, &o.sector, "N", "sector number (default 1)"},
      {"prover-id", CZ_OPT_STRING, &o.prover_s, "HEX", "32-byte prover id (default zero)"},
      {"ticket", CZ_OPT_STRING, &o.ticket_s, "HEX", "32-byte ticket (default 0c..0c)"},
      {"seed", CZ_OPT_STRING, &o.seed_s, "HEX", "32-byte interactive seed (default 0d..0d)"},
      {"curio", CZ_OPT_FLAG, &o.curio, NULL, "wrap as Curio's {SectorNum, Phase1Out, SectorSize}"},
      {"threads", CZ_OPT_UINT, &o.threads, "N", "thread budget (0 = all cores)"},
      {"out", CZ_OPT_STRING, &o.out_path, "FILE", "where to write the C1 JSON"},
      {NULL, 0, NULL, NULL, NULL},
  };
  if (argc < 2 || argv[1][0] == '-') {
    bool want_help = argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"));
    cz_opts_usage(want_help ? stdout : stderr, "gen-vanilla", SYNOPSIS, opts);
    return want_help ? 0 : 2;
  }
  if (!strcmp(argv[1], "winning-post") || !strcmp(argv[1], "window-post"))
    return cmd_gen_vanilla_post(argc - 1, argv + 1);
  if (!strcmp(argv[1], "snap-prove")) return cmd_gen_vanilla_snap(argc - 1, argv + 1);
  if (strcmp(argv[1], "porep") != 0) {
    fprintf(stderr, "gen-vanilla: '%s': expected porep, winning-post, window-post or snap-prove\n",
            argv[1]);
    return 2;
  }
  int rc = cz_opts_parse_or_help(argc - 1, argv + 1, opts, "gen-vanilla", SYNOPSIS);
  if (rc >= 0) return rc;
  return gen_porep(&o);
}
