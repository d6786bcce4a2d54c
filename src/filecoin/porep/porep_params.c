/* PoRep parameters from the store: the StackedDRG circuit's v28 name and
 * its public-input count. */
#include <string.h>

#include "cuzk/param_digest.h"
#include "cuzk/params_store.h"
#include "cuzk/porep.h"
#include "util/msg.h"

cz_err cz_porep_params_get(cz_groth16_params *out, const cz_registered_porep *k,
                           const cz_params_store_opts *o, cz_params_origin *origin, char *msg,
                           size_t msg_len) {
  memset(out, 0, sizeof *out);
  if (!k) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "no registered proof");
  char name[256];
  if (cz_porep_param_name(k, name, sizeof name) >= sizeof name) return CZ_ERR_INVALID_ARG;
  cz_porep_config cfg;
  cz_registered_porep_config(k, &cfg);
  cz_err e = cz_official_params_check(name, o, msg, msg_len);
  if (e != CZ_OK) return e;
  return cz_params_store_get(out, name, cz_porep_public_input_count(&cfg) + 1, o, origin, msg,
                             msg_len);
}
