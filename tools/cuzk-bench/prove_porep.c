/* cuzk-bench prove --c1: PoRep C2 in process. Parameters come from the
 * store: the official v28 file when $FIL_PROOFS_PARAMETER_CACHE holds it,
 * else cached (or freshly made) test parameters, said on stderr. Every
 * proof is verified before it is written (cz_porep_c2). With --pce the
 * circuit is recorded once (cz_porep_record_shape, timed and its memory
 * printed) and every partition is synthesized through it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/clock.h"
#include "cuzk/porep.h"
#include "cuzk/prover.h"
#include "input.h"
#include "prove_porep.h"

static double ms_since(uint64_t t0) { return (double)(cz_now_ns() - t0) / 1e6; }

int cz_bench_prove_porep(const cz_bench_porep_args *a) {
  char msg[512] = "";
  cz_porep_c1 c1;
  uint64_t t0 = cz_now_ns();
  cz_err e = cz_porep_c1_load(&c1, a->c1_path, msg, sizeof msg);
  if (e != CZ_OK) {
    fprintf(stderr, "prove: %s: %s\n", a->c1_path, msg);
    return 2;
  }
  printf("kind %s\nload_c1 %.1f ms\n", c1.kind->name, ms_since(t0));

  cz_params_store_opts so = {0};
  so.test_dir = a->cache_dir;
  so.test_tag = CZ_POREP_CIRCUIT_REVISION;
  so.official_only = a->official_only;
  so.checked = a->checked;
  so.n_threads = a->threads;
  so.keygen = cz_porep_keygen;
  so.keygen_ctx = (void *)c1.kind;
  so.who = "prove";
  cz_groth16_params params;
  cz_params_origin org;
  t0 = cz_now_ns();
  if ((e = cz_porep_params_get(&params, c1.kind, &so, &org, msg, sizeof msg)) != CZ_OK) {
    fprintf(stderr, "prove: parameters: %s\n", msg);
    cz_porep_c1_free(&c1);
    return 2;
  }
  printf("%s %.1f ms\n", org.source == CZ_PARAMS_TEST_GENERATED ? "setup" : "load_params",
         ms_since(t0));

  int rc = 0;
  if (a->vk_out) rc = cz_bench_write_vk("prove", a->vk_out, &params.vk);

  cz_pce *shape = NULL;
  if (!rc && a->pce) {
    t0 = cz_now_ns();
    if (cz_porep_record_shape(c1.kind, &shape, msg, sizeof msg) != CZ_OK) {
      fprintf(stderr, "prove: %s\n", msg);
      rc = 2;
    } else {
      cz_pce_info info;
      cz_pce_get_info(shape, &info);
      printf("record_shape %.1f ms\npce_shape_bytes %zu bytes\n", ms_since(t0), info.bytes);
    }
  }

  size_t len = (size_t)c1.n_partitions * CZ_GROTH16_PROOF_BYTES;
  uint8_t *proof = malloc(len);
  if (!rc && !proof) rc = 2;
  if (!rc) {
    t0 = cz_now_ns();
    e = cz_porep_c2_pce(&c1, &params, shape, a->backend, a->threads, NULL, proof, msg, sizeof msg);
    if (e != CZ_OK) {
      fprintf(stderr, "prove: %s: %s\n", cz_err_str(e), msg);
      rc = e == CZ_ERR_PROOF_INVALID ? 1 : 2;
    } else {
      printf("c2 %.1f ms\npartitions %u count\nverified yes\n", ms_since(t0), c1.n_partitions);
      if (a->out) {
        rc = cz_bench_write_file("prove", a->out, proof, len);
      } else {
        for (size_t i = 0; i < len; i++) printf("%02x", proof[i]);
        printf("\n");
      }
    }
  }
  free(proof);
  cz_pce_free(shape);
  cz_groth16_params_free(&params);
  cz_porep_c1_free(&c1);
  return rc;
}
