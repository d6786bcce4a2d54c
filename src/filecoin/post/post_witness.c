/* The fallback PoSt circuit with its sector slots synthesized in parallel
 * (cz_slots_synthesize), as bellperson's synthesize_extendable does for
 * the prover (fallback/circuit.rs: chunks of sectors into fresh systems,
 * then ConstraintSystem::extend). The circuit has no header but ONE, and
 * every slot is one sector: "outer namespace/sector_<i>" as the serial
 * cz_post_circuit names it. */
#include <string.h>

#include "cuzk/cs_slots.h"
#include "cuzk/post_circuit.h"
#include "filecoin/circuit_build.h"
#include "util/msg.h"

typedef struct {
  const cz_merkle_shape *tree;
  size_t leaves, n_challenges;
  const cz_post_slot *sectors;
  bool vals;
} post_slots;

static cz_err no_header(cz_cs *cs, void *ctx) {
  (void)ctx;
  return cz_cs_error(cs);
}

static cz_err sector_slot(cz_cs *cs, const void *ctx, size_t i) {
  const post_slots *p = ctx;
  CZ_PUSH_NS(cs, "outer namespace");
  CZ_PUSH_NS(cs, "sector_%zu", i);
  cz_err e = cz_post_sector_circuit(cs, p->tree, p->leaves, p->n_challenges,
                                    p->vals ? &p->sectors[i] : NULL);
  CZ_POP_NS(cs);
  CZ_POP_NS(cs);
  return e != CZ_OK ? e : cz_cs_error(cs);
}

cz_err cz_post_witness(const cz_post_dims *d, const cz_post_slot *sectors, cz_cs_mode mode,
                       unsigned n_threads, cz_assignment *out, char *msg, size_t msg_len) {
  if (!out) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "out: missing");
  memset(out, 0, sizeof *out);
  if (!d) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "sizes: missing");
  const cz_merkle_shape *tree = d->tree;
  size_t sector_leaves = d->sector_leaves, n_sectors = d->n_sectors, n_challenges = d->n_challenges;
  if (mode != CZ_CS_WITNESS && mode != CZ_CS_PROVE)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "mode: WITNESS or PROVE");
  cz_err e =
      cz_post_check_sectors(tree, sector_leaves, n_sectors, n_challenges, sectors, msg, msg_len);
  if (e != CZ_OK) return e;
  post_slots p = {tree, sector_leaves, n_challenges, sectors, true};
  cz_slotted_circuit c = {n_sectors, no_header, sector_slot, &p};
  return cz_slots_synthesize(mode, NULL, &c, n_threads, out, msg, msg_len);
}

cz_err cz_post_record_slots(const cz_merkle_shape *tree, size_t sector_leaves, size_t n_sectors,
                            size_t n_challenges, const char *what, cz_pce **out, char *msg,
                            size_t msg_len) {
  *out = NULL;
  post_slots p = {tree, sector_leaves, n_challenges, NULL, false};
  cz_slotted_circuit c = {n_sectors, no_header, sector_slot, &p};
  return cz_circuit_record_slots(&c, what, out, msg, msg_len);
}
