/* cuzk-bench gen-vanilla snap-prove: seal a committed-capacity test sector
 * in memory, encode new deal data into it (cz_snap_sector_make), and write
 * every partition's PartitionProof as filecoin-ffi's
 * generate_partition_proofs would (bincode, cz_snap_vanilla_write), with
 * the request that goes with them (snap_request.h).
 *
 *   cuzk-bench gen-vanilla snap-prove --sector-size 2KiB|8MiB
 *       [--data FILE] [--sector-id N] [--bincode-dir DIR] [--threads N] --out DIR
 *
 * --data: sector_size bytes of fr32-padded new data (default: the
 * deterministic test data). The registered proof is the update proof of
 * the size (StackedDrg<size>V1, ApiVersion 1.1.0). Every proof is parsed
 * back and verified natively before anything is written. Prints the
 * commitments and a `single -t snap` command line. Exit 0 written, 2 on any
 * problem (one line on stderr). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/args.h"
#include "commands.h"
#include "cuzk/clock.h"
#include "cuzk/snap.h"
#include "input.h"
#include "snap_request.h"

static const char SYNOPSIS[] =
    "snap-prove --sector-size 2KiB|8MiB [--data FILE] [--sector-id N] [--bincode-dir DIR] "
    "[--threads N] --out DIR";

/* One line "gen-vanilla: <reason>" on stderr; the unusable-input status. */
#define fail(...) cz_bench_unusable("gen-vanilla", __VA_ARGS__)

static int make_dir(const char *dir) {
  if (mkdir(dir, 0777) != 0 && errno != EEXIST)
    return fail("cannot create %s: %s", dir, strerror(errno));
  return 0;
}

/* Prove partition k, check the bytes parse back and verify, keep them. */
static int prove_partition(const cz_snap_sector *sec, uint32_t k, cz_bench_blob *out) {
  cz_snap_trees t;
  cz_snap_sector_trees(sec, &t);
  cz_snap_partition_proof p, q;
  char why[512] = "";
  cz_err e = cz_snap_vanilla_prove(&sec->registered->shape, k, &t, &p, why, sizeof why);
  if (e != CZ_OK) return fail("partition %u: %s", k, why);
  out->len = cz_snap_vanilla_write(NULL, &p);
  out->bytes = out->len ? malloc(out->len) : NULL;
  bool ok = out->bytes && cz_snap_vanilla_write(out->bytes, &p) == out->len;
  cz_snap_vanilla_free(&p);
  if (!ok) return fail("partition %u: cannot encode the proof", k);
  e = cz_snap_vanilla_parse(&q, out->bytes, out->len, k, why, sizeof why);
  if (e == CZ_OK)
    e = cz_snap_vanilla_verify(&sec->registered->shape, k,
                               &(cz_snap_comms){sec->comm_r_old, sec->comm_d_new, sec->comm_r_new},
                               &q, k, why, sizeof why);
  cz_snap_vanilla_free(&q);
  return e == CZ_OK ? 0 : fail("the generated proofs do not verify: %s", why);
}

static void print_hex(const char *name, const uint8_t b[32]) {
  printf("%s ", name);
  for (int i = 0; i < 32; i++) printf("%02x", b[i]);
  printf("\n");
}

static int write_bincode(const char *dir, const cz_bench_snap_request *r) {
  if (make_dir(dir)) return 2;
  for (size_t i = 0; i < r->n_vanilla; i++) {
    char path[4096], why[4400];
    snprintf(path, sizeof path, "%s/partition-%zu.vproof", dir, i);
    if (cz_bench_write_atomic(path, r->vanilla[i].bytes, r->vanilla[i].len, why, sizeof why))
      return fail("%s", why);
  }
  return 0;
}

int cmd_gen_vanilla_snap(int argc, char **argv) {
  const char *size_s = NULL, *data_path = NULL, *out = NULL, *bincode_dir = NULL;
  unsigned long sector = 1, threads = 0;
  const cz_opt opts[] = {
      {"sector-size", CZ_OPT_STRING, &size_s, "SIZE", "2KiB or 8MiB (or bytes)"},
      {"data", CZ_OPT_STRING, &data_path, "FILE",
       "new deal data, fr32-padded (default: generated)"},
      {"sector-id", CZ_OPT_UINT, &sector, "N", "sector number (default 1)"},
      {"bincode-dir", CZ_OPT_STRING, &bincode_dir, "DIR",
       "also write each proof as DIR/partition-<k>.vproof"},
      {"threads", CZ_OPT_UINT, &threads, "N", "thread budget (0 = all cores)"},
      {"out", CZ_OPT_STRING, &out, "DIR", "where to write request.json and vanilla.json"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse_or_help(argc, argv, opts, "gen-vanilla", SYNOPSIS);
  if (rc >= 0) return rc;
  uint64_t size = 0;
  if (!size_s || !out)
    return fail("need --sector-size and --out (usage: gen-vanilla %s)", SYNOPSIS);
  if (cz_bench_parse_size(size_s, &size) != 0)
    return fail("--sector-size: '%s' is not a size (2KiB, 8MiB or bytes)", size_s);
  const cz_registered_snap *k = cz_registered_snap_by_sector_size(size);
  if (!k || size > (8ull << 20))
    return fail("--sector-size %s: test updates are made for 2KiB and 8MiB sectors", size_s);
  uint8_t *data = NULL;
  char why[512] = "";
  if (data_path) {
    size_t n = 0;
    if (cz_bench_read_file(data_path, &data, &n, why, sizeof why) != CZ_OK) return fail("%s", why);
    if (n != size) {
      free(data);
      return fail("%s holds %zu bytes, the sector %" PRIu64, data_path, n, size);
    }
  }
  cz_snap_sector sec;
  uint64_t t0 = cz_now_ns();
  cz_err e = cz_snap_sector_make(k, sector, data, (unsigned)threads, &sec, why, sizeof why);
  free(data);
  if (e != CZ_OK) return fail("%s: %s", cz_err_str(e), why);
  fprintf(stderr, "sealed and updated sector %lu in %.1f ms\n", sector,
          (double)(cz_now_ns() - t0) / 1e6);
  cz_bench_snap_request r;
  memset(&r, 0, sizeof r);
  r.registered = k;
  memcpy(r.comm_r_old, sec.comm_r_old, 32);
  memcpy(r.comm_d_new, sec.comm_d_new, 32);
  memcpy(r.comm_r_new, sec.comm_r_new, 32);
  r.vanilla = calloc(k->shape.partitions, sizeof *r.vanilla);
  rc = r.vanilla ? 0 : fail("out of memory");
  for (uint32_t p = 0; rc == 0 && p < k->shape.partitions; p++) {
    rc = prove_partition(&sec, p, &r.vanilla[p]);
    if (rc == 0) r.n_vanilla = p + 1;
  }
  cz_snap_sector_free(&sec);
  if (rc == 0) rc = make_dir(out);
  if (rc == 0 && cz_bench_snap_request_write(out, &r, why, sizeof why) != CZ_OK)
    rc = fail("%s", why);
  if (rc == 0 && bincode_dir) rc = write_bincode(bincode_dir, &r);
  if (rc == 0) {
    printf("registered_proof %u %s\n", k->id, k->name);
    printf("partitions %zu\n", r.n_vanilla);
    for (size_t i = 0; i < r.n_vanilla; i++)
      printf("partition %zu %zu bytes\n", i, r.vanilla[i].len);
    print_hex("comm_r_old", r.comm_r_old);
    print_hex("comm_d_new", r.comm_d_new);
    print_hex("comm_r_new", r.comm_r_new);
    printf("request %s/request.json\n", out);
  }
  cz_bench_snap_request_free(&r);
  return rc;
}
