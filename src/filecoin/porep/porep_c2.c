/* PoRep C2: C1 in, verified Groth16 proofs out, one partition at a time
 * (a 32 GiB partition's a/b/c alone is ~12 GB, so partitions are never
 * held together). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/clock.h"
#include "cuzk/porep.h"
#include "filecoin/circuit_build.h"
#include "util/msg.h"

/* The public inputs of partition p in a fresh array of *n. */
static cz_err partition_inputs(const cz_porep_c1 *c1, size_t p, cz_fr **out, size_t *n, char *msg,
                               size_t len) {
  if (p >= c1->n_partitions)
    return cz_msg_err(msg, len, CZ_ERR_INVALID_ARG, "no partition %zu in this C1", p);
  cz_porep_config cfg;
  cz_registered_porep_config(c1->registered, &cfg);
  *n = cz_porep_public_input_count(&cfg);
  if (!(*out = malloc(*n * sizeof **out)))
    return cz_msg_err(msg, len, CZ_ERR_NOMEM, "out of memory");
  cz_err e = cz_porep_c1_public_inputs(c1, (uint32_t)p, *out, n); /* p < n_partitions */
  if (e != CZ_OK) {
    free(*out);
    *out = NULL;
    return cz_msg_err(msg, len, e, "partition %zu: public inputs: %s", p, cz_err_str(e));
  }
  return CZ_OK;
}

/* The circuit's own public inputs must equal the ones the verifier will
 * compute: a cheap guard against a circuit / input-generator mismatch,
 * which would otherwise surface as an invalid proof. */
cz_err cz_porep_synthesize_pce(const cz_porep_c1 *c1, size_t p, const cz_pce *shape,
                               unsigned n_threads, cz_assignment *as, char *msg, size_t msg_len) {
  if (!c1 || !c1->registered || !c1->proofs || p >= c1->n_partitions)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "no partition %zu in this C1", p);
  cz_fr *inputs;
  size_t n;
  cz_err e = partition_inputs(c1, p, &inputs, &n, msg, msg_len);
  if (e != CZ_OK) return e;
  char why[256] = "";
  e = cz_porep_witness(shape ? CZ_CS_WITNESS : CZ_CS_PROVE, c1, (uint32_t)p, NULL, n_threads, as,
                       why, sizeof why);
  if (e != CZ_OK) cz_msg(msg, msg_len, "partition %zu: synthesis: %s", p, why);
  if (e == CZ_OK && shape && (e = cz_pce_eval(shape, as, n_threads)) != CZ_OK) {
    cz_assignment_free(as);
    if (e == CZ_ERR_NOMEM) cz_msg_err(msg, msg_len, e, "out of memory");
    else
      cz_msg_err(msg, msg_len, e, "partition %zu: the recorded shape is not %s's circuit", p,
                 c1->registered->name);
  }
  if (e == CZ_OK &&
      (as->n_inputs != n + 1 || memcmp(as->inputs + 1, inputs, n * sizeof *inputs) != 0)) {
    cz_assignment_free(as);
    e = cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                   "partition %zu: the circuit's public inputs differ from the verifier's", p);
  }
  free(inputs);
  return e;
}

cz_err cz_porep_synthesize(const cz_porep_c1 *c1, size_t p, unsigned n_threads, cz_assignment *as,
                           char *msg, size_t msg_len) {
  return cz_porep_synthesize_pce(c1, p, NULL, n_threads, as, msg, msg_len);
}

/* The circuit of registered proof ctx, without a witness (keygen, recording). */
static cz_err build_registered(cz_cs *cs, const void *ctx) {
  return cz_porep_circuit(cs, &((const cz_registered_porep *)ctx)->shape, NULL, 0);
}

cz_err cz_porep_groth16_prove(const cz_porep_c1 *c1, size_t p, cz_assignment *as,
                              const cz_prove_ctx *pc, uint8_t out[192], char *msg, size_t msg_len) {
  cz_fr *inputs;
  size_t n;
  cz_err e = partition_inputs(c1, p, &inputs, &n, msg, msg_len);
  if (e != CZ_OK) {
    cz_assignment_free(as);
    return e;
  }
  char what[32];
  snprintf(what, sizeof what, "partition %zu", p);
  e = cz_groth16_prove_verified(pc, as, inputs, n, what, out, msg, msg_len);
  free(inputs);
  return e;
}

cz_err cz_porep_c2(const cz_porep_c1 *c1, const cz_prove_ctx *pc, uint8_t *out, char *msg,
                   size_t msg_len) {
  return cz_porep_c2_pce(c1, pc, NULL, out, msg, msg_len);
}

cz_err cz_porep_c2_pce(const cz_porep_c1 *c1, const cz_prove_ctx *pc, const cz_pce *shape,
                       uint8_t *out, char *msg, size_t msg_len) {
  return cz_porep_c2_partitions(c1, pc, shape, 0, c1 ? c1->n_partitions : 0, out, msg, msg_len);
}

cz_err cz_porep_c2_partitions(const cz_porep_c1 *c1, const cz_prove_ctx *pc, const cz_pce *shape,
                              uint32_t first, uint32_t count, uint8_t *out, char *msg,
                              size_t msg_len) {
  const cz_groth16_params *params = pc ? pc->params : NULL;
  if (!c1 || !c1->registered || !c1->proofs || !params || !out)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "missing C1, parameters or output");
  if (first > c1->n_partitions || count > c1->n_partitions - first)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "partitions %u..%u: the C1 has %u", first,
                      first + count - 1, c1->n_partitions);
  cz_porep_config cfg;
  cz_registered_porep_config(c1->registered, &cfg);
  size_t n_inputs = cz_porep_public_input_count(&cfg);
  if (params->vk.n_ic != n_inputs + 1)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "parameters take %zu public inputs, %s has %zu", params->vk.n_ic - 1,
                      c1->registered->name, n_inputs);
  cz_err e = cz_porep_vanilla_verify(c1, msg, msg_len);
  if (e != CZ_OK) return e;
  /* One prepared key for every partition's check. */
  cz_prove_ctx each = *pc;
  cz_groth16_pvk *own = NULL;
  if (!each.pvk && !(each.pvk = own = cz_groth16_prepare(&params->vk)))
    return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  for (uint32_t p = first; p < first + count && e == CZ_OK; p++) {
    cz_assignment as;
    uint64_t t0 = cz_now_ns();
    if ((e = cz_porep_synthesize_pce(c1, p, shape, pc->n_threads, &as, msg, msg_len)) != CZ_OK)
      break;
    cz_prove_timing_emit(pc->timing, CZ_PHASE_SYNTHESIS, cz_now_ns() - t0);
    e = cz_porep_groth16_prove(c1, p, &as, &each,
                               out + (size_t)(p - first) * CZ_GROTH16_PROOF_BYTES, msg, msg_len);
  }
  cz_groth16_pvk_free(own);
  return e;
}

cz_err cz_porep_keygen_shape(void *ctx, cz_cs *cs) { return build_registered(cs, ctx); }

cz_err cz_porep_keygen(void *ctx, cz_keygen_cols *out, char *msg, size_t msg_len) {
  const cz_registered_porep *k = ctx;
  return cz_circuit_keygen(build_registered, k, k->name, out, msg, msg_len);
}
