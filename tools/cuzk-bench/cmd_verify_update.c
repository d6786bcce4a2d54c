/* cuzk-bench verify-update: check an update's proofs (partitions x 192
 * bytes, partition 0 first) as filecoin-proofs'
 * verify_empty_sector_update_proof does: each partition's public inputs
 * [k_and_h_select, comm_r_old, comm_d_new, comm_r_new] (h the production
 * hs[3]), then Groth16 (cz_snap_verify_proofs).
 *
 *   cuzk-bench verify-update --vk FILE --registered-proof N
 *       --comm-r-old HEX --comm-r-new HEX --comm-d-new HEX --proof HEX_OR_FILE
 *       [--vk-compressed] [--vk-hex]
 *
 * Exit status: 0 valid ("valid"), 1 invalid ("invalid: <reason>"), 2
 * unusable input (one line on stderr), as the other verifiers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common/args.h"
#include "cuzk/groth16.h"
#include "cuzk/snap.h"
#include "input.h"
#include "snap_request.h"

#define CMD "verify-update"
#define fail(...) cz_bench_unusable(CMD, __VA_ARGS__)

static const char SYNOPSIS[] =
    "--vk FILE --registered-proof N --comm-r-old HEX --comm-r-new HEX --comm-d-new HEX "
    "--proof HEX_OR_FILE";

int cmd_verify_update(int argc, char **argv) {
  const char *vk_path = NULL, *reg = NULL, *r_old = NULL, *r_new = NULL, *d_new = NULL,
             *proof_arg = NULL;
  bool vk_hex = false, vk_compressed = false;
  const cz_opt opts[] = {
      CZ_BENCH_VK_OPTIONS(&vk_path, &vk_hex, &vk_compressed),
      {"registered-proof", CZ_OPT_STRING, &reg, "N", "RegisteredUpdateProof 0-4 or its name"},
      {"comm-r-old", CZ_OPT_STRING, &r_old, "HEX", "32 bytes, the sealed sector's comm_r"},
      {"comm-r-new", CZ_OPT_STRING, &r_new, "HEX", "32 bytes, the updated replica's comm_r"},
      {"comm-d-new", CZ_OPT_STRING, &d_new, "HEX", "32 bytes, the new data's comm_d"},
      {"proof", CZ_OPT_STRING, &proof_arg, "HEX_OR_FILE", "partitions x 192 bytes"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse_or_help(argc, argv, opts, CMD, SYNOPSIS);
  if (rc >= 0) return rc;
  if (!vk_path || !reg || !r_old || !r_new || !d_new || !proof_arg)
    return fail("missing options (usage: cuzk-bench " CMD " %s)", SYNOPSIS);
  const cz_registered_snap *k = cz_bench_registered_snap_arg(reg);
  if (!k) return fail("--registered-proof %s: not a registered update proof (0-4)", reg);
  uint8_t c_r_old[32], c_r_new[32], c_d_new[32];
  if (cz_bench_hex32(CMD, "comm-r-old", r_old, c_r_old) ||
      cz_bench_hex32(CMD, "comm-r-new", r_new, c_r_new) ||
      cz_bench_hex32(CMD, "comm-d-new", d_new, c_d_new))
    return 2;
  char why[512], what[32];
  uint8_t *bytes = NULL;
  size_t len = 0;
  if ((rc = cz_bench_load_proof(CMD, proof_arg, &bytes, &len, what, sizeof what)) != 0) return rc;
  cz_groth16_vk vk;
  memset(&vk, 0, sizeof vk);
  size_t want = (size_t)k->shape.partitions * CZ_GROTH16_PROOF_BYTES;
  if (len != want) {
    rc = fail("%s holds %zu bytes, %s has %u partitions of %d bytes", what, len, k->name,
              k->shape.partitions, CZ_GROTH16_PROOF_BYTES);
  } else if ((rc = cz_bench_load_vk_for(CMD, &vk, vk_path, vk_hex, vk_compressed,
                                        CZ_SNAP_PUBLIC_INPUTS, "an update")) != 0) {
  } else {
    cz_err e = cz_snap_verify_proofs(&vk, k, &(cz_snap_comms){c_r_old, c_d_new, c_r_new}, bytes,
                                     len, why, sizeof why);
    if (e == CZ_OK) {
      printf("valid\n");
    } else if (e == CZ_ERR_PROOF_INVALID) {
      printf("invalid: %s\n", why);
      rc = 1;
    } else {
      rc = fail("%s", why);
    }
  }
  fflush(stdout);
  free(bytes);
  cz_groth16_vk_free(&vk);
  return rc;
}
