/* cuzk-bench verify: check one Groth16 proof against a verifying key.
 *
 * Exit status: 0 valid ("valid"), 1 invalid ("invalid: <reason>"), 2 when
 * the inputs cannot be used (one line on stderr naming what is wrong).
 * A proof that does not decode is invalid (1): the proof is what is being
 * judged. A key, inputs file or proof text that cannot be read is 2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/args.h"
#include "commands.h"
#include "cuzk/groth16.h"
#include "input.h"

#define WHY_LEN 512

static const char SYNOPSIS[] =
    "--vk FILE [--vk-compressed] [--vk-hex] --public-inputs FILE --proof HEX_OR_FILE";

/* The proof's 192 bytes from hex on the command line or from a file that
 * holds raw bytes or hex text. */
static int load_proof(uint8_t out[CZ_GROTH16_PROOF_BYTES], const char *arg) {
  char why[WHY_LEN], what[32];
  uint8_t *bytes = NULL;
  size_t len = 0;
  cz_err e =
      cz_bench_load_hex_or_file(arg, "proof", &bytes, &len, what, sizeof what, why, sizeof why);
  if (e == CZ_ERR_IO) {
    fprintf(stderr, "verify: proof: %s (nor is it %d hex digits)\n", why,
            2 * CZ_GROTH16_PROOF_BYTES);
    return 2;
  }
  if (e != CZ_OK) {
    fprintf(stderr, "verify: %s: %s (expected %d raw bytes or %d hex digits)\n", what, why,
            CZ_GROTH16_PROOF_BYTES, 2 * CZ_GROTH16_PROOF_BYTES);
    return 2;
  }
  if (len != CZ_GROTH16_PROOF_BYTES) {
    fprintf(stderr, "verify: %s holds %zu bytes, a proof is %d (%d hex digits)\n", what, len,
            CZ_GROTH16_PROOF_BYTES, 2 * CZ_GROTH16_PROOF_BYTES);
    free(bytes);
    return 2;
  }
  memcpy(out, bytes, CZ_GROTH16_PROOF_BYTES);
  free(bytes);
  return 0;
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Times `repeat` verifications with the plain and the prepared key; prints ns/op. */
static void time_verify(const cz_groth16_vk *vk, const cz_fr *inputs, size_t n_inputs,
                        const cz_groth16_proof *proof, unsigned long repeat) {
  unsigned long failed = 0;
  double t0 = now_ns();
  for (unsigned long i = 0; i < repeat; i++)
    failed += cz_groth16_verify(vk, inputs, n_inputs, proof) != CZ_OK;
  printf("groth16_verify %.0f ns/op\n", (now_ns() - t0) / (double)repeat);
  cz_groth16_pvk *pvk = cz_groth16_prepare(vk);
  if (!pvk) return;
  t0 = now_ns();
  for (unsigned long i = 0; i < repeat; i++)
    failed += cz_groth16_verify_prepared(pvk, inputs, n_inputs, proof) != CZ_OK;
  printf("groth16_verify_prepared %.0f ns/op\n", (now_ns() - t0) / (double)repeat);
  if (failed) fprintf(stderr, "cuzk-bench verify: %lu timed verifications failed\n", failed);
  cz_groth16_pvk_free(pvk);
}

int cmd_verify(int argc, char **argv) {
  const char *vk_path = NULL, *inputs_path = NULL, *proof_arg = NULL;
  bool vk_compressed = false, vk_hex = false;
  unsigned long repeat = 0;
  const cz_opt opts[] = {
      CZ_BENCH_VK_OPTIONS(&vk_path, &vk_hex, &vk_compressed),
      {"public-inputs", CZ_OPT_STRING, &inputs_path, "FILE",
       "JSON {\"inputs\": [32-byte LE hex, ...], \"count\": N}"},
      {"proof", CZ_OPT_STRING, &proof_arg, "HEX_OR_FILE",
       "384 hex digits, or a file of 192 raw bytes or hex"},
      {"repeat", CZ_OPT_UINT, &repeat, "N",
       "also time N verifications (plain and prepared key), print ns/op"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse_or_help(argc, argv, opts, "verify", SYNOPSIS);
  if (rc >= 0) return rc;
  if (!vk_path || !inputs_path || !proof_arg) {
    fprintf(stderr, "verify: missing %s (usage: cuzk-bench verify %s)\n",
            !vk_path       ? "--vk"
            : !inputs_path ? "--public-inputs"
                           : "--proof",
            SYNOPSIS);
    return 2;
  }

  cz_groth16_vk vk;
  if ((rc = cz_bench_load_vk("verify", &vk, vk_path, vk_hex, vk_compressed)) != 0) return rc;

  char why[WHY_LEN];
  cz_fr *inputs = NULL;
  size_t n_inputs = 0;
  uint8_t proof_bytes[CZ_GROTH16_PROOF_BYTES];
  cz_groth16_proof proof;
  if (cz_bench_load_public_inputs(inputs_path, &inputs, &n_inputs, why, sizeof why) != CZ_OK) {
    fprintf(stderr, "verify: public inputs: %s\n", why);
    rc = 2;
    goto out;
  }
  if (n_inputs != vk.n_ic - 1) {
    fprintf(stderr, "verify: wrong input count: the key expects %zu public inputs, %s has %zu\n",
            vk.n_ic - 1, inputs_path, n_inputs);
    rc = 2;
    goto out;
  }
  if ((rc = load_proof(proof_bytes, proof_arg)) != 0) goto out;

  cz_err e = cz_groth16_proof_read(&proof, proof_bytes);
  if (e != CZ_OK) {
    printf("invalid: proof does not decode: %s\n", cz_err_str(e));
    rc = 1;
    goto out;
  }
  e = cz_groth16_verify(&vk, inputs, n_inputs, &proof);
  if (e == CZ_OK) {
    printf("valid\n");
    rc = 0;
  } else if (e == CZ_ERR_PROOF_INVALID) {
    printf("invalid: the pairing check fails\n");
    rc = 1;
  } else {
    fprintf(stderr, "verify: %s\n", cz_err_str(e));
    rc = 2;
  }
  if (repeat) time_verify(&vk, inputs, n_inputs, &proof, repeat);
out:
  fflush(stdout);
  free(inputs);
  cz_groth16_vk_free(&vk);
  return rc;
}
