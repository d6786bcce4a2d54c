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
#include "cuzk/groth16_prove.h"
#include "input.h"
#include "prove_porep.h"

int cz_bench_prove_porep(const cz_bench_porep_args *a) {
  char msg[512] = "";
  cz_porep_c1 c1;
  uint64_t t0 = cz_now_ns();
  cz_err e = cz_porep_c1_load(&c1, a->c1_path, msg, sizeof msg);
  if (e != CZ_OK) {
    fprintf(stderr, "prove: %s: %s\n", a->c1_path, msg);
    return 2;
  }
  if (a->partition != ~0ul && a->partition >= c1.n_partitions) {
    fprintf(stderr, "prove: --partition %lu: the C1 has %u partition%s\n", a->partition,
            c1.n_partitions, c1.n_partitions == 1 ? "" : "s");
    cz_porep_c1_free(&c1);
    return 2;
  }
  printf("kind %s\nload_c1 %.1f ms\n", c1.registered->name, cz_bench_ms_since(t0));

  char name[256];
  cz_porep_param_name(c1.registered, name, sizeof name);
  cz_porep_config cfg;
  cz_registered_porep_config(c1.registered, &cfg);
  cz_groth16_params params;
  const cz_bench_prove_opts *o = &a->o;
  if (cz_bench_prove_params(&params, name, cz_porep_public_input_count(&cfg) + 1,
                            CZ_POREP_CIRCUIT_REVISION, o, cz_porep_keygen, (void *)c1.registered)) {
    cz_porep_c1_free(&c1);
    return 2;
  }

  int rc = 0;
  if (o->vk_out) rc = cz_bench_write_vk("prove", o->vk_out, &params.vk);

  cz_pce *shape = NULL;
  if (!rc && o->pce) {
    t0 = cz_now_ns();
    e = cz_porep_record_shape(c1.registered, &shape, msg, sizeof msg);
    rc = cz_bench_prove_shape_report(e, shape, t0, msg);
  }

  /* All partitions, or the one --partition names. */
  const bool one = a->partition != ~0ul;
  const uint32_t first = one ? (uint32_t)a->partition : 0, count = one ? 1 : c1.n_partitions;
  size_t len = (size_t)count * CZ_GROTH16_PROOF_BYTES;
  uint8_t *proof = malloc(len);
  if (!rc && !proof) rc = 2;
  cz_prove_ctx pc = {.backend = o->backend, .params = &params, .n_threads = o->threads};
  for (unsigned round = 0; !rc && round < a->repeat; round++) {
    t0 = cz_now_ns();
    e = cz_porep_c2_partitions(&c1, &pc, shape, first, count, proof, msg, sizeof msg);
    if (e != CZ_OK) {
      fprintf(stderr, "prove: %s: %s\n", cz_err_str(e), msg);
      rc = e == CZ_ERR_PROOF_INVALID ? 1 : 2;
    } else printf("c2 %.1f ms\n", cz_bench_ms_since(t0));
  }
  if (!rc) {
    printf("partitions %u count\nverified yes\n", count);
    rc = cz_bench_prove_output(o->out, proof, len);
  }
  free(proof);
  cz_pce_free(shape);
  cz_groth16_params_free(&params);
  cz_porep_c1_free(&c1);
  return rc;
}
