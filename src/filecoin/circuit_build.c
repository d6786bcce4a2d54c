/* Witness-free builds of a Filecoin circuit (circuit_build.h). */
#include "filecoin/circuit_build.h"

#include "util/msg.h"

/* build(ctx) into a new system in that mode; take its product; msg on error. */
static cz_err build_in(cz_cs_mode mode, cz_circuit_shape_fn build, const void *ctx,
                       cz_keygen_cols *cols, cz_pce **pce, const char *what, char *msg,
                       size_t msg_len) {
  cz_cs *cs = cz_cs_new(mode, NULL);
  if (!cs) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  cz_err e = build(cs, ctx);
  if (e == CZ_OK) e = cz_cs_finish(cs);
  if (e == CZ_OK) e = cols ? cz_cs_take_keygen(cs, cols) : cz_cs_take_pce(cs, pce);
  if (e != CZ_OK && cols) cz_msg(msg, msg_len, "%s keygen: %s", what, cz_cs_errmsg(cs));
  if (e != CZ_OK && !cols)
    cz_msg(msg, msg_len, "%s: recording the circuit: %s", what, cz_cs_errmsg(cs));
  cz_cs_free(cs);
  return e;
}

cz_err cz_circuit_keygen(cz_circuit_shape_fn build, const void *ctx, const char *what,
                         cz_keygen_cols *out, char *msg, size_t msg_len) {
  return build_in(CZ_CS_KEYGEN, build, ctx, out, NULL, what, msg, msg_len);
}

cz_err cz_circuit_record(cz_circuit_shape_fn build, const void *ctx, const char *what, cz_pce **out,
                         char *msg, size_t msg_len) {
  *out = NULL;
  return build_in(CZ_CS_RECORD, build, ctx, NULL, out, what, msg, msg_len);
}

cz_err cz_circuit_record_slots(const cz_slotted_circuit *c, const char *what, cz_pce **out,
                               char *msg, size_t msg_len) {
  char why[256] = "";
  cz_err e = cz_slots_record(c, out, why, sizeof why);
  if (e != CZ_OK) cz_msg(msg, msg_len, "%s: recording the circuit: %s", what, why);
  return e;
}
