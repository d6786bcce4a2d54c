/* cuzk-bench gen-vanilla winning-post | window-post: seal test sectors in
 * memory, keep their tree R-last, and write the vanilla proofs of one PoSt
 * partition as filecoin-ffi's generate_single_vanilla_proof would, with
 * the request that goes with them (post_request.h).
 *
 *   cuzk-bench gen-vanilla winning-post|window-post --sector-size 2KiB|8MiB
 *       [--sectors N] [--randomness HEX] [--miner-id N]
 *       [--registered-proof N] [--partition K] [--bincode-dir DIR] --out DIR
 *
 * The N sectors are numbered 1..N and sealed (StackedDrg V1_1 of the size)
 * with the default data, ticket 0c..0c, seed 0d..0d and the miner's prover
 * id. WinningPoSt challenges one of them (cz_post_winning_sectors);
 * WindowPoSt proves partition K of ceil(N / sector_count). Only the
 * sectors the partition holds are sealed: the others do not enter it.
 * Defaults: Winning V1 / Window V1_1 of the size, randomness
 * RANDOMNESS_DEFAULT (its top byte keeps it a canonical Fr), miner 1000,
 * partition 0. The proofs are verified natively before anything is
 * written. Exit 0 written, 2 on any problem (one line on stderr). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/args.h"
#include "commands.h"
#include "cuzk/clock.h"
#include "cuzk/porep.h"
#include "cuzk/post.h"
#include "input.h"
#include "post_request.h"
#include "common/progress_out.h"

static const char SYNOPSIS[] =
    "winning-post|window-post --sector-size 2KiB|8MiB [--sectors N] [--randomness HEX] "
    "[--miner-id N] [--registered-proof N] [--partition K] [--bincode-dir DIR] --out DIR";

/* 0x2a.. : byte 31 = 0x2a < 0x73 (r's top byte), so a canonical Fr. */
#define RANDOMNESS_DEFAULT "2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a"

typedef struct {
  const char *size_s, *randomness_s, *registered_s, *out, *bincode_dir;
  unsigned long sectors, miner, partition, threads;
} gen_opts;

/* One line "gen-vanilla: <reason>" on stderr; the unusable-input status. */
#define fail(...) cz_bench_unusable("gen-vanilla", __VA_ARGS__)

/* The registered proof: --registered-proof, else the default of the size. */
static int pick_registered(cz_post_type type, const gen_opts *o, const cz_registered_post **out) {
  uint64_t size = 0;
  if (o->size_s && cz_bench_parse_size(o->size_s, &size) != 0)
    return fail("--sector-size: '%s' is not a size (2KiB, 8MiB or bytes)", o->size_s);
  const cz_registered_post *k = NULL;
  if (o->registered_s) {
    if (!(k = cz_bench_registered_post_arg(o->registered_s)))
      return fail("--registered-proof: '%s' is not a registered PoSt proof (0-14 or a name)",
                  o->registered_s);
    if (k->type != type)
      return fail("--registered-proof %u (%s) is a %s proof, not %s", k->id, k->name,
                  cz_bench_post_type_name(k->type), cz_bench_post_type_name(type));
    if (o->size_s && k->sector_size != size)
      return fail("--registered-proof %u (%s) is for %s sectors, not --sector-size %s", k->id,
                  k->name, k->size_name, o->size_s);
  } else {
    if (!o->size_s)
      return fail("need --sector-size or --registered-proof (usage: gen-vanilla %s)", SYNOPSIS);
    /* Winning V1 (0-4), Window V1_1 (10-14). */
    for (uint32_t id = type == CZ_POST_WINNING ? 0 : 10; id < (type == CZ_POST_WINNING ? 5u : 15u);
         id++)
      if (cz_registered_post_by_id(id)->sector_size == size) k = cz_registered_post_by_id(id);
    if (!k) return fail("--sector-size %s is not a Filecoin sector size", o->size_s);
  }
  *out = k;
  return 0;
}

/* Seal sector `id` and prove it at sector_index: r and *blob filled. */
static int prove_sector(const cz_registered_post *k, const uint8_t randomness[32],
                        const uint8_t prover_id[32], uint64_t id, uint64_t sector_index,
                        unsigned threads, cz_post_sector *sec, cz_bench_blob *blob) {
  cz_porep_seal_input in;
  memset(&in, 0, sizeof in);
  in.registered = cz_registered_porep_by_sector_size(k->sector_size, true);
  in.sector_id = id;
  in.progress = cz_bench_progress();
  memcpy(in.prover_id, prover_id, 32);
  memset(in.ticket, 0x0c, 32);
  memset(in.seed, 0x0d, 32);
  if (!in.registered) return fail("%s: no seal proof of %s to seal with", k->name, k->size_name);
  char why[512] = "";
  cz_porep_c1 c1;
  cz_porep_replica rep;
  uint64_t t0 = cz_now_ns();
  cz_err e = cz_porep_seal_replica(&in, NULL, &c1, &rep, threads, why, sizeof why);
  if (e != CZ_OK) return fail("sealing sector %" PRIu64 ": %s: %s", id, cz_err_str(e), why);
  cz_porep_c1_free(&c1);
  fprintf(stderr, "sealed sector %" PRIu64 " in %.1f ms\n", id, (double)(cz_now_ns() - t0) / 1e6);
  uint64_t ch[66];
  cz_post_vanilla v;
  e = k->config_challenge_count > 66
          ? CZ_ERR_INVALID_ARG
          : cz_post_sector_challenges(k, randomness, sector_index, id, ch, why, sizeof why);
  if (e == CZ_OK)
    e = cz_post_vanilla_prove(k,
                              &(cz_post_replica){id, rep.comm_r, &rep.comm_c, &rep.comm_r_last,
                                                 &rep.tree_r_last},
                              ch, k->config_challenge_count, &v, why, sizeof why);
  sec->sector_id = id;
  memcpy(sec->comm_r, rep.comm_r, 32);
  cz_porep_replica_free(&rep);
  if (e != CZ_OK) return fail("sector %" PRIu64 ": %s", id, why);
  blob->len = cz_post_vanilla_write(NULL, &v);
  blob->bytes = blob->len ? malloc(blob->len) : NULL;
  if (!blob->bytes || cz_post_vanilla_write(blob->bytes, &v) != blob->len) {
    cz_post_vanilla_free(&v);
    return fail("sector %" PRIu64 ": cannot encode the vanilla proof", id);
  }
  cz_post_vanilla_free(&v);
  return 0;
}

/* Parse the written bytes back and verify the partition, as a consumer will. */
static int verify_written(const cz_bench_post_request *r) {
  cz_post_vanilla *v = calloc(r->n_vanilla, sizeof *v);
  char why[512] = "";
  cz_err e = v ? CZ_OK : CZ_ERR_NOMEM;
  for (size_t i = 0; e == CZ_OK && i < r->n_vanilla; i++)
    e = cz_post_vanilla_parse(&v[i], r->vanilla[i].bytes, r->vanilla[i].len, i, why, sizeof why);
  if (e == CZ_OK)
    e = cz_post_vanilla_verify(&(cz_post_challenge_seed){r->registered, r->randomness, r->prover_id,
                                                         r->partition},
                               r->sectors, v, r->n_vanilla, why, sizeof why);
  for (size_t i = 0; v && i < r->n_vanilla; i++) cz_post_vanilla_free(&v[i]);
  free(v);
  return e == CZ_OK ? 0 : fail("the generated proofs do not verify: %s", why);
}

/* mkdir -p. */
static int make_dir(const char *dir) {
  char p[4096];
  if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p) return fail("%s: path too long", dir);
  for (char *s = p + 1; *s; s++)
    if (*s == '/') {
      *s = 0;
      if (mkdir(p, 0777) != 0 && errno != EEXIST)
        return fail("cannot create %s: %s", p, strerror(errno));
      *s = '/';
    }
  if (mkdir(p, 0777) != 0 && errno != EEXIST)
    return fail("cannot create %s: %s", p, strerror(errno));
  return 0;
}

static int write_bincode(const char *dir, const cz_bench_post_request *r) {
  if (make_dir(dir)) return 2;
  for (size_t i = 0; i < r->n_vanilla; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/sector-%" PRIu64 ".vproof", dir, r->sectors[i].sector_id);
    char why[4400];
    if (cz_bench_write_atomic(path, r->vanilla[i].bytes, r->vanilla[i].len, why, sizeof why))
      return fail("%s", why);
  }
  return 0;
}

static int run(cz_post_type type, const gen_opts *o) {
  const cz_registered_post *k = NULL;
  int rc = pick_registered(type, o, &k);
  if (rc) return rc;
  if (!o->out) return fail("need --out DIR (usage: gen-vanilla %s)", SYNOPSIS);
  if (o->sectors == 0) return fail("--sectors: at least 1");
  cz_bench_post_request r;
  memset(&r, 0, sizeof r);
  r.registered = k;
  r.has_miner_id = true;
  r.miner_id = o->miner;
  cz_prover_id_of_miner(r.prover_id, r.miner_id);
  if ((rc = cz_bench_hex32("gen-vanilla", "randomness",
                           o->randomness_s ? o->randomness_s : RANDOMNESS_DEFAULT, r.randomness)))
    return rc;
  cz_fr fr;
  if (cz_fr_from_bytes_le(&fr, r.randomness) != CZ_OK)
    return fail(
        "--randomness: not a canonical field element (little-endian value >= r; "
        "Lotus clears the top two bits of byte 31)");
  size_t parts = cz_post_partitions(k, o->sectors);
  if (o->partition >= parts)
    return fail("--partition %lu: %s over %lu sectors has %zu partition%s", o->partition, k->name,
                o->sectors, parts, parts == 1 ? "" : "s");
  r.partition = (uint32_t)o->partition;
  /* The sectors of the partition, and each one's position in the PoSt. */
  uint64_t first = 0, n = 1;
  char why[512] = "";
  if (type == CZ_POST_WINNING) {
    cz_err e =
        cz_post_winning_sectors(k, r.randomness, r.prover_id, o->sectors, &first, why, sizeof why);
    if (e != CZ_OK) return fail("--randomness: %s", why);
  } else {
    first = (uint64_t)r.partition * k->sector_count;
    n = o->sectors - first < k->sector_count ? o->sectors - first : k->sector_count;
  }
  r.sectors = calloc(n, sizeof *r.sectors);
  r.vanilla = calloc(n, sizeof *r.vanilla);
  if (!r.sectors || !r.vanilla) {
    cz_bench_post_request_free(&r);
    return fail("out of memory");
  }
  for (uint64_t i = 0; i < n && rc == 0; i++) {
    /* WinningPoSt's one sector is sector 0 of its challenges. */
    uint64_t index = type == CZ_POST_WINNING ? 0 : first + i;
    rc = prove_sector(k, r.randomness, r.prover_id, first + i + 1, index, (unsigned)o->threads,
                      &r.sectors[i], &r.vanilla[i]);
    if (rc == 0) r.n_sectors = r.n_vanilla = (size_t)i + 1;
  }
  if (rc == 0) rc = verify_written(&r);
  if (rc == 0) rc = make_dir(o->out);
  if (rc == 0 && cz_bench_post_request_write(o->out, &r, why, sizeof why) != CZ_OK)
    rc = fail("%s", why);
  if (rc == 0 && o->bincode_dir) rc = write_bincode(o->bincode_dir, &r);
  if (rc == 0) {
    printf("registered_proof %u %s\n", k->id, k->name);
    printf("partition %u of %zu\n", r.partition, parts);
    for (size_t i = 0; i < r.n_sectors; i++)
      printf("sector %" PRIu64 " %zu bytes\n", r.sectors[i].sector_id, r.vanilla[i].len);
    printf("request %s/request.json\n", o->out);
  }
  cz_bench_post_request_free(&r);
  return rc;
}

int cmd_gen_vanilla_post(int argc, char **argv) {
  int type = cz_bench_post_type_of(argv[0]);
  gen_opts o = {.sectors = 1, .miner = 1000};
  const cz_opt opts[] = {
      {"sector-size", CZ_OPT_STRING, &o.size_s, "SIZE", "2KiB or 8MiB (or bytes)"},
      {"sectors", CZ_OPT_UINT, &o.sectors, "N", "sectors 1..N (default 1)"},
      {"randomness", CZ_OPT_STRING, &o.randomness_s, "HEX", "32-byte randomness (default 2a..2a)"},
      {"miner-id", CZ_OPT_UINT, &o.miner, "N", "miner actor id (default 1000)"},
      {"registered-proof", CZ_OPT_STRING, &o.registered_s, "N",
       "RegisteredPoStProof number or name (default Winning V1 / Window V1_1)"},
      {"partition", CZ_OPT_UINT, &o.partition, "K", "WindowPoSt partition (default 0)"},
      {"bincode-dir", CZ_OPT_STRING, &o.bincode_dir, "DIR",
       "also write each proof as DIR/sector-<id>.vproof"},
      {"threads", CZ_OPT_UINT, &o.threads, "N", "thread budget (0 = all cores)"},
      {"out", CZ_OPT_STRING, &o.out, "DIR", "where to write request.json and vanilla.json"},
      {NULL, 0, NULL, NULL, NULL},
  };
  if (type < 0) return fail("'%s' is not winning-post or window-post", argv[0]);
  int rc = cz_opts_parse_or_help(argc, argv, opts, "gen-vanilla", SYNOPSIS);
  if (rc >= 0) return rc;
  return run((cz_post_type)type, &o);
}
