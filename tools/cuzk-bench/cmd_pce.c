/* cuzk-bench pce: make or check the recorded circuit shape the daemon keeps
 * in its parameter cache (pce-<circuit>-<key>.bin, cuzk/provers.h).
 *
 *   cuzk-bench pce --build|--check --kind porep|winning-post|window-post
 *       --sector-size S [--dir DIR]
 * --build records the shape and saves it (replacing any file); --check
 * loads the file and says whether it is usable. DIR defaults to
 * $FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters,
 * as the daemon's srs.param_cache. Output: "name value unit" lines (the
 * path, its size, the time and MB/s). Exit 0 done / usable, 1 failed /
 * missing, stale or corrupt (the reason on stderr), 2 bad options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "common/args.h"
#include "common/bench_clock.h"
#include "cuzk/porep.h"
#include "cuzk/post.h"
#include "cuzk/provers.h"
#include "input.h"

static cz_err record_porep(const void *k, cz_pce **out, char *msg, size_t len) {
  return cz_porep_record_shape(k, out, msg, len);
}
static cz_err record_post(const void *k, cz_pce **out, char *msg, size_t len) {
  return cz_post_record_shape(k, out, msg, len);
}

/* The circuit the daemon proves for that kind and size: PoRep V1_1, the
 * first Winning / Window registered proof of the size (Window V1 and V1_1 share it). */
typedef struct {
  const char *family, *param_revision;
  const void *registered;
  cz_shape_record_fn record;
  char param_name[256];
} circuit;

static bool find_circuit(circuit *c, const char *kind, uint64_t bytes) {
  memset(c, 0, sizeof *c);
  if (!strcmp(kind, "porep")) {
    const cz_registered_porep *k = cz_registered_porep_by_sector_size(bytes, true);
    if (!k) return false;
    *c = (circuit){"porep", CZ_POREP_CIRCUIT_REVISION, k, record_porep, ""};
    cz_porep_param_name(k, c->param_name, sizeof c->param_name);
    return true;
  }
  bool winning = !strcmp(kind, "winning-post");
  if (!winning && strcmp(kind, "window-post")) return false;
  for (uint32_t id = winning ? 0 : 5; id < (winning ? 5u : 10u); id++) {
    const cz_registered_post *k = cz_registered_post_by_id(id);
    if (k->sector_size != bytes) continue;
    *c = (circuit){winning ? "winning" : "wpost", CZ_POST_CIRCUIT_REVISION, k, record_post, ""};
    cz_post_param_name(k, c->param_name, sizeof c->param_name);
    return true;
  }
  return false;
}

int cmd_pce(int argc, char **argv) {
  const char *kind = NULL, *size = NULL, *dir = NULL;
  bool build = false, check = false, help = false;
  const cz_opt opts[] = {
      {"build", CZ_OPT_FLAG, &build, NULL, "record the shape and save it"},
      {"check", CZ_OPT_FLAG, &check, NULL, "load the saved shape and check it"},
      {"kind", CZ_OPT_STRING, &kind, "K", "porep, winning-post or window-post"},
      {"sector-size", CZ_OPT_STRING, &size, "S", "2KiB, 8MiB, 512MiB, 32GiB or 64GiB"},
      {"dir", CZ_OPT_STRING, &dir, "DIR",
       "the parameter cache (default $FIL_PROOFS_PARAMETER_CACHE or "
       "/var/tmp/filecoin-proof-parameters)"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse(argc, argv, opts, &help);
  if (rc) return rc;
  if (help) {
    cz_opts_usage(stdout, "pce", "--build|--check --kind K --sector-size S [--dir DIR]", opts);
    printf("\nexit codes: 0 done / usable, 1 failed / missing, stale or corrupt, 2 bad options\n");
    return 0;
  }
  uint64_t bytes = 0;
  circuit c;
  if (build == check || !kind || !size || cz_bench_parse_size(size, &bytes) != 0 ||
      !find_circuit(&c, kind, bytes)) {
    fprintf(stderr,
            "pce: give one of --build and --check, --kind porep|winning-post|window-post "
            "and a registered --sector-size\n");
    return 2;
  }
  if (!dir) dir = getenv("FIL_PROOFS_PARAMETER_CACHE");
  if (!dir || !*dir) dir = "/var/tmp/filecoin-proof-parameters";
  char id[24], path[4096], msg[512] = "";
  uint8_t key[CZ_PCE_KEY_BYTES];
  cz_provers_circuit_id(id, sizeof id, c.family, bytes);
  cz_prover_shape_key(c.param_name, c.param_revision, key);
  if (!cz_prover_shape_path(path, sizeof path, dir, id, key)) {
    fprintf(stderr, "pce: --dir is too long\n");
    return 2;
  }
  printf("pce.circuit %s id\npce.path %s path\n", id, path);
  double t0 = cz_bench_wall_s();
  cz_pce *p = NULL;
  if (build) {
    unlink(path); /* so that cz_prover_shape_get records it */
    cz_shape_origin origin;
    cz_shape_source from = {dir, id, c.param_name, c.param_revision, c.record, c.registered};
    cz_err e = cz_prover_shape_get(&from, &p, &origin, msg, sizeof msg);
    if (e != CZ_OK || origin != CZ_SHAPE_RECORDED) {
      fprintf(stderr, "pce: %s\n",
              e != CZ_OK ? msg : "recorded, but the file could not be written");
      cz_pce_free(p);
      return 1;
    }
  } else if (cz_pce_load(path, key, &p, msg, sizeof msg) != CZ_PCE_FILE_OK) {
    fprintf(stderr, "pce: %s\n", msg);
    return 1;
  }
  double s = cz_bench_wall_s() - t0;
  cz_pce_info info;
  cz_pce_get_info(p, &info);
  printf("pce.constraints %zu constraints\npce.bytes %zu B\npce.%s %.3f s\n", info.n_constraints,
         info.bytes, build ? "build" : "load", s);
  if (!build && s > 0) printf("pce.load_rate %.0f MB_per_s\n", (double)info.bytes / s / 1e6);
  cz_pce_free(p);
  return 0;
}
