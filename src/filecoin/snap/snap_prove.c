/* One update partition from its vanilla proof to a verified Groth16 proof:
 * parse, verify natively, synthesize, prove, verify. Also the circuit's
 * keys, parameters, and the verification of a whole update's proofs
 * (filecoin-proofs api/update.rs verify_empty_sector_update_proof). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/clock.h"
#include "cuzk/param_digest.h"
#include "cuzk/snap.h"
#include "cuzk/snap_circuit.h"
#include "filecoin/circuit_build.h"
#include "filecoin/snap/snap_internal.h"
#include "util/msg.h"

void cz_snap_partition_free(cz_snap_partition *p) {
  if (!p) return;
  cz_snap_vanilla_free(&p->proof);
  memset(p, 0, sizeof *p);
}

cz_err cz_snap_partition_parse(cz_snap_partition *out, const cz_registered_snap *k,
                               uint32_t partition, const cz_snap_comms *c, const uint8_t *vanilla,
                               size_t len, char *msg, size_t msg_len) {
  if (!out) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "update partition: NULL output");
  memset(out, 0, sizeof *out);
  if (!k || !c)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "update partition: no registered proof or commitments");
  if (partition >= k->shape.partitions)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "partition %u: %s has %u partition%s",
                      partition, k->name, k->shape.partitions, k->shape.partitions == 1 ? "" : "s");
  cz_fr comms[3]; /* only checked here: the circuit reads the bytes */
  cz_err e = cz_snap_comms_fr(c, comms, msg, msg_len);
  if (e != CZ_OK) return e;
  if ((e = cz_snap_vanilla_parse(&out->proof, vanilla, len, partition, msg, msg_len)) != CZ_OK)
    return e;
  out->registered = k;
  out->partition = partition;
  memcpy(out->comm_r_old, c->comm_r_old, 32);
  memcpy(out->comm_d_new, c->comm_d_new, 32);
  memcpy(out->comm_r_new, c->comm_r_new, 32);
  return CZ_OK;
}

cz_err cz_snap_partition_verify(const cz_snap_partition *p, char *msg, size_t msg_len) {
  if (!p || !p->registered)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "update partition: not parsed");
  cz_snap_comms c = {p->comm_r_old, p->comm_d_new, p->comm_r_new};
  return cz_snap_vanilla_verify(&p->registered->shape, p->partition, &c, &p->proof, p->partition,
                                msg, msg_len);
}

cz_err cz_snap_partition_inputs(const cz_snap_partition *p, cz_fr out[CZ_SNAP_PUBLIC_INPUTS],
                                char *msg, size_t msg_len) {
  if (!p || !p->registered)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "update partition: not parsed");
  cz_snap_comms c = {p->comm_r_old, p->comm_d_new, p->comm_r_new};
  return cz_snap_public_inputs(&p->registered->shape, p->partition, p->registered->shape.h, &c, out,
                               msg, msg_len);
}

/* The circuit of shape ctx without a witness (keygen, recording). */
static cz_err build_shape(cz_cs *cs, const void *ctx) {
  return cz_snap_circuit(cs, ctx, NULL, NULL);
}

cz_err cz_snap_record_shape(const cz_snap_shape *s, cz_pce **out, char *msg, size_t msg_len) {
  return cz_circuit_record(build_shape, s, "update", out, msg, msg_len);
}

/* PROVE (shape NULL) or WITNESS + the shape's evaluation, the challenges
 * on n_threads. */
static cz_err synthesize(const cz_snap_partition *p, const cz_pce *shape, unsigned n_threads,
                         cz_assignment *as, char *msg, size_t msg_len) {
  memset(as, 0, sizeof *as);
  cz_fr in[CZ_SNAP_PUBLIC_INPUTS];
  cz_err e = cz_snap_partition_inputs(p, in, msg, msg_len);
  if (e != CZ_OK) return e;
  cz_snap_public pub = {in[0], in[1], in[2], in[3]};
  char why[256] = "";
  e = cz_snap_witness(shape ? CZ_CS_WITNESS : CZ_CS_PROVE, &p->registered->shape, &pub, &p->proof,
                      n_threads, as, why, sizeof why);
  if (e != CZ_OK) cz_msg(msg, msg_len, "%s: synthesis: %s", p->registered->name, why);
  if (e == CZ_OK && shape && (e = cz_pce_eval(shape, as, n_threads)) != CZ_OK) {
    cz_assignment_free(as);
    cz_msg(msg, msg_len,
           e == CZ_ERR_NOMEM ? "out of memory" : "%s: the recorded shape is not this circuit's",
           p->registered->name);
    return e;
  }
  /* A cheap guard against a circuit / input-generator mismatch, which
   * would otherwise surface as an invalid proof. */
  if (e == CZ_OK &&
      (as->n_inputs != CZ_SNAP_PUBLIC_INPUTS + 1 || memcmp(as->inputs + 1, in, sizeof in) != 0)) {
    cz_assignment_free(as);
    e = cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                   "%s: the circuit's public inputs differ from the verifier's",
                   p->registered->name);
  }
  return e;
}

cz_err cz_snap_synthesize(const cz_snap_partition *p, unsigned n_threads, cz_assignment *as,
                          char *msg, size_t msg_len) {
  return synthesize(p, NULL, n_threads, as, msg, msg_len);
}

cz_err cz_snap_synthesize_pce(const cz_snap_partition *p, const cz_pce *shape, unsigned n_threads,
                              cz_assignment *as, char *msg, size_t msg_len) {
  return synthesize(p, shape, n_threads, as, msg, msg_len);
}

cz_err cz_snap_groth16_prove(const cz_snap_partition *p, cz_assignment *as, const cz_prove_ctx *pc,
                             uint8_t out[CZ_GROTH16_PROOF_BYTES], char *msg, size_t msg_len) {
  cz_fr in[CZ_SNAP_PUBLIC_INPUTS];
  cz_err e = !p || !p->registered
                 ? cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "missing partition")
                 : cz_snap_partition_inputs(p, in, msg, msg_len);
  if (e != CZ_OK) {
    cz_assignment_free(as);
    return e;
  }
  /* Curio does not verify update proofs: this check is the only one. */
  return cz_groth16_prove_verified(pc, as, in, CZ_SNAP_PUBLIC_INPUTS, p->registered->name, out, msg,
                                   msg_len);
}

cz_err cz_snap_prove(const cz_snap_partition *p, const cz_prove_ctx *pc,
                     uint8_t out[CZ_GROTH16_PROOF_BYTES], char *msg, size_t msg_len) {
  const cz_groth16_params *params = pc ? pc->params : NULL;
  if (!p || !p->registered || !params || !out)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "missing partition, parameters or output");
  if (params->vk.n_ic != CZ_SNAP_PUBLIC_INPUTS + 1)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "parameters take %zu public inputs, an update has %d", params->vk.n_ic - 1,
                      CZ_SNAP_PUBLIC_INPUTS);
  cz_err e = cz_snap_partition_verify(p, msg, msg_len);
  if (e != CZ_OK) return e;
  cz_assignment as;
  uint64_t t0 = cz_now_ns();
  if ((e = cz_snap_synthesize(p, pc->n_threads, &as, msg, msg_len)) != CZ_OK) return e;
  cz_prove_timing_emit(pc->timing, CZ_PHASE_SYNTHESIS, cz_now_ns() - t0);
  return cz_snap_groth16_prove(p, &as, pc, out, msg, msg_len);
}

cz_err cz_snap_keygen_shape(void *ctx, cz_cs *cs) { return build_shape(cs, ctx); }

cz_err cz_snap_keygen(void *ctx, cz_keygen_cols *out, char *msg, size_t msg_len) {
  return cz_circuit_keygen(build_shape, ctx, "update", out, msg, msg_len);
}

cz_err cz_snap_params_get(cz_groth16_params *out, const cz_registered_snap *k,
                          const cz_params_store_opts *o, cz_params_origin *origin, char *msg,
                          size_t msg_len) {
  memset(out, 0, sizeof *out);
  if (!k) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "no registered update proof");
  char name[256];
  if (cz_snap_param_name(&k->shape, name, sizeof name) >= sizeof name) return CZ_ERR_INVALID_ARG;
  cz_err e = cz_official_params_check(name, o, msg, msg_len);
  if (e != CZ_OK) return e;
  return cz_params_store_get(out, name, CZ_SNAP_PUBLIC_INPUTS + 1, o, origin, msg, msg_len);
}

cz_err cz_snap_verify_proofs(const cz_groth16_vk *vk, const cz_registered_snap *k,
                             const cz_snap_comms *c, const uint8_t *proofs, size_t len, char *msg,
                             size_t msg_len) {
  if (!vk || !k || (!proofs && len))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "missing key, registered proof or proofs");
  size_t parts = k->shape.partitions;
  if (len != parts * CZ_GROTH16_PROOF_BYTES)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "%zu proof bytes: %s has %zu partitions of %d bytes each", len, k->name,
                      parts, CZ_GROTH16_PROOF_BYTES);
  if (vk->n_ic != CZ_SNAP_PUBLIC_INPUTS + 1)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "the key takes %zu public inputs, an update has %d", vk->n_ic - 1,
                      CZ_SNAP_PUBLIC_INPUTS);
  for (size_t p = 0; p < parts; p++) {
    cz_fr in[CZ_SNAP_PUBLIC_INPUTS];
    cz_err e = cz_snap_public_inputs(&k->shape, (uint32_t)p, k->shape.h, c, in, msg, msg_len);
    if (e != CZ_OK) return e;
    cz_groth16_proof proof;
    /* A proof that does not decode is an invalid proof, as bellperson's
     * verifier sees it (its bytes are the prover's, not the caller's). */
    if ((e = cz_groth16_proof_read(&proof, proofs + p * CZ_GROTH16_PROOF_BYTES)) != CZ_OK)
      return cz_msg_err(msg, msg_len, CZ_ERR_PROOF_INVALID,
                        "the proof of partition %zu does not decode: %s", p, cz_err_str(e));
    e = cz_groth16_verify(vk, in, CZ_SNAP_PUBLIC_INPUTS, &proof);
    if (e == CZ_ERR_PROOF_INVALID)
      return cz_msg_err(msg, msg_len, e, "the proof of partition %zu is invalid", p);
    if (e != CZ_OK) return cz_msg_err(msg, msg_len, e, "partition %zu: %s", p, cz_err_str(e));
  }
  return CZ_OK;
}
