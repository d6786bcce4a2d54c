/* One PoSt partition from vanilla proofs to a verified Groth16 proof:
 * parse, verify natively, fill the circuit's sector slots, synthesize,
 * prove, verify. Also the circuit's keys and parameters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/clock.h"
#include "cuzk/param_digest.h"
#include "cuzk/post.h"
#include "cuzk/post_circuit.h"
#include "filecoin/circuit_build.h"
#include "filecoin/post/post_internal.h"
#include "util/msg.h"

/* The verifier's inputs of the partition in a fresh array of
 * cz_post_public_input_count(registered). */
static cz_err verifier_inputs(const cz_post_partition *p, cz_fr **out, char *msg, size_t msg_len) {
  size_t n = cz_post_public_input_count(p->registered);
  if (!(*out = malloc(n * sizeof **out)))
    return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  cz_err e = cz_post_public_inputs(&(cz_post_challenge_seed){.registered = p->registered,
                                                             .randomness = p->randomness,
                                                             .partition = p->partition},
                                   p->sectors, p->n, *out, n, msg, msg_len);
  if (e != CZ_OK) free(*out), *out = NULL;
  return e;
}

void cz_post_partition_free(cz_post_partition *p) {
  if (!p) return;
  for (size_t i = 0; p->proofs && i < p->n; i++) cz_post_vanilla_free(&p->proofs[i]);
  free(p->proofs);
  free(p->sectors);
  memset(p, 0, sizeof *p);
}

cz_err cz_post_partition_parse(cz_post_partition *out, const cz_post_challenge_seed *seed,
                               const uint8_t *const *vanilla, const size_t *lens, size_t n,
                               char *msg, size_t msg_len) {
  memset(out, 0, sizeof *out);
  const cz_registered_post *k = seed ? seed->registered : NULL;
  const uint8_t *randomness = seed ? seed->randomness : NULL;
  const uint8_t *prover_id = seed ? seed->prover_id : NULL;
  uint32_t partition = seed ? seed->partition : 0;
  if (!k || !randomness || !prover_id || (n && (!vanilla || !lens)))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "PoSt partition: NULL argument");
  size_t slots;
  cz_err e = cz_post_partition_slots(k, partition, n, &slots, msg, msg_len);
  if (e != CZ_OK) return e;
  if ((e = cz_post_check_fr(randomness, "randomness", NULL, msg, msg_len)) != CZ_OK) return e;
  out->proofs = calloc(n, sizeof *out->proofs);
  out->sectors = calloc(n, sizeof *out->sectors);
  if (!out->proofs || !out->sectors) {
    cz_post_partition_free(out);
    return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  }
  out->registered = k;
  out->partition = partition;
  memcpy(out->randomness, randomness, 32);
  memcpy(out->prover_id, prover_id, 32);
  for (size_t i = 0; i < n; i++) {
    if ((e = cz_post_vanilla_parse(&out->proofs[i], vanilla[i], lens[i], i, msg, msg_len)) !=
        CZ_OK) {
      cz_post_partition_free(out);
      return e;
    }
    out->n = i + 1;
    /* The verifier's view of each sector is what its proof claims: the
     * request carries no other sector list. */
    out->sectors[i].sector_id = out->proofs[i].sector_id;
    cz_fr_to_bytes_le(out->sectors[i].comm_r, &out->proofs[i].comm_r);
  }
  return CZ_OK;
}

cz_err cz_post_partition_verify(const cz_post_partition *p, char *msg, size_t msg_len) {
  if (!p || !p->registered)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "PoSt partition: not parsed");
  return cz_post_vanilla_verify(&(cz_post_challenge_seed){p->registered, p->randomness,
                                                          p->prover_id, p->partition},
                                p->sectors, p->proofs, p->n, msg, msg_len);
}

/* The circuit's slots over the partition's (verified) proofs: Winning's
 * one sector fills every slot, slot i opening challenge i; Window's slot i
 * is sector i, its last sector repeated up to sector_count. The paths are
 * copied into one array (*paths, the caller frees), challenge_count per
 * slot for the real ones. */
static cz_err fill_slots(const cz_post_partition *p, cz_post_slot **slots_out,
                         cz_merkle_proof **paths, char *msg, size_t msg_len) {
  const cz_registered_post *k = p->registered;
  size_t slots = k->sector_count, per = k->challenge_count;
  size_t real = k->type == CZ_POST_WINNING ? slots : p->n;
  cz_post_slot *s = calloc(slots, sizeof *s);
  cz_merkle_proof *mp = calloc(real * per, sizeof *mp);
  if (!s || !mp) {
    free(s);
    free(mp);
    return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  }
  for (size_t i = 0; i < real; i++) {
    const cz_post_vanilla *v = &p->proofs[k->type == CZ_POST_WINNING ? 0 : i];
    const cz_post_sector_proof *sp = &v->sectors[0];
    size_t first = k->type == CZ_POST_WINNING ? i : 0;
    for (size_t c = 0; c < per; c++) mp[i * per + c] = sp->inclusions[first + c].proof;
    s[i] = (cz_post_slot){v->comm_r, sp->comm_c, sp->comm_r_last, &mp[i * per]};
  }
  for (size_t i = real; i < slots; i++) s[i] = s[real - 1];
  *slots_out = s;
  *paths = mp;
  return CZ_OK;
}

/* The slots synthesized in parallel: a WITNESS run completed by the
 * recorded shape (a PROVE assignment bit for bit), or without a shape a
 * PROVE run. */
static cz_err synthesize_slots(const cz_registered_post *k, const cz_post_slot *slots,
                               const cz_pce *shape, unsigned n_threads, cz_assignment *as,
                               char *msg, size_t msg_len) {
  size_t leaves = (size_t)(k->sector_size / 32);
  cz_err e =
      cz_post_witness(&(cz_post_dims){&k->tree_r, leaves, k->sector_count, k->challenge_count},
                      slots, shape ? CZ_CS_WITNESS : CZ_CS_PROVE, n_threads, as, msg, msg_len);
  if (e != CZ_OK) {
    char why[160];
    snprintf(why, sizeof why, "%s", msg);
    cz_msg(msg, msg_len, "%s: synthesis: %s", k->name, why);
  }
  if (e == CZ_OK && shape && (e = cz_pce_eval(shape, as, n_threads)) != CZ_OK) {
    cz_assignment_free(as);
    cz_msg(msg, msg_len,
           e == CZ_ERR_NOMEM ? "out of memory" : "%s: the recorded shape is not this circuit's",
           k->name);
  }
  return e;
}

cz_err cz_post_synthesize_pce(const cz_post_partition *p, const cz_pce *shape, unsigned n_threads,
                              cz_assignment *as, char *msg, size_t msg_len) {
  memset(as, 0, sizeof *as);
  if (!p || !p->registered)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "PoSt partition: not parsed");
  const cz_registered_post *k = p->registered;
  size_t n_inputs = cz_post_public_input_count(k);
  cz_fr *want = NULL;
  cz_err e = verifier_inputs(p, &want, msg, msg_len);
  cz_post_slot *slots = NULL;
  cz_merkle_proof *paths = NULL;
  if (e == CZ_OK) e = fill_slots(p, &slots, &paths, msg, msg_len);
  if (e == CZ_OK)
    e = cz_post_check_sectors(&k->tree_r, (size_t)(k->sector_size / 32), k->sector_count,
                              k->challenge_count, slots, msg, msg_len);
  if (e == CZ_OK) e = synthesize_slots(k, slots, shape, n_threads, as, msg, msg_len);
  /* The circuit's inputs must be the verifier's: a cheap guard against a
   * circuit / input-generator mismatch, which would otherwise surface as
   * an invalid proof. */
  if (e == CZ_OK && (as->n_inputs != n_inputs + 1 ||
                     memcmp(as->inputs + 1, want, n_inputs * sizeof *want) != 0)) {
    cz_assignment_free(as);
    e = cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                   "%s: the circuit's public inputs differ from the verifier's", k->name);
  }
  free(slots);
  free(paths);
  free(want);
  return e;
}

cz_err cz_post_synthesize(const cz_post_partition *p, unsigned n_threads, cz_assignment *as,
                          char *msg, size_t msg_len) {
  return cz_post_synthesize_pce(p, NULL, n_threads, as, msg, msg_len);
}

/* The circuit of registered proof ctx, without a witness (keygen, recording). */
static cz_err build_registered(cz_cs *cs, const void *ctx) {
  const cz_registered_post *k = ctx;
  return cz_post_circuit(cs, &k->tree_r, (size_t)(k->sector_size / 32), k->sector_count,
                         k->challenge_count, NULL);
}

cz_err cz_post_record_shape(const cz_registered_post *k, cz_pce **out, char *msg, size_t msg_len) {
  *out = NULL;
  if (!k) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "no registered PoSt proof");
  return cz_post_record_slots(&k->tree_r, (size_t)(k->sector_size / 32), k->sector_count,
                              k->challenge_count, k->name, out, msg, msg_len);
}

cz_err cz_post_groth16_prove(const cz_post_partition *p, cz_assignment *as, const cz_prove_ctx *pc,
                             uint8_t out[CZ_GROTH16_PROOF_BYTES], char *msg, size_t msg_len) {
  cz_fr *inputs = NULL;
  cz_err e = !p || !p->registered
                 ? cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "missing partition")
                 : verifier_inputs(p, &inputs, msg, msg_len);
  if (e != CZ_OK) {
    cz_assignment_free(as);
    return e;
  }
  /* Curio uses PoSt proofs unverified: this check is the only one. */
  e = cz_groth16_prove_verified(pc, as, inputs, cz_post_public_input_count(p->registered),
                                p->registered->name, out, msg, msg_len);
  free(inputs);
  return e;
}

cz_err cz_post_prove(const cz_post_partition *p, const cz_prove_ctx *pc,
                     uint8_t out[CZ_GROTH16_PROOF_BYTES], char *msg, size_t msg_len) {
  const cz_groth16_params *params = pc ? pc->params : NULL;
  if (!p || !p->registered || !params || !out)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "missing partition, parameters or output");
  if (params->vk.n_ic != cz_post_public_input_count(p->registered) + 1)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "parameters take %zu public inputs, %s has %zu", params->vk.n_ic - 1,
                      p->registered->name, cz_post_public_input_count(p->registered));
  cz_err e = cz_post_partition_verify(p, msg, msg_len);
  if (e != CZ_OK) return e;
  cz_assignment as;
  uint64_t t0 = cz_now_ns();
  if ((e = cz_post_synthesize(p, pc->n_threads, &as, msg, msg_len)) != CZ_OK) return e;
  cz_prove_timing_emit(pc->timing, CZ_PHASE_SYNTHESIS, cz_now_ns() - t0);
  return cz_post_groth16_prove(p, &as, pc, out, msg, msg_len);
}

cz_err cz_post_keygen_shape(void *ctx, cz_cs *cs) { return build_registered(cs, ctx); }

cz_err cz_post_keygen(void *ctx, cz_keygen_cols *out, char *msg, size_t msg_len) {
  const cz_registered_post *k = ctx;
  return cz_circuit_keygen(build_registered, k, k->name, out, msg, msg_len);
}

cz_err cz_post_params_get(cz_groth16_params *out, const cz_registered_post *k,
                          const cz_params_store_opts *o, cz_params_origin *origin, char *msg,
                          size_t msg_len) {
  memset(out, 0, sizeof *out);
  if (!k) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "no registered PoSt proof");
  char name[256];
  if (cz_post_param_name(k, name, sizeof name) >= sizeof name) return CZ_ERR_INVALID_ARG;
  cz_err e = cz_official_params_check(name, o, msg, msg_len);
  if (e != CZ_OK) return e;
  return cz_params_store_get(out, name, cz_post_public_input_count(k) + 1, o, origin, msg, msg_len);
}
