/* cuzk-bench verify-vanilla: the native PoSt vanilla verifier
 * (cz_post_vanilla_verify) on proofs from files.
 *
 *   cuzk-bench verify-vanilla [--kind winning-post|window-post]
 *       --registered-proof N --randomness HEX (--prover-id HEX | --miner-id N)
 *       [--partition K] --vanilla FILE [FILE...]
 *   cuzk-bench verify-vanilla --request request.json
 *   cuzk-bench verify-vanilla --request vanilla.json --registered-proof N ...
 *   cuzk-bench verify-vanilla --request snap-request.json   (an update)
 *
 * Each FILE is one bincode FallbackPoStSectorProof or a vanilla.json array
 * of them (post_request.h); the proofs, in order, are the partition's
 * sectors, whose ids and comm_r are taken from the proofs themselves. With
 * --request a request.json, the PoSt type, registered proof, randomness, miner, partition and
 * sectors come from the request (no such option may go with it), and each
 * proof must match its sector; a bare vanilla.json given as --request is
 * read by the same reader with those values from the options.
 * Exit status: 0 valid ("valid" on stdout); 1 invalid ("invalid: <the
 * first failure>" on stderr), which includes proofs shaped for another
 * registered proof; 2 unusable input (a bad or missing option, an
 * unreadable file, a proof that does not parse, the wrong number of
 * proofs), one line on stderr. A gen-vanilla snap-prove request is checked
 * partition by partition with cz_snap_vanilla_verify (the same statuses). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "commands.h"
#include "cuzk/post.h"
#include "cuzk/snap.h"
#include "input.h"
#include "post_request.h"
#include "prove_snap.h"
#include "snap_request.h"

static const char SYNOPSIS[] =
    "[--kind winning-post|window-post] --registered-proof N --randomness HEX "
    "(--prover-id HEX | --miner-id N) [--partition K] --vanilla FILE [FILE...]\n"
    "       cuzk-bench verify-vanilla --request request.json";

#define MAX_FILES 64

/* One line "verify-vanilla: <reason>" on stderr; the unusable-input status. */
#define fail(...) cz_bench_unusable("verify-vanilla", __VA_ARGS__)

typedef struct {
  const char *kind, *registered, *randomness, *prover, *request;
  unsigned long miner, partition;
  bool has_miner, has_partition;
  const char *files[MAX_FILES];
  size_t n_files;
} vv_opts;

/* Take "--vanilla FILE [FILE...]" (and "--vanilla=FILE") out of argv, since
 * the option parser holds one value per option; the rest go to *rest. */
static int take_files(int argc, char **argv, vv_opts *o, char **rest, int *n_rest) {
  *n_rest = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    bool eq = !strncmp(a, "--vanilla=", 10);
    if (i == 0 || (!eq && strcmp(a, "--vanilla"))) {
      rest[(*n_rest)++] = argv[i];
      continue;
    }
    size_t before = o->n_files;
    if (eq && a[10]) o->files[o->n_files++] = a + 10;
    while (!eq && i + 1 < argc && strncmp(argv[i + 1], "--", 2) && o->n_files < MAX_FILES)
      o->files[o->n_files++] = argv[++i];
    if (o->n_files == before) return fail("--vanilla: needs a FILE");
    if (o->n_files == MAX_FILES) return fail("--vanilla: at most %d files", MAX_FILES - 1);
  }
  return 0;
}

/* Parse the raw proofs; file names the source of proof i for messages. */
static int parse_all(const cz_bench_blob *b, size_t n, const char *const *file,
                     cz_post_vanilla *v) {
  char why[512] = "";
  for (size_t i = 0; i < n; i++)
    if (cz_post_vanilla_parse(&v[i], b[i].bytes, b[i].len, i, why, sizeof why) != CZ_OK)
      return fail("%s: %s", file[i], why);
  return 0;
}

/* The request, from --request or from the options and files. *file gets
 * the source of each proof. */
static int load(const vv_opts *o, cz_bench_post_request *r, const char ***file) {
  char why[512] = "";
  uint8_t randomness[32], prover[32];
  const cz_registered_post *k = NULL;
  int rc = 0;
  if (o->registered && !(k = cz_bench_registered_post_arg(o->registered)))
    return fail("--registered-proof: '%s' is not a registered PoSt proof (0-14 or a name)",
                o->registered);
  if (o->prover && o->has_miner) return fail("--prover-id and --miner-id exclude each other");
  if (o->randomness &&
      (rc = cz_bench_hex32("verify-vanilla", "randomness", o->randomness, randomness)))
    return rc;
  if (o->prover && (rc = cz_bench_hex32("verify-vanilla", "prover-id", o->prover, prover)))
    return rc;
  if (o->has_miner) cz_prover_id_of_miner(prover, o->miner);
  if (o->partition > UINT32_MAX) return fail("--partition %lu: too large", o->partition);
  if (o->request) {
    /* A request carries everything; a bare vanilla.json takes the options. */
    cz_bench_post_options opt = {k, o->randomness ? randomness : NULL,
                                 o->prover || o->has_miner ? prover : NULL, o->has_partition,
                                 (uint32_t)o->partition};
    if (o->n_files) return fail("--request and --vanilla exclude each other");
    if (cz_bench_post_request_read(o->request, &opt, r, why, sizeof why) != CZ_OK)
      return fail("%s", why);
    if (r->sectors && (k || o->randomness || o->prover || o->has_miner || o->has_partition))
      return fail(
          "%s is a request, which sets the registered proof, randomness, miner and "
          "partition: drop those options",
          o->request);
    *file = calloc(r->n_vanilla ? r->n_vanilla : 1, sizeof **file);
    if (!*file) return fail("out of memory");
    for (size_t i = 0; i < r->n_vanilla; i++) (*file)[i] = o->request;
    return 0;
  }
  if (!k) return fail("missing --registered-proof (usage: verify-vanilla %s)", SYNOPSIS);
  if (!o->randomness) return fail("missing --randomness");
  if (!o->prover && !o->has_miner) return fail("missing --prover-id (or --miner-id)");
  if (!o->n_files) return fail("missing --vanilla FILE (or --request FILE)");
  r->registered = k;
  memcpy(r->randomness, randomness, 32);
  memcpy(r->prover_id, prover, 32);
  r->partition = (uint32_t)o->partition;
  for (size_t f = 0; f < o->n_files; f++) {
    size_t before = r->n_vanilla;
    if (cz_bench_vanilla_load(o->files[f], &r->vanilla, &r->n_vanilla, why, sizeof why) != CZ_OK)
      return fail("%s", why);
    const char **nf = realloc(*file, (r->n_vanilla ? r->n_vanilla : 1) * sizeof *nf);
    if (!nf) return fail("out of memory");
    *file = nf;
    for (size_t i = before; i < r->n_vanilla; i++) nf[i] = o->files[f];
  }
  return 0;
}

static int check_counts(const vv_opts *o, const cz_bench_post_request *r) {
  const cz_registered_post *k = r->registered;
  if (o->kind) {
    int t = cz_bench_post_type_of(o->kind);
    if (t < 0) return fail("--kind: '%s' is not winning-post or window-post", o->kind);
    if (t != (int)k->type)
      return fail("--kind %s, but --registered-proof %u (%s) is a %s proof", o->kind, k->id,
                  k->name, cz_bench_post_type_name(k->type));
  }
  if (k->type == CZ_POST_WINNING && r->partition != 0)
    return fail("--partition %u: WinningPoSt has only partition 0", r->partition);
  size_t most = k->type == CZ_POST_WINNING ? k->config_sector_count : k->sector_count;
  if (r->n_vanilla == 0 || r->n_vanilla > most)
    return fail("%zu vanilla proofs: a %s partition of %s takes %s%zu", r->n_vanilla,
                cz_bench_post_type_name(k->type), k->name,
                k->type == CZ_POST_WINNING ? "exactly " : "1 to ", most);
  return 0;
}

static int verify(const vv_opts *o) {
  cz_bench_post_request r;
  memset(&r, 0, sizeof r);
  const char **file = NULL;
  cz_post_vanilla *v = NULL;
  cz_post_sector *sec = NULL;
  int rc = load(o, &r, &file);
  if (rc == 0) rc = check_counts(o, &r);
  if (rc == 0) {
    v = calloc(r.n_vanilla, sizeof *v);
    sec = calloc(r.n_vanilla, sizeof *sec);
    rc = v && sec ? parse_all(r.vanilla, r.n_vanilla, file, v) : fail("out of memory");
  }
  if (rc == 0) {
    /* The sectors: the request's, else each proof's own. */
    for (size_t i = 0; i < r.n_vanilla; i++) {
      sec[i].sector_id = v[i].sector_id;
      cz_fr_to_bytes_le(sec[i].comm_r, &v[i].comm_r);
    }
    const cz_post_sector *s = r.sectors ? r.sectors : sec;
    char why[512] = "";
    cz_err e = cz_post_vanilla_verify(&(cz_post_challenge_seed){r.registered, r.randomness,
                                                                r.prover_id, r.partition},
                                      s, v, r.n_vanilla, why, sizeof why);
    if (e == CZ_OK) {
      printf("valid\n");
    } else if (e == CZ_ERR_PROOF_INVALID || e == CZ_ERR_INVALID_ARG) {
      fprintf(stderr, "invalid: %s\n", why);
      rc = 1;
    } else {
      rc = fail("%s", why);
    }
  }
  for (size_t i = 0; v && i < r.n_vanilla; i++) cz_post_vanilla_free(&v[i]);
  free(v);
  free(sec);
  free(file);
  cz_bench_post_request_free(&r);
  return rc;
}

/* An update request: every partition proof parsed and verified natively. */
static int verify_snap(const char *path) {
  char why[512] = "";
  cz_bench_snap_request r;
  if (cz_bench_snap_request_read(path, &r, why, sizeof why) != CZ_OK) return fail("%s", why);
  int rc = 0;
  if (r.n_vanilla != r.registered->shape.partitions)
    rc = fail("%s: %zu partition proofs, %s has %u partitions", path, r.n_vanilla,
              r.registered->name, r.registered->shape.partitions);
  for (uint32_t k = 0; rc == 0 && k < r.n_vanilla; k++) {
    cz_snap_partition p;
    cz_err e = cz_snap_partition_parse(&p, r.registered, k,
                                       &(cz_snap_comms){r.comm_r_old, r.comm_d_new, r.comm_r_new},
                                       r.vanilla[k].bytes, r.vanilla[k].len, why, sizeof why);
    if (e != CZ_OK) {
      rc = fail("%s", why);
      break;
    }
    e = cz_snap_partition_verify(&p, why, sizeof why);
    cz_snap_partition_free(&p);
    if (e == CZ_ERR_PROOF_INVALID) {
      fprintf(stderr, "invalid: %s\n", why);
      rc = 1;
    } else if (e != CZ_OK) {
      rc = fail("%s", why);
    }
  }
  if (rc == 0) printf("valid\n");
  cz_bench_snap_request_free(&r);
  return rc;
}

int cmd_verify_vanilla(int argc, char **argv) {
  vv_opts o;
  memset(&o, 0, sizeof o);
  char **rest = calloc((size_t)argc + 1, sizeof *rest);
  if (!rest) return fail("out of memory");
  int n_rest = 0, rc = take_files(argc, argv, &o, rest, &n_rest);
  const char *miner_s = NULL, *partition_s = NULL, *vanilla_unused = NULL; /* take_files */
  const cz_opt opts[] = {
      {"kind", CZ_OPT_STRING, &o.kind, "KIND", "winning-post or window-post (checked)"},
      {"registered-proof", CZ_OPT_STRING, &o.registered, "N", "RegisteredPoStProof number or name"},
      {"randomness", CZ_OPT_STRING, &o.randomness, "HEX", "32-byte randomness"},
      {"prover-id", CZ_OPT_STRING, &o.prover, "HEX", "32-byte prover id"},
      {"miner-id", CZ_OPT_STRING, &miner_s, "N", "miner actor id (prover id = its LEB128)"},
      {"partition", CZ_OPT_STRING, &partition_s, "K", "WindowPoSt partition (default 0)"},
      {"vanilla", CZ_OPT_STRING, &vanilla_unused, "FILE...",
       "bincode proofs or vanilla.json arrays"},
      {"request", CZ_OPT_STRING, &o.request, "FILE", "a request.json (gen-vanilla's)"},
      {NULL, 0, NULL, NULL, NULL},
  };
  if (rc == 0) rc = cz_opts_parse_or_help(n_rest, rest, opts, "verify-vanilla", SYNOPSIS);
  free(rest);
  if (rc >= 0) return rc;
  char *end = NULL;
  if (miner_s) {
    errno = 0;
    o.miner = strtoul(miner_s, &end, 10);
    if (!*miner_s || *end || miner_s[0] == '-' || errno)
      return fail("--miner-id: '%s' is not a number", miner_s);
    o.has_miner = true;
  }
  if (partition_s) {
    errno = 0;
    o.partition = strtoul(partition_s, &end, 10);
    if (!*partition_s || *end || partition_s[0] == '-' || errno)
      return fail("--partition: '%s' is not a number", partition_s);
    o.has_partition = true;
  }
  if (o.request && cz_bench_is_snap_request(o.request)) {
    if (o.n_files || o.kind || o.registered || o.randomness || o.prover || miner_s || partition_s)
      return fail("%s is an update request, which carries everything: drop the other options",
                  o.request);
    return verify_snap(o.request);
  }
  return verify(&o);
}
