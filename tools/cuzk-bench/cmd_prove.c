/* cuzk-bench prove: setup (cached on disk), synthesis, proof and
 * verification of a synthetic circuit, printing the prover's phase times;
 * with --c1, PoRep C2 of a C1 output (prove_porep.c); with --request (or
 * --vanilla), a WinningPoSt or WindowPoSt partition (prove_post.c), or
 * with a gen-vanilla snap-prove request, every partition of a SnapDeals
 * update (prove_snap.c); with --zkey and --wtns, a circom circuit from its
 * snarkjs key and witness (prove_zkey.c).
 *
 * The parameters are test parameters made here from random toxic waste
 * that is then discarded, kept by the parameter store (porep.h) as
 * <cache>/cuzk-TEST-ONLY-synthetic-<shape>-<K>.params, where <cache> is
 * --cache-dir, else $XDG_CACHE_HOME/cuzk, else ~/.cache/cuzk. They are
 * never Filecoin's parameters.
 *
 * Output: CUZK_TIMING: lines on stderr (from the prover's hook) and
 * `name value unit` lines on stdout. Exit status 0 when every proof
 * verifies, 1 when one does not, 2 on a usage or setup problem. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/args.h"
#include "commands.h"
#include "cuzk/clock.h"
#include "cuzk/params.h"
#include "cuzk/porep.h"
#include "cuzk/groth16_prove.h"
#include "cuzk/cuda_backend.h"
#include "cuzk/synthetic.h"
#include "input.h"
#include "prove_porep.h"
#include "prove_post.h"
#include "prove_snap.h"
#include "prove_zkey.h"
#include "util/msg.h"
#include "common/progress_out.h"

static const char SYNOPSIS[] =
    "(--synthetic chain|sparse --log-constraints K [--count N] [--no-cache] | --c1 FILE "
    "[--out FILE] [--vk-out FILE] [--official-only] [--pce] | --request FILE [--repeat N] | "
    "--vanilla FILE --registered-proof N --randomness HEX --miner-id N [--partition K] | "
    "--zkey FILE --wtns FILE [--repeat N] [--check-key]) "
    "[--threads N] [--cache-dir DIR] [--checked] [--backend cpu|cuda|auto]";

static double ms_since(uint64_t t0) { return (double)(cz_now_ns() - t0) / 1e6; }

/* The store's keygen callback: the synthetic circuit's KEYGEN columns. */
typedef struct {
  const char *shape;
  size_t n;
} synth_keygen;

static cz_err keygen_synthetic(void *vctx, cz_keygen_cols *out, char *msg, size_t msg_len) {
  const synth_keygen *ctx = vctx;
  cz_cs *cs = cz_cs_new(CZ_CS_KEYGEN, NULL);
  if (!cs) return CZ_ERR_NOMEM;
  cz_err e = cz_synthetic_by_name(ctx->shape, cs, ctx->n, NULL, 1);
  if (e == CZ_OK) e = cz_cs_finish(cs);
  if (e == CZ_OK) e = cz_cs_take_keygen(cs, out);
  if (e != CZ_OK) cz_msg(msg, msg_len, "%s", cz_cs_errmsg(cs));
  cz_cs_free(cs);
  return e;
}

/* The backend asked for; auto falls back to the CPU when this build or
 * machine has no CUDA device, and says so on stderr; cuda then fails.
 * NULL: bad name (*rc 2, a usage error) or no device for cuda (*rc 1). */
static const cz_prover_backend *pick_backend(const char *choice, int *rc) {
  char why[256] = "";
  bool fell_back = false;
  const cz_prover_backend *b = cz_prover_pick(choice, &fell_back, why, sizeof why);
  *rc = choice && !strcmp(choice, "cuda") ? 1 : 2;
  if (!b) fprintf(stderr, "prove: --backend %s: %s\n", choice ? choice : "(none)", why);
  else if (fell_back) fprintf(stderr, "prove: CUDA backend unavailable (%s); proving on the CPU\n", why);
  else if (b != cz_prover_cpu()) fprintf(stderr, "prove: backend %s\n", b->name);
  return b;
}

int cmd_prove(int argc, char **argv) {
  const char *shape = NULL, *dir_opt = NULL, *c1 = NULL, *out = NULL, *vk_out = NULL;
  const char *backend_name = "cpu", *request = NULL, *vanilla = NULL, *reg = NULL,
             *rand_hex = NULL;
  unsigned long logc = 0, threads = 0, count = 1, repeat = 1, miner = ~0ul, partition = ~0ul;
  bool no_cache = false, checked = false, official_only = false, pce = false, check_key = false;
  const char *zkey = NULL, *wtns = NULL;
  const cz_opt opts[] = {
      {"zkey", CZ_OPT_STRING, &zkey, "FILE", "a snarkjs Groth16 key (bls12381); needs --wtns"},
      {"wtns", CZ_OPT_STRING, &wtns, "FILE", "--zkey: the circom witness to prove"},
      {"check-key", CZ_OPT_FLAG, &check_key, NULL,
       "--zkey: test every point of the key for the subgroup (slow)"},
      {"c1", CZ_OPT_STRING, &c1, "FILE", "PoRep C2 of this C1 output (JSON or Curio's wrapper)"},
      {"out", CZ_OPT_STRING, &out, "FILE", "--c1: write the proof bytes here (default: hex on stdout)"},
      {"vk-out", CZ_OPT_STRING, &vk_out, "FILE", "--c1: write the verifying key used"},
      {"official-only", CZ_OPT_FLAG, &official_only, NULL,
       "--c1: refuse test parameters (need $FIL_PROOFS_PARAMETER_CACHE/v28-...params)"},
      {"pce", CZ_OPT_FLAG, &pce, NULL,
       "--c1: pre-compiled synthesis (record the circuit once, then witness + M w)"},
      {"request", CZ_OPT_STRING, &request, "FILE",
       "a PoSt partition or an update: request.json (or vanilla.json) as gen-vanilla writes it"},
      {"vanilla", CZ_OPT_STRING, &vanilla, "FILE",
       "a PoSt partition: vanilla.json (a JSON array of base64 bincode proofs)"},
      {"registered-proof", CZ_OPT_STRING, &reg, "N", "--vanilla: RegisteredPoStProof 0-14 or name"},
      {"randomness", CZ_OPT_STRING, &rand_hex, "HEX", "--vanilla: 32 bytes"},
      {"miner-id", CZ_OPT_UINT, &miner, "N", "--vanilla: the miner (prover id = LEB128)"},
      {"partition", CZ_OPT_UINT, &partition, "K", "--vanilla: WindowPoSt partition (default 0)"},
      {"repeat", CZ_OPT_UINT, &repeat, "N",
       "PoSt, --zkey: prove N times with hot parameters (latency)"},
      {"synthetic", CZ_OPT_STRING, &shape, "SHAPE", "chain (dense witness) or sparse (0/1 witness)"},
      {"log-constraints", CZ_OPT_UINT, &logc, "K", "2^K constraints, input constraints included"},
      {"threads", CZ_OPT_UINT, &threads, "N", "thread budget (0 = all cores)"},
      {"count", CZ_OPT_UINT, &count, "N", "proofs to make and verify (default 1)"},
      {"cache-dir", CZ_OPT_STRING, &dir_opt, "DIR",
       "where test parameters are cached (default $XDG_CACHE_HOME/cuzk or ~/.cache/cuzk)"},
      {"no-cache", CZ_OPT_FLAG, &no_cache, NULL, "always run setup; read/write no file"},
      {"checked", CZ_OPT_FLAG, &checked, NULL, "load cached parameters with subgroup checks"},
      {"backend", CZ_OPT_STRING, &backend_name, "NAME",
       "cpu (default), cuda (the GPU, or exit 1 when there is none), or auto (the GPU when "
       "there is one, else the CPU, said on stderr)"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse_or_help(argc, argv, opts, "prove", SYNOPSIS);
  if (rc >= 0) return rc;
  int pick_rc = 0;
  const cz_prover_backend *backend = pick_backend(backend_name, &pick_rc);
  if (!backend) return pick_rc;
  /* What the C1, request and vanilla paths take alike. */
  const cz_bench_prove_opts common = {.out = out, .vk_out = vk_out, .cache_dir = dir_opt,
                                      .official_only = official_only, .checked = checked,
                                      .threads = (unsigned)threads, .pce = pce,
                                      .backend = backend};
  if (zkey || wtns) {
    if (!zkey || !wtns || c1 || shape || request || vanilla || threads > 1024 || repeat < 1 ||
        repeat > 1000) {
      fprintf(stderr, "prove: --zkey and --wtns go together, alone (1 <= --repeat <= 1000)\n");
      return 2;
    }
    cz_bench_zkey_args za = {zkey, wtns, (unsigned)threads, (unsigned)repeat, check_key};
    return cz_bench_prove_zkey(&za);
  }
  if (request || vanilla) {
    if (c1 || shape || (request && vanilla) || threads > 1024 || repeat < 1 || repeat > 1000) {
      fprintf(stderr, "prove: give one of --c1, --request, --vanilla, --synthetic "
                      "(and 1 <= --repeat <= 1000)\n");
      return 2;
    }
    if (request && cz_bench_is_snap_request(request)) {
      cz_bench_snap_args sa = {request, common};
      return cz_bench_prove_snap(&sa);
    }
    uint8_t rnd[32], prover[32];
    cz_bench_post_args pa = {request ? request : vanilla, {0}, (unsigned)repeat, common};
    if (vanilla) {
      pa.opt.kind = reg ? cz_bench_post_kind_arg(reg) : NULL;
      if (!pa.opt.kind || !rand_hex || miner == ~0ul) {
        fprintf(stderr, "prove: --vanilla needs --registered-proof (0-14), --randomness and "
                        "--miner-id\n");
        return 2;
      }
      if (cz_bench_hex32("prove", "randomness", rand_hex, rnd)) return 2;
      cz_prover_id_of_miner(prover, miner);
      pa.opt.randomness = rnd;
      pa.opt.prover_id = prover;
      pa.opt.has_partition = partition != ~0ul;
      pa.opt.partition = partition == ~0ul ? 0 : (uint32_t)partition;
    }
    return cz_bench_prove_post(&pa);
  }
  if (c1 && !shape) {
    if (threads > 1024) {
      fprintf(stderr, "prove: --threads too large\n");
      return 2;
    }
    cz_bench_porep_args pa = {c1, common};
    return cz_bench_prove_porep(&pa);
  }
  if (!shape || c1 || (strcmp(shape, "chain") && strcmp(shape, "sparse"))) {
    fprintf(stderr, "prove: --synthetic must be chain or sparse (usage: cuzk-bench prove %s)\n",
            SYNOPSIS);
    return 2;
  }
  if (logc < 2 || logc > 28 || count < 1 || count > 64 || threads > 1024) {
    fprintf(stderr, "prove: need 2 <= --log-constraints <= 28, 1 <= --count <= 64\n");
    return 2;
  }
  const size_t n = ((size_t)1 << logc) - CZ_SYNTHETIC_INPUTS;
  const unsigned th = (unsigned)threads;

  /* Parameters: the store's test cache, else setup (and cache them). */
  cz_groth16_params params;
  char name[64], msg[512];
  snprintf(name, sizeof name, "synthetic-%s-%lu", shape, logc);
  synth_keygen kctx = {shape, n};
  cz_params_store_opts so = {0};
  so.test_dir = dir_opt;
  so.no_official = true; /* never Filecoin's: no official file to look for */
  so.no_test_cache = no_cache;
  so.checked = checked;
  so.n_threads = th;
  so.keygen = keygen_synthetic;
  so.keygen_ctx = &kctx;
  so.who = "prove";
  so.progress = cz_bench_progress();
  cz_params_origin org;
  uint64_t t0 = cz_now_ns();
  cz_err e = cz_params_store_get(&params, name, CZ_SYNTHETIC_INPUTS, &so, &org, msg, sizeof msg);
  if (e != CZ_OK) {
    fprintf(stderr, "prove: parameters: %s\n", msg);
    return 2;
  }
  printf("%s %.1f ms\n", org.source == CZ_PARAMS_TEST_CACHED ? "load_params" : "setup",
         ms_since(t0));

  /* Synthesis (timed here, reported through the prover's hook). */
  cz_assignment *as = calloc(count, sizeof *as);
  cz_fr *inputs = calloc(count, sizeof *inputs);
  cz_groth16_proof *proofs = calloc(count, sizeof *proofs);
  if (!as || !inputs || !proofs) {
    fprintf(stderr, "prove: out of memory\n");
    return 2;
  }
  t0 = cz_now_ns();
  for (unsigned long i = 0; i < count && e == CZ_OK; i++) {
    cz_fr x;
    cz_fr_from_u64(&x, 3 + i);
    cz_cs *cs = cz_cs_new(CZ_CS_PROVE, NULL);
    if (!cs) { e = CZ_ERR_NOMEM; break; }
    e = cz_synthetic_by_name(shape, cs, n, &x, 1);
    if (e == CZ_OK) e = cz_cs_finish(cs);
    if (e == CZ_OK) e = cz_cs_take_assignment(cs, &as[i]);
    cz_cs_free(cs);
    if (e == CZ_OK) inputs[i] = as[i].inputs[1];
  }
  if (e != CZ_OK) {
    fprintf(stderr, "prove: synthesis: %s\n", cz_err_str(e));
    return 2;
  }
  cz_prove_timing_emit(NULL, CZ_PHASE_SYNTHESIS, cz_now_ns() - t0);

  cz_prove_opts po = {th, NULL, NULL, NULL, msg, sizeof msg};
  t0 = cz_now_ns();
  e = cz_groth16_prove(backend, &params, as, count, proofs, &po);
  double prove_ms = ms_since(t0);
  for (unsigned long i = 0; i < count; i++) cz_assignment_free(&as[i]);
  free(as);
  if (e != CZ_OK) {
    fprintf(stderr, "prove: %s: %s\n", cz_err_str(e), msg);
    return 2;
  }
  printf("constraints %zu count\n", (size_t)1 << logc);
  printf("prove %.1f ms\n", prove_ms / (double)count);

  t0 = cz_now_ns();
  int bad = 0;
  for (unsigned long i = 0; i < count; i++)
    if (cz_groth16_verify(&params.vk, &inputs[i], 1, &proofs[i]) != CZ_OK) bad++;
  if (count > 1 && cz_groth16_verify_batch(&params.vk, inputs, 1, proofs, count) != CZ_OK) bad++;
  printf("verify %.1f ms\n", ms_since(t0));
  printf("%s\n", bad ? "invalid" : "valid");
  free(inputs);
  free(proofs);
  cz_groth16_params_free(&params);
  return bad ? 1 : 0;
}
