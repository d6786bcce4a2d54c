/* cuzk-bench prove --request (an update): every partition of a SnapDeals
 * update in process, each proof verified before it is kept (cz_snap_prove).
 * Parameters come from the store as for PoSt (prove_post.c). */
#include "prove_snap.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/clock.h"
#include "cuzk/snap.h"
#include "input.h"
#include "snap_request.h"

bool cz_bench_is_snap_request(const char *path) {
  json_t *j = json_load_file(path, 0, NULL);
  const char *k = json_string_value(json_object_get(j, "proof_kind"));
  bool snap = k && (!strcmp(k, "snap-deals") || !strcmp(k, "snap") || !strcmp(k, "update"));
  json_decref(j);
  return snap;
}

/* Parse and natively verify every partition before any parameters are
 * loaded, so that a bad vanilla proof costs nothing and says one line.
 * 0, 1 (a proof does not verify) or 2 after one line. */
static int load_partitions(const cz_bench_snap_request *r, const char *path,
                           cz_snap_partition *parts) {
  char msg[512] = "";
  uint64_t t0 = cz_now_ns();
  for (uint32_t k = 0; k < r->n_vanilla; k++) {
    cz_err e =
        cz_snap_partition_parse(&parts[k], r->registered, k,
                                &(cz_snap_comms){r->comm_r_old, r->comm_d_new, r->comm_r_new},
                                r->vanilla[k].bytes, r->vanilla[k].len, msg, sizeof msg);
    if (e != CZ_OK) {
      fprintf(stderr, "prove: %s: %s\n", path, msg);
      return 2;
    }
    if ((e = cz_snap_partition_verify(&parts[k], msg, sizeof msg)) != CZ_OK) {
      fprintf(stderr, "prove: vanilla proofs: %s\n", msg);
      return e == CZ_ERR_PROOF_INVALID ? 1 : 2;
    }
  }
  printf("verify_vanilla %.1f ms\n", cz_bench_ms_since(t0));
  return 0;
}

/* One partition (verified by load_partitions): synthesis, plain or through
 * the recorded shape, then the proof, verified before it is kept. 0, 1
 * (invalid) or 2 after one line. */
static int prove_one(const cz_snap_partition *p, const cz_pce *shape,
                     const cz_groth16_params *params, const cz_groth16_pvk *pvk,
                     const cz_bench_prove_opts *o, uint8_t *out) {
  char msg[512] = "";
  cz_bench_phase_sums sums = {0, 0};
  cz_prove_timing hook = {cz_bench_sum_phase, &sums, false};
  uint64_t t0 = cz_now_ns();
  cz_assignment as;
  cz_err e = cz_snap_synthesize_pce(p, shape, o->threads, &as, msg, sizeof msg);
  if (e == CZ_OK) {
    cz_prove_timing_emit(&hook, CZ_PHASE_SYNTHESIS, cz_now_ns() - t0);
    cz_prove_ctx pc = {o->backend, params, pvk, o->threads, &hook};
    e = cz_snap_groth16_prove(p, &as, &pc, out, msg, sizeof msg);
  }
  if (e != CZ_OK) {
    fprintf(stderr, "prove: partition %u: %s: %s\n", p->partition, cz_err_str(e), msg);
    return e == CZ_ERR_PROOF_INVALID ? 1 : 2;
  }
  uint32_t k = p->partition;
  printf(
      "partition %u synthesis %.1f ms\npartition %u prove %.1f ms\npartition %u latency %.1f ms\n",
      k, (double)sums.synthesis_ns / 1e6, k, (double)sums.prove_ns / 1e6, k, cz_bench_ms_since(t0));
  return 0;
}

int cz_bench_prove_snap(const cz_bench_snap_args *a) {
  char why[512] = "";
  cz_bench_snap_request r;
  if (cz_bench_snap_request_read(a->request, &r, why, sizeof why) != CZ_OK) {
    fprintf(stderr, "prove: %s\n", why);
    return 2;
  }
  const cz_registered_snap *k = r.registered;
  if (r.n_vanilla != k->shape.partitions) {
    fprintf(stderr, "prove: %s: %zu partition proofs, %s has %u partitions\n", a->request,
            r.n_vanilla, k->name, k->shape.partitions);
    cz_bench_snap_request_free(&r);
    return 2;
  }
  cz_snap_partition *parts = calloc(r.n_vanilla, sizeof *parts);
  int rc = parts ? load_partitions(&r, a->request, parts) : 2;
  if (!parts) fprintf(stderr, "prove: out of memory\n");
  char name[256];
  cz_snap_param_name(&k->shape, name, sizeof name);
  cz_groth16_params params;
  memset(&params, 0, sizeof params);
  if (!rc) printf("kind %s\npartitions %zu count\n", k->name, r.n_vanilla);
  const cz_bench_prove_opts *o = &a->o;
  if (!rc && cz_bench_prove_params(&params, name, CZ_SNAP_PUBLIC_INPUTS + 1,
                                   CZ_SNAP_CIRCUIT_REVISION, o, cz_snap_keygen, (void *)&k->shape))
    rc = 2;
  if (!rc && o->vk_out) rc = cz_bench_write_vk("prove", o->vk_out, &params.vk);
  cz_pce *shape = NULL;
  if (!rc && o->pce) {
    uint64_t t0 = cz_now_ns();
    cz_err e = cz_snap_record_shape(&k->shape, &shape, why, sizeof why);
    rc = cz_bench_prove_shape_report(e, shape, t0, why);
  }
  cz_groth16_pvk *pvk = rc ? NULL : cz_groth16_prepare(&params.vk);
  if (!rc && !pvk) rc = 2;
  size_t n = r.n_vanilla * CZ_GROTH16_PROOF_BYTES;
  uint8_t *proofs = rc ? NULL : malloc(n);
  if (!rc && !proofs) rc = 2;
  for (uint32_t p = 0; !rc && p < r.n_vanilla; p++)
    rc = prove_one(&parts[p], shape, &params, pvk, o, proofs + (size_t)p * CZ_GROTH16_PROOF_BYTES);
  if (!rc) {
    printf("proofs %zu count\nverified yes\n", r.n_vanilla);
    rc = cz_bench_prove_output(o->out, proofs, n);
  }
  free(proofs);
  cz_pce_free(shape);
  for (size_t p = 0; parts && p < r.n_vanilla; p++) cz_snap_partition_free(&parts[p]);
  free(parts);
  cz_groth16_pvk_free(pvk);
  cz_groth16_params_free(&params);
  cz_bench_snap_request_free(&r);
  return rc;
}
