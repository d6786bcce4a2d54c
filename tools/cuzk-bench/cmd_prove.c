/* cuzk-bench prove: the options and the dispatch. With --synthetic,
 * setup (cached on disk), synthesis, proof and verification of a synthetic
 * circuit, printing the prover's phase times (prove_synthetic.c); with
 * --c1, PoRep C2 of a C1 output (prove_porep.c); with --request (or
 * --vanilla), a WinningPoSt or WindowPoSt partition (prove_post.c), or
 * with a gen-vanilla snap-prove request, every partition of a SnapDeals
 * update (prove_snap.c); with --zkey and --wtns, a circom circuit from its
 * snarkjs key and witness (prove_zkey.c).
 *
 * Test parameters live in --cache-dir, else $XDG_CACHE_HOME/cuzk, else
 * ~/.cache/cuzk; they are never Filecoin's parameters.
 *
 * Output: CUZK_TIMING: lines on stderr (from the prover's hook) and
 * `name value unit` lines on stdout. Exit status 0 when every proof
 * verifies, 1 when one does not, 2 on a usage or setup problem. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/args.h"
#include "commands.h"
#include "cuzk/porep.h"
#include "cuzk/cuda_backend.h"
#include "input.h"
#include "prove_porep.h"
#include "prove_post.h"
#include "prove_snap.h"
#include "prove_synthetic.h"
#include "prove_zkey.h"

static const char SYNOPSIS[] =
    "(--synthetic chain|sparse --log-constraints K [--count N] [--no-cache] | --c1 FILE "
    "[--out FILE] [--vk-out FILE] [--official-only] [--pce] [--partition K] [--repeat N] | "
    "--request FILE [--repeat N] | "
    "--vanilla FILE --registered-proof N --randomness HEX --miner-id N [--partition K] | "
    "--zkey FILE --wtns FILE [--repeat N] [--check-key]) "
    "[--threads N] [--cache-dir DIR] [--checked] [--decoded-key] [--backend cpu|cuda|auto]";

/* The backend asked for; auto falls back to the CPU when this build or
 * machine has no CUDA device, and says so on stderr; cuda then fails.
 * NULL: bad name (*rc 2, a usage error) or no device for cuda (*rc 1). */
static const cz_prover_backend *pick_backend(const char *choice, int *rc) {
  char why[256] = "";
  bool fell_back = false;
  const cz_prover_backend *b = cz_prover_pick(choice, &fell_back, why, sizeof why);
  *rc = choice && !strcmp(choice, "cuda") ? 1 : 2;
  if (!b) fprintf(stderr, "prove: --backend %s: %s\n", choice ? choice : "(none)", why);
  else if (fell_back)
    fprintf(stderr, "prove: CUDA backend unavailable (%s); proving on the CPU\n", why);
  else if (b != cz_prover_cpu()) fprintf(stderr, "prove: backend %s\n", b->name);
  return b;
}

/* The PoSt and SnapDeals options as given. */
typedef struct {
  const char *request, *vanilla, *reg, *rand_hex;
  unsigned long miner, partition, repeat;
} post_opts;

/* --request (a PoSt partition or a SnapDeals update) or --vanilla (a PoSt
 * partition from its parts); other_input: --c1 or --synthetic was given
 * too, a usage error. */
static int prove_post_or_snap(const post_opts *p, bool other_input,
                              const cz_bench_prove_opts *common) {
  if (other_input || (p->request && p->vanilla)) {
    fprintf(stderr, "prove: give one of --c1, --request, --vanilla, --synthetic\n");
    return 2;
  }
  if (p->request && cz_bench_is_snap_request(p->request)) {
    cz_bench_snap_args sa = {p->request, *common};
    return cz_bench_prove_snap(&sa);
  }
  uint8_t rnd[32], prover[32];
  cz_bench_post_args pa = {p->request ? p->request : p->vanilla, {0}, (unsigned)p->repeat, *common};
  if (p->vanilla) {
    pa.opt.registered = p->reg ? cz_bench_registered_post_arg(p->reg) : NULL;
    if (!pa.opt.registered || !p->rand_hex || p->miner == ~0ul) {
      fprintf(stderr,
              "prove: --vanilla needs --registered-proof (0-14), --randomness and "
              "--miner-id\n");
      return 2;
    }
    if (cz_bench_hex32("prove", "randomness", p->rand_hex, rnd)) return 2;
    cz_prover_id_of_miner(prover, p->miner);
    pa.opt.randomness = rnd;
    pa.opt.prover_id = prover;
    pa.opt.has_partition = p->partition != ~0ul;
    pa.opt.partition = p->partition == ~0ul ? 0 : (uint32_t)p->partition;
  }
  return cz_bench_prove_post(&pa);
}

/* Every option of prove, as given. */
typedef struct {
  const char *shape, *cache_dir, *c1, *out, *vk_out, *backend, *zkey, *wtns;
  post_opts post;
  unsigned long logc, threads, count;
  bool no_cache, checked, official_only, pce, check_key, decoded_key;
} prove_opts;

/* The proof that the inputs name: a circom circuit, a PoSt partition or
 * SnapDeals update, a PoRep C2, or a synthetic circuit. */
static int prove_dispatch(const prove_opts *o, const cz_bench_prove_opts *common) {
  const post_opts *p = &o->post;
  /* --repeat: one bound for every input that proves more than once */
  if ((o->zkey || o->wtns || o->c1 || p->request || p->vanilla) &&
      (p->repeat < 1 || p->repeat > 1000)) {
    fprintf(stderr, "prove: need 1 <= --repeat <= 1000\n");
    return 2;
  }
  if (o->zkey || o->wtns) {
    if (!o->zkey || !o->wtns || o->c1 || o->shape || p->request || p->vanilla) {
      fprintf(stderr, "prove: --zkey and --wtns go together, alone\n");
      return 2;
    }
    cz_bench_zkey_args za = {o->zkey, o->wtns, (unsigned)o->threads, (unsigned)p->repeat,
                             o->check_key};
    return cz_bench_prove_zkey(&za);
  }
  if (p->request || p->vanilla) return prove_post_or_snap(p, o->c1 || o->shape, common);
  if (o->c1 && !o->shape) {
    cz_bench_porep_args pa = {o->c1, *common, p->partition, (unsigned)p->repeat};
    return cz_bench_prove_porep(&pa);
  }
  if (!o->shape || o->c1 || (strcmp(o->shape, "chain") && strcmp(o->shape, "sparse"))) {
    fprintf(stderr, "prove: --synthetic must be chain or sparse (usage: cuzk-bench prove %s)\n",
            SYNOPSIS);
    return 2;
  }
  if (o->logc < 2 || o->logc > 28 || o->count < 1 || o->count > 64) {
    fprintf(stderr, "prove: need 2 <= --log-constraints <= 28, 1 <= --count <= 64\n");
    return 2;
  }
  cz_bench_synthetic_args sa = {o->shape, (unsigned)o->logc, (unsigned)o->count, o->no_cache,
                                *common};
  return cz_bench_prove_synthetic(&sa);
}

int cmd_prove(int argc, char **argv) {
  prove_opts o = {.backend = "cpu",
                  .count = 1,
                  .post = {.miner = ~0ul, .partition = ~0ul, .repeat = 1}};
  post_opts *p = &o.post;
  const cz_opt opts[] = {
      {"zkey", CZ_OPT_STRING, &o.zkey, "FILE", "a snarkjs Groth16 key (bls12381); needs --wtns"},
      {"wtns", CZ_OPT_STRING, &o.wtns, "FILE", "--zkey: the circom witness to prove"},
      {"check-key", CZ_OPT_FLAG, &o.check_key, NULL,
       "--zkey: test every point of the key for the subgroup (slow)"},
      {"c1", CZ_OPT_STRING, &o.c1, "FILE", "PoRep C2 of this C1 output (JSON or Curio's wrapper)"},
      {"out", CZ_OPT_STRING, &o.out, "FILE",
       "--c1: write the proof bytes here (default: hex on stdout)"},
      {"vk-out", CZ_OPT_STRING, &o.vk_out, "FILE", "--c1: write the verifying key used"},
      {"official-only", CZ_OPT_FLAG, &o.official_only, NULL,
       "--c1: refuse test parameters (need $FIL_PROOFS_PARAMETER_CACHE/v28-...params)"},
      {"pce", CZ_OPT_FLAG, &o.pce, NULL,
       "--c1: pre-compiled synthesis (record the circuit once, then witness + M w)"},
      {"request", CZ_OPT_STRING, &p->request, "FILE",
       "a PoSt partition or an update: request.json (or vanilla.json) as gen-vanilla writes it"},
      {"vanilla", CZ_OPT_STRING, &p->vanilla, "FILE",
       "a PoSt partition: vanilla.json (a JSON array of base64 bincode proofs)"},
      {"registered-proof", CZ_OPT_STRING, &p->reg, "N",
       "--vanilla: RegisteredPoStProof 0-14 or name"},
      {"randomness", CZ_OPT_STRING, &p->rand_hex, "HEX", "--vanilla: 32 bytes"},
      {"miner-id", CZ_OPT_UINT, &p->miner, "N", "--vanilla: the miner (prover id = LEB128)"},
      {"partition", CZ_OPT_UINT, &p->partition, "K",
       "--vanilla: WindowPoSt partition (default 0); --c1: prove this partition alone"},
      {"repeat", CZ_OPT_UINT, &p->repeat, "N",
       "PoSt, --zkey, --c1: prove N times with hot parameters (latency)"},
      {"synthetic", CZ_OPT_STRING, &o.shape, "SHAPE",
       "chain (dense witness) or sparse (0/1 witness)"},
      {"log-constraints", CZ_OPT_UINT, &o.logc, "K", "2^K constraints, input constraints included"},
      {"threads", CZ_OPT_UINT, &o.threads, "N", "thread budget (0 = all cores)"},
      {"count", CZ_OPT_UINT, &o.count, "N", "proofs to make and verify (default 1)"},
      {"cache-dir", CZ_OPT_STRING, &o.cache_dir, "DIR",
       "where test parameters are cached (default $XDG_CACHE_HOME/cuzk or ~/.cache/cuzk)"},
      {"no-cache", CZ_OPT_FLAG, &o.no_cache, NULL, "always run setup; read/write no file"},
      {"checked", CZ_OPT_FLAG, &o.checked, NULL, "load cached parameters with subgroup checks"},
      {"decoded-key", CZ_OPT_FLAG, &o.decoded_key, NULL,
       "decode the key's points into memory (default: map the file, decode as the MSMs read)"},
      {"backend", CZ_OPT_STRING, &o.backend, "NAME",
       "cpu (default), cuda (the GPU, or exit 1 when there is none), or auto (the GPU when "
       "there is one, else the CPU, said on stderr)"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse_or_help(argc, argv, opts, "prove", SYNOPSIS);
  if (rc >= 0) return rc;
  int pick_rc = 0;
  const cz_prover_backend *backend = pick_backend(o.backend, &pick_rc);
  if (!backend) return pick_rc;
  if (o.threads > 1024) {
    fprintf(stderr, "prove: --threads too large (at most 1024)\n");
    return 2;
  }
  /* What every path takes alike. */
  const cz_bench_prove_opts common = {.out = o.out,
                                      .vk_out = o.vk_out,
                                      .cache_dir = o.cache_dir,
                                      .official_only = o.official_only,
                                      .checked = o.checked,
                                      .decoded_key = o.decoded_key,
                                      .threads = (unsigned)o.threads,
                                      .pce = o.pce,
                                      .backend = backend};
  return prove_dispatch(&o, &common);
}
