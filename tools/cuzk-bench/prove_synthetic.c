/* cuzk-bench prove --synthetic: a synthetic circuit (src/cs/synthetic)
 * proved on test parameters made here from random toxic waste that is then
 * discarded, kept by the parameter store (porep.h) as
 * <cache>/cuzk-TEST-ONLY-synthetic-<shape>-<K>.params. They are never
 * Filecoin's parameters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/clock.h"
#include "cuzk/params.h"
#include "cuzk/porep.h"
#include "cuzk/synthetic.h"
#include "common/progress_out.h"
#include "prove_synthetic.h"
#include "util/msg.h"

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

/* The parameters for n aux-and-input constraints: the store's test cache,
 * else setup (cached unless no_cache). 0, or 2 after a line on stderr. */
static int synthetic_params(const cz_bench_synthetic_args *a, size_t n, cz_groth16_params *params) {
  char name[64], msg[512];
  snprintf(name, sizeof name, "synthetic-%s-%u", a->shape, a->log_constraints);
  synth_keygen kctx = {a->shape, n};
  cz_params_store_opts so = {0};
  so.test_dir = a->o.cache_dir;
  so.no_official = true; /* never Filecoin's: no official file to look for */
  so.no_test_cache = a->no_cache;
  so.checked = a->o.checked;
  so.decode = a->o.decoded_key;
  so.n_threads = a->o.threads;
  so.keygen = keygen_synthetic;
  so.keygen_ctx = &kctx;
  so.who = "prove";
  so.progress = cz_bench_progress();
  cz_params_origin org;
  uint64_t t0 = cz_now_ns();
  if (cz_params_store_get(params, name, CZ_SYNTHETIC_INPUTS, &so, &org, msg, sizeof msg) != CZ_OK) {
    fprintf(stderr, "prove: parameters: %s\n", msg);
    return 2;
  }
  printf("%s %.1f ms\n", org.source == CZ_PARAMS_TEST_CACHED ? "load_params" : "setup",
         cz_bench_ms_since(t0));
  return 0;
}

/* count instances (input x = 3 + i), their assignments in as[i] and their
 * public input in inputs[i]; timed through the prover's hook. */
static cz_err synthesize_all(const char *shape, size_t n, unsigned count, cz_assignment *as,
                             cz_fr *inputs) {
  uint64_t t0 = cz_now_ns();
  cz_err e = CZ_OK;
  for (unsigned i = 0; i < count && e == CZ_OK; i++) {
    cz_fr x;
    cz_fr_from_u64(&x, 3 + i);
    cz_cs *cs = cz_cs_new(CZ_CS_PROVE, NULL);
    if (!cs) return CZ_ERR_NOMEM;
    e = cz_synthetic_by_name(shape, cs, n, &x, 1);
    if (e == CZ_OK) e = cz_cs_finish(cs);
    if (e == CZ_OK) e = cz_cs_take_assignment(cs, &as[i]);
    cz_cs_free(cs);
    if (e == CZ_OK) inputs[i] = as[i].inputs[1];
  }
  if (e == CZ_OK) cz_prove_timing_emit(NULL, CZ_PHASE_SYNTHESIS, cz_now_ns() - t0);
  return e;
}

/* Each proof alone, then (count > 1) all of them as a batch: how many
 * checks failed. */
static int verify_all(const cz_groth16_vk *vk, const cz_fr *inputs, const cz_groth16_proof *proofs,
                      unsigned count) {
  uint64_t t0 = cz_now_ns();
  int bad = 0;
  for (unsigned i = 0; i < count; i++)
    if (cz_groth16_verify(vk, &inputs[i], 1, &proofs[i]) != CZ_OK) bad++;
  if (count > 1 && cz_groth16_verify_batch(vk, inputs, 1, proofs, count) != CZ_OK) bad++;
  printf("verify %.1f ms\n", cz_bench_ms_since(t0));
  printf("%s\n", bad ? "invalid" : "valid");
  return bad;
}

/* Synthesis, the proofs and their check on loaded parameters. */
static int prove_on(const cz_bench_synthetic_args *a, size_t n, const cz_groth16_params *params,
                    cz_assignment *as, cz_fr *inputs, cz_groth16_proof *proofs) {
  cz_err e = synthesize_all(a->shape, n, a->count, as, inputs);
  if (e != CZ_OK) {
    fprintf(stderr, "prove: synthesis: %s\n", cz_err_str(e));
    return 2;
  }
  char msg[512] = "";
  cz_prove_opts po = {a->o.threads, NULL, NULL, NULL, msg, sizeof msg};
  uint64_t t0 = cz_now_ns();
  e = cz_groth16_prove(a->o.backend, params, as, a->count, proofs, &po);
  double prove_ms = cz_bench_ms_since(t0);
  /* The witnesses are done with: not held through verification. */
  for (unsigned i = 0; i < a->count; i++) cz_assignment_free(&as[i]);
  if (e != CZ_OK) {
    fprintf(stderr, "prove: %s: %s\n", cz_err_str(e), msg);
    return 2;
  }
  printf("constraints %zu count\n", (size_t)1 << a->log_constraints);
  printf("prove %.1f ms\n", prove_ms / (double)a->count);
  return verify_all(&params->vk, inputs, proofs, a->count) ? 1 : 0;
}

int cz_bench_prove_synthetic(const cz_bench_synthetic_args *a) {
  const size_t n = ((size_t)1 << a->log_constraints) - CZ_SYNTHETIC_INPUTS;
  cz_groth16_params params;
  int rc = synthetic_params(a, n, &params);
  if (rc) return rc;
  cz_assignment *as = calloc(a->count, sizeof *as);
  cz_fr *inputs = calloc(a->count, sizeof *inputs);
  cz_groth16_proof *proofs = calloc(a->count, sizeof *proofs);
  if (!as || !inputs || !proofs) {
    fprintf(stderr, "prove: out of memory\n");
    rc = 2;
  } else {
    rc = prove_on(a, n, &params, as, inputs, proofs);
  }
  for (unsigned i = 0; as && i < a->count; i++) cz_assignment_free(&as[i]); /* after a failure */
  free(as);
  free(inputs);
  free(proofs);
  cz_groth16_params_free(&params);
  return rc;
}
