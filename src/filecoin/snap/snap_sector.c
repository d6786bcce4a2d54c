/* Test sectors for SnapDeals: what a storage provider has after
 * filecoin-ffi's empty_sector_update_encode_into, made in memory from a
 * freshly sealed committed-capacity sector. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/porep.h"
#include "cuzk/snap.h"
#include "util/msg.h"

/* The leaves of a built tree, in order (base tree b holds leaves
 * [b * base_leaves, (b + 1) * base_leaves) first in its node block). */
static void tree_leaves(const cz_merkle_tree *t, cz_fr *out) {
  for (size_t b = 0; b < t->n_base_trees; b++)
    memcpy(out + b * t->base_leaves, t->nodes + b * t->base_tree_nodes,
           t->base_leaves * sizeof *out);
}

void cz_snap_sector_free(cz_snap_sector *s) {
  if (!s) return;
  cz_merkle_tree_free(&s->tree_r_old);
  cz_merkle_tree_free(&s->tree_d_new);
  cz_merkle_tree_free(&s->tree_r_new);
  memset(s, 0, sizeof *s);
}

void cz_snap_sector_trees(const cz_snap_sector *s, cz_snap_trees *out) {
  out->tree_r_old = &s->tree_r_old;
  out->tree_d_new = &s->tree_d_new;
  out->tree_r_new = &s->tree_r_new;
  out->comm_c = s->comm_c;
}

/* Seal the CC sector: tree R old (taken from the replica) and comm_c. */
static cz_err seal_cc(const cz_registered_snap *k, uint64_t sector_id, unsigned n_threads,
                      cz_snap_sector *out, char *msg, size_t msg_len) {
  cz_porep_seal_input in;
  memset(&in, 0, sizeof in);
  in.registered = cz_registered_porep_by_sector_size(k->sector_size, true);
  if (!in.registered)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "%s: no seal proof of that size", k->name);
  uint8_t *zeros = calloc(1, k->sector_size);
  if (!zeros) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory for the CC data");
  in.sector_id = sector_id;
  in.data = zeros;
  memset(in.ticket, 0x0c, 32);
  memset(in.seed, 0x0d, 32);
  cz_porep_c1 c1;
  cz_porep_replica rep;
  cz_err e = cz_porep_seal_replica(&in, NULL, &c1, &rep, n_threads, msg, msg_len);
  free(zeros);
  if (e != CZ_OK) return e;
  cz_porep_c1_free(&c1);
  out->tree_r_old = rep.tree_r_last; /* moved: rep no longer owns it */
  out->comm_c = rep.comm_c;
  memcpy(out->comm_r_old, rep.comm_r, 32);
  return CZ_OK;
}

cz_err cz_snap_sector_make(const cz_registered_snap *k, uint64_t sector_id, const uint8_t *new_data,
                           unsigned n_threads, cz_snap_sector *out, char *msg, size_t msg_len) {
  if (!out) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "out: missing");
  memset(out, 0, sizeof *out);
  if (!k) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "registered proof: missing");
  out->registered = k;
  const uint64_t nodes = k->shape.nodes;
  static const cz_merkle_shape tree_d = {CZ_MERKLE_SHA256, 2, 0, 0};
  uint8_t *dflt = new_data ? NULL : malloc(k->sector_size);
  cz_fr *old = malloc(nodes * sizeof *old), *data = malloc(nodes * sizeof *data);
  cz_err e = (new_data || dflt) && old && data ? CZ_OK : CZ_ERR_NOMEM;
  if (e != CZ_OK)
    cz_msg_err(msg, msg_len, e, "out of memory for %llu nodes", (unsigned long long)nodes);
  if (e == CZ_OK) e = seal_cc(k, sector_id, n_threads, out, msg, msg_len);
  if (e == CZ_OK) {
    if (dflt) cz_porep_default_data(dflt, k->sector_size);
    if (cz_merkle_leaves_from_bytes(data, new_data ? new_data : dflt, nodes) != CZ_OK)
      e = cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                     "new data: a 32-byte chunk is not below r (not fr32-padded)");
  }
  if (e == CZ_OK && (e = cz_merkle_tree_build(&out->tree_d_new, &tree_d, data, nodes)) != CZ_OK)
    cz_msg_err(msg, msg_len, e, "building tree D new");
  cz_fr comm_r_old, comm_d_new;
  if (e == CZ_OK) {
    e = cz_fr_from_bytes_le(&comm_r_old, out->comm_r_old);
    if (e != CZ_OK) cz_msg_err(msg, msg_len, e, "comm_r_old: not below the field modulus");
  }
  if (e == CZ_OK) {
    comm_d_new = out->tree_d_new.root;
    cz_fr_to_bytes_le(out->comm_d_new, &comm_d_new);
    tree_leaves(&out->tree_r_old, old);
    e = cz_snap_encode(&k->shape, k->shape.h, &comm_d_new, &comm_r_old, old, data, old);
    if (e != CZ_OK) cz_msg_err(msg, msg_len, e, "encoding the new data");
  }
  if (e == CZ_OK && (e = cz_merkle_tree_build(&out->tree_r_new, &k->shape.tree_r, old, nodes)))
    cz_msg_err(msg, msg_len, e, "building tree R new");
  if (e == CZ_OK) {
    cz_fr pair[2] = {out->comm_c, out->tree_r_new.root}, comm_r_new;
    e = cz_merkle_hash_node(CZ_MERKLE_POSEIDON, 2, pair, &comm_r_new);
    if (e != CZ_OK) cz_msg_err(msg, msg_len, e, "hashing comm_r_new");
    else cz_fr_to_bytes_le(out->comm_r_new, &comm_r_new);
  }
  free(dflt);
  free(old);
  free(data);
  if (e != CZ_OK) cz_snap_sector_free(out);
  return e;
}
