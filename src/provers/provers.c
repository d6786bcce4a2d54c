/* The prover table: where a proof kind meets the daemon, every prover in
 * it (the circom prover too). A kind with no row answers UNIMPLEMENTED;
 * the daemon never makes up a proof. */
#include "cuzk/provers.h"

#include <stdio.h>

#include "cuzk/circom_keys.h"
#include "util/msg.h"

static const cz_prover_entry table[] = {
    {CZ_KIND_POREP_SEAL_COMMIT, "porep-c2", cz_porep_prover_register, NULL},
    {CZ_KIND_WINNING_POST, "winning-post", cz_winning_post_prover_register, NULL},
    {CZ_KIND_WINDOW_POST_PARTITION, "window-post", cz_window_post_prover_register, NULL},
    {CZ_KIND_SNAP_DEALS_UPDATE, "snap-update", cz_snap_prover_register, NULL},
    {CZ_KIND_CIRCOM, "circom", NULL, cz_circom_prover_register},
};

const cz_prover_entry *cz_provers_table(size_t *n) {
  *n = sizeof table / sizeof table[0];
  return table;
}

cz_err cz_provers_register_all(cz_engine *e, const cz_provers_config *cfg, cz_circom_keys **circom,
                               char *msg, size_t msg_len) {
  cz_circom_keys *keys = NULL;
  if (circom) *circom = NULL;
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    char why[400] = "";
    cz_err err = table[i].register_fn ? table[i].register_fn(e, cfg, why, sizeof why)
                                      : table[i].register_keys(e, cfg, &keys, why, sizeof why);
    if (err != CZ_OK) return cz_msg_err(msg, msg_len, err, "%s prover: %s", table[i].name, why);
  }
  if (circom) *circom = keys;
  return CZ_OK;
}

bool cz_provers_circuit_id(char *out, size_t out_len, const char *family, uint64_t sector_size) {
  static const struct {
    uint64_t bytes;
    const char *tag;
  } sizes[] = {{2048, "2k"},
               {8ull << 20, "8m"},
               {512ull << 20, "512m"},
               {32ull << 30, "32g"},
               {64ull << 30, "64g"}};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    if (sizes[i].bytes == sector_size) {
      int n = snprintf(out, out_len, "%s-%s", family, sizes[i].tag);
      return n > 0 && (size_t)n < out_len;
    }
  return false;
}
