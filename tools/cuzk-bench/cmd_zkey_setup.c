/* cuzk-bench zkey-setup: a snarkjs .zkey for a circom .r1cs from random
 * toxic waste that is then discarded (tests and benchmarks only: see
 * cz_zkey_setup in cuzk/zkey.h), and optionally the matching powers of tau,
 * so that `snarkjs groth16 setup` can make the same key for comparison.
 * Output: `name value unit` lines (setup times, file sizes). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "common/args.h"
#include "commands.h"
#include "cuzk/clock.h"
#include "cuzk/zkey.h"
#include "prove_common.h"

static const char SYNOPSIS[] = "--r1cs FILE --zkey OUT [--ptau OUT] [--delta-one] [--threads N]";

static long long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

int cmd_zkey_setup(int argc, char **argv) {
  const char *r1cs = NULL, *zkey = NULL, *ptau = NULL;
  bool delta_one = false;
  unsigned long threads = 0;
  const cz_opt opts[] = {
      {"r1cs", CZ_OPT_STRING, &r1cs, "FILE", "the circuit, as circom writes it (bls12381)"},
      {"zkey", CZ_OPT_STRING, &zkey, "OUT", "the proving key to write"},
      {"ptau", CZ_OPT_STRING, &ptau, "OUT",
       "also the powers of tau of the same toxic waste, for exactly this domain"},
      {"delta-one", CZ_OPT_FLAG, &delta_one, NULL,
       "delta = 1, as `snarkjs groth16 setup` leaves it before contributions"},
      {"threads", CZ_OPT_UINT, &threads, "N", "thread budget (0 = all cores)"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse_or_help(argc, argv, opts, "zkey-setup", SYNOPSIS);
  if (rc >= 0) return rc;
  if (!r1cs || !zkey || threads > 1024) {
    fprintf(stderr, "zkey-setup: --r1cs and --zkey are needed (usage: cuzk-bench zkey-setup %s)\n",
            SYNOPSIS);
    return 2;
  }
  char msg[512];
  cz_circom_r1cs r;
  uint64_t t0 = cz_now_ns();
  if (cz_circom_r1cs_load(&r, r1cs, msg, sizeof msg) != CZ_OK) {
    fprintf(stderr, "zkey-setup: %s: %s\n", r1cs, msg);
    return 2;
  }
  printf("load_r1cs %.1f ms\nconstraints %zu count\n", cz_bench_ms_since(t0), r.n_constraints);
  cz_zkey_toxic t;
  if (cz_zkey_toxic_random(&t) != CZ_OK) {
    fprintf(stderr, "zkey-setup: getrandom failed\n");
    cz_circom_r1cs_free(&r);
    return 2;
  }
  if (delta_one) t.delta = CZ_FR_ONE;
  unsigned power = cz_zkey_domain_power(r.n_constraints + r.n_outputs + r.n_pub_inputs);
  t0 = cz_now_ns();
  cz_err e = cz_zkey_setup(&r, &t, zkey, (unsigned)threads, msg, sizeof msg);
  if (e == CZ_OK)
    printf("zkey_setup %.1f ms\nzkey_bytes %lld B\ndomain_log2 %u\n", cz_bench_ms_since(t0),
           file_size(zkey), power);
  if (e == CZ_OK && ptau) {
    t0 = cz_now_ns();
    e = cz_ptau_write(power, &t, ptau, (unsigned)threads, msg, sizeof msg);
    if (e == CZ_OK)
      printf("ptau_write %.1f ms\nptau_bytes %lld B\n", cz_bench_ms_since(t0), file_size(ptau));
  }
  memset(&t, 0, sizeof t);
  cz_circom_r1cs_free(&r);
  if (e != CZ_OK) fprintf(stderr, "zkey-setup: %s\n", msg);
  return e == CZ_OK ? 0 : 2;
}
