/* The prover table: where a proof kind meets the daemon. A kind with no
 * row answers UNIMPLEMENTED; the daemon never makes up a proof. */
#include "cuzk/provers.h"

#include "util/msg.h"

static const cz_prover_entry table[] = {
    {CZ_KIND_POREP_SEAL_COMMIT, "porep-c2", cz_porep_prover_register},
    {CZ_KIND_WINNING_POST, "winning-post", cz_winning_post_prover_register},
    {CZ_KIND_WINDOW_POST_PARTITION, "window-post", cz_window_post_prover_register},
};

const cz_prover_entry *cz_provers_table(size_t *n) {
  *n = sizeof table / sizeof table[0];
  return table;
}

cz_err cz_provers_register_all(cz_engine *e, const cz_provers_config *cfg, char *msg,
                               size_t msg_len) {
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    char why[400] = "";
    cz_err err = table[i].register_fn(e, cfg, why, sizeof why);
    if (err != CZ_OK) return cz_msg_err(msg, msg_len, err, "%s prover: %s", table[i].name, why);
  }
  return CZ_OK;
}
