/* cuzk-bench prove --request: WinningPoSt or a WindowPoSt partition in
 * process. Parameters come from the store: the official v28 file when
 * $FIL_PROOFS_PARAMETER_CACHE holds it, else cached (or freshly made) test
 * parameters, said on stderr. The proof is verified before it is written
 * (cz_post_prove). --repeat N proves the same partition N times with hot
 * parameters: the figure a WinningPoSt's deadline depends on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/clock.h"
#include "cuzk/post.h"
#include "input.h"
#include "prove_post.h"

static int load_partition(const cz_bench_post_args *a, cz_post_partition *p) {
  char why[512] = "";
  cz_bench_post_request r;
  uint64_t t0 = cz_now_ns();
  cz_err e = cz_bench_post_request_read(a->request, &a->opt, &r, why, sizeof why);
  if (e != CZ_OK) {
    fprintf(stderr, "prove: %s\n", why);
    return 2;
  }
  const uint8_t **vp = calloc(r.n_vanilla ? r.n_vanilla : 1, sizeof *vp);
  size_t *lens = calloc(r.n_vanilla ? r.n_vanilla : 1, sizeof *lens);
  if (!vp || !lens) e = CZ_ERR_NOMEM;
  for (size_t i = 0; e == CZ_OK && i < r.n_vanilla; i++)
    vp[i] = r.vanilla[i].bytes, lens[i] = r.vanilla[i].len;
  if (e == CZ_OK)
    e = cz_post_partition_parse(p,
                                &(cz_post_challenge_seed){r.registered, r.randomness, r.prover_id,
                                                          r.partition},
                                vp, lens, r.n_vanilla, why, sizeof why);
  /* A request names its sectors: each proof must be its sector's. */
  for (size_t i = 0; e == CZ_OK && r.sectors && i < r.n_sectors; i++)
    if (p->sectors[i].sector_id != r.sectors[i].sector_id ||
        memcmp(p->sectors[i].comm_r, r.sectors[i].comm_r, 32) != 0) {
      snprintf(why, sizeof why, "vanilla_proofs[%zu] is sector %llu's, the request names %llu", i,
               (unsigned long long)p->sectors[i].sector_id,
               (unsigned long long)r.sectors[i].sector_id);
      cz_post_partition_free(p);
      e = CZ_ERR_INVALID_ARG;
    }
  free(vp);
  free(lens);
  cz_bench_post_request_free(&r);
  if (e != CZ_OK) {
    fprintf(stderr, "prove: %s: %s\n", a->request, e == CZ_ERR_NOMEM ? "out of memory" : why);
    return 2;
  }
  printf("kind %s\npartition %u index\nsectors %zu count\nload_vanilla %.1f ms\n",
         p->registered->name, p->partition, p->n, cz_bench_ms_since(t0));
  return 0;
}

int cz_bench_prove_post(const cz_bench_post_args *a) {
  cz_post_partition p;
  int rc = load_partition(a, &p);
  if (rc) return rc;
  char msg[512] = "";
  uint64_t t0 = cz_now_ns();
  cz_err e = cz_post_partition_verify(&p, msg, sizeof msg);
  printf("verify_vanilla %.1f ms\n", cz_bench_ms_since(t0));
  if (e != CZ_OK) {
    fprintf(stderr, "prove: vanilla proofs: %s\n", msg);
    cz_post_partition_free(&p);
    return e == CZ_ERR_PROOF_INVALID ? 1 : 2;
  }
  char name[256];
  cz_post_param_name(p.registered, name, sizeof name);
  cz_groth16_params params;
  const cz_bench_prove_opts *o = &a->o;
  if (cz_bench_prove_params(&params, name, cz_post_public_input_count(p.registered) + 1,
                            CZ_POST_CIRCUIT_REVISION, o, cz_post_keygen, (void *)p.registered)) {
    cz_post_partition_free(&p);
    return 2;
  }
  if (o->vk_out) rc = cz_bench_write_vk("prove", o->vk_out, &params.vk);
  cz_pce *shape = NULL;
  if (!rc && o->pce) {
    t0 = cz_now_ns();
    e = cz_post_record_shape(p.registered, &shape, msg, sizeof msg);
    rc = cz_bench_prove_shape_report(e, shape, t0, msg);
  }
  cz_groth16_pvk *pvk = rc ? NULL : cz_groth16_prepare(&params.vk);
  if (!rc && !pvk) rc = 2;
  uint8_t proof[CZ_GROTH16_PROOF_BYTES];
  /* The timing hook: synthesis and the prover's total, summed over repeats. */
  cz_bench_phase_sums sums = {0, 0};
  cz_prove_timing hook = {cz_bench_sum_phase, &sums, false};
  unsigned n = a->repeat ? a->repeat : 1;
  double last_ms = 0;
  for (unsigned i = 0; !rc && i < n; i++) {
    /* One latency: what a daemon with hot parameters does per request. */
    t0 = cz_now_ns();
    cz_assignment as;
    uint64_t s0 = cz_now_ns();
    e = cz_post_synthesize_pce(&p, shape, o->threads, &as, msg, sizeof msg);
    if (e == CZ_OK) {
      cz_prove_timing_emit(&hook, CZ_PHASE_SYNTHESIS, cz_now_ns() - s0);
      cz_prove_ctx pc = {o->backend, &params, pvk, o->threads, &hook};
      e = cz_post_groth16_prove(&p, &as, &pc, proof, msg, sizeof msg);
    }
    last_ms = cz_bench_ms_since(t0);
    if (e != CZ_OK) {
      fprintf(stderr, "prove: %s: %s\n", cz_err_str(e), msg);
      rc = e == CZ_ERR_PROOF_INVALID ? 1 : 2;
    }
  }
  if (!rc) {
    printf("synthesis %.1f ms\nprove %.1f ms\nlatency %.1f ms\nproofs %u count\nverified yes\n",
           (double)sums.synthesis_ns / 1e6 / n, (double)sums.prove_ns / 1e6 / n, last_ms, n);
    rc = cz_bench_prove_output(o->out, proof, sizeof proof);
  }
  cz_groth16_pvk_free(pvk);
  cz_pce_free(shape);
  cz_groth16_params_free(&params);
  cz_post_partition_free(&p);
  return rc;
}
