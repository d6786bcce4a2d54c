/* The interactive StackedDRG circuit of one partition, allocation for
 * allocation as storage-proofs-porep builds it: StackedCircuit::synthesize
 * (stacked/circuit/proof.rs), Proof::synthesize and enforce_inclusion
 * (params.rs), the columns (column.rs, column_proof.rs), the labels
 * (create_label.rs) and the column hashes (hash.rs), on the gadgets of
 * storage-proofs-core (por.rs with Root::Var leaves and roots, encode.rs,
 * uint64.rs). Namespaces are rust-fil-proofs' so that TEST names a failing
 * constraint as bellperson's TestConstraintSystem would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/cs_slots.h"
#include "cuzk/por.h"
#include "cuzk/porep.h"
#include "filecoin/circuit_build.h"
#include "util/msg.h"

/* Tree D: BinaryMerkleTree<Sha256Hasher>. */
static const cz_merkle_shape TREE_D = {CZ_MERKLE_SHA256, 2, 0, 0};

/* One opened column in the circuit: its rows (labels of layers 1..layers). */
typedef struct {
  cz_anum rows[CZ_POREP_MAX_LAYERS];
} column_vars;

/* What every challenge shares, and the scratch it reuses (heap, once per
 * circuit: the parent bits alone are 14 x 256 Booleans). */
typedef struct {
  cz_cs *cs;
  const cz_porep_shape *shape;
  cz_anum comm_d, comm_c, comm_r_last;
  cz_bool replica_bits[256];
  column_vars drg[CZ_SDR_BASE_DEGREE], exp[CZ_SDR_EXP_DEGREE];
  cz_bool parent_bits[CZ_SDR_DEGREE][256];
  cz_anum labels[CZ_POREP_MAX_LAYERS];
} porep_ctx;

/* AllocatedNum::alloc in namespace ns; value ignored without values. */
static void alloc_named(cz_cs *cs, cz_anum *out, const cz_fr *value, const char *ns) {
  CZ_PUSH_NS(cs, "%s", ns);
  cz_cs_sticky(cz_anum_alloc(cs, out, value ? value : &CZ_FR_ZERO));
  CZ_POP_NS(cs);
}

/* reverse_bit_numbering(num.to_bits_le()): the 255 bits padded with a
 * constant false to 256, each byte's bits reversed, i.e. the number's
 * little-endian bytes, each most significant bit first. */
static void to_bits_reversed(cz_cs *cs, cz_bool out[256], const cz_anum *num) {
  cz_bool le[CZ_FR_NUM_BITS];
  cz_cs_sticky(cz_anum_to_bits_le(cs, le, num));
  for (unsigned k = 0; k < 256; k++) {
    unsigned src = (k & ~7u) | (7 - (k & 7));
    out[k] = src < CZ_FR_NUM_BITS ? le[src] : cz_bool_const(false);
  }
}

/* enforce_inclusion (in namespace ns): PoRCircuit with Root::Var leaf and
 * root, private root. p is NULL without values. */
static cz_err enforce_inclusion(porep_ctx *x, const char *ns, const cz_merkle_shape *s,
                                const cz_merkle_proof *p, const cz_anum *root,
                                const cz_anum *leaf) {
  CZ_PUSH_NS(x->cs, "%s", ns);
  cz_err e = cz_por_circuit_allocated(x->cs, s, x->shape->nodes, p, leaf, root, true);
  CZ_POP_NS(x->cs);
  return e;
}

/* ColumnProof::alloc ("<kind>_parent_<i>_num/column/column_num_row_<r>"),
 * its hash ("..._constraint") and its inclusion in tree C ("..._inclusion").
 * wit is NULL without values. */
static cz_err parent_column(porep_ctx *x, column_vars *col, const cz_porep_column *wit,
                            const char *kind, int i) {
  cz_cs *cs = x->cs;
  uint32_t layers = x->shape->layers;
  CZ_PUSH_NS(cs, "%s_parent_%d_num", kind, i);
  CZ_PUSH_NS(cs, "column");
  for (uint32_t r = 0; r < layers; r++) {
    CZ_PUSH_NS(cs, "column_num_row_%u", r);
    cz_cs_sticky(cz_anum_alloc(cs, &col->rows[r], wit ? &wit->rows[r] : &CZ_FR_ZERO));
    CZ_POP_NS(cs);
  }
  CZ_POP_NS(cs);
  CZ_POP_NS(cs);
  cz_anum hash;
  CZ_PUSH_NS(cs, "%s_parent_%d_constraint", kind, i);
  cz_err e = cz_sdr_column_hash_gadget(cs, &hash, col->rows, layers);
  CZ_POP_NS(cs);
  if (e != CZ_OK) return e;
  char ns[32];
  snprintf(ns, sizeof ns, "%s_parent_%d_inclusion", kind, i);
  return enforce_inclusion(x, ns, &x->shape->tree_r, wit ? &wit->tree_c : NULL, &x->comm_c, &hash);
}

/* The label of the challenged node in `layer` ("labeling_<layer>"): the
 * parents' labels to bits (DRG parents from this layer's rows, expander
 * parents from the previous layer's, none in layer 1), repeated cyclically
 * to 37 as the label hash consumes them, then create_label. */
static cz_err label_layer(porep_ctx *x, uint32_t layer, const cz_bool challenge_le[64]) {
  cz_cs *cs = x->cs;
  CZ_PUSH_NS(cs, "labeling_%u", layer);
  int n = 0;
  for (int k = 0; k < CZ_SDR_BASE_DEGREE; k++, n++) {
    CZ_PUSH_NS(cs, "drg_parent_%d_bits", n);
    to_bits_reversed(cs, x->parent_bits[n], &x->drg[k].rows[layer - 1]);
    CZ_POP_NS(cs);
  }
  if (layer > 1)
    for (int k = 0; k < CZ_SDR_EXP_DEGREE; k++, n++) {
      CZ_PUSH_NS(cs, "exp_parent_%d_bits", n);
      to_bits_reversed(cs, x->parent_bits[n], &x->exp[k].rows[layer - 2]);
      CZ_POP_NS(cs);
    }
  /* Layer 1: 6 parents x 6 + parents[0]; later: 14 x 2 + parents[..9]. */
  const cz_bool *parents[CZ_SDR_LABEL_PARENTS];
  size_t parent_bits[CZ_SDR_LABEL_PARENTS];
  for (int i = 0; i < CZ_SDR_LABEL_PARENTS; i++) {
    parents[i] = x->parent_bits[i % n];
    parent_bits[i] = 256;
  }
  cz_u32 layer_num;
  cz_u32_const(&layer_num, layer);
  CZ_PUSH_NS(cs, "create_label");
  cz_err e = cz_sdr_label_gadget(cs, &x->labels[layer - 1], x->replica_bits, 256, parents,
                                 parent_bits, &layer_num, challenge_le);
  CZ_POP_NS(cs);
  CZ_POP_NS(cs);
  return e != CZ_OK ? e : cz_cs_error(cs);
}

/* Proof::synthesize for one challenge (in "challenge_<i>"); p is NULL
 * without values. */
static cz_err challenge_circuit(porep_ctx *x, const cz_porep_challenge_proof *p) {
  cz_cs *cs = x->cs;
  const cz_porep_shape *sh = x->shape;
  const cz_merkle_shape *tree_r = &sh->tree_r;

  cz_anum data_leaf;
  alloc_named(cs, &data_leaf, p ? &p->tree_d.leaf : NULL, "data_leaf");
  cz_err e = enforce_inclusion(x, "comm_d_inclusion", &TREE_D, p ? &p->tree_d : NULL, &x->comm_d,
                               &data_leaf);
  for (int i = 0; e == CZ_OK && i < CZ_SDR_BASE_DEGREE; i++)
    e = parent_column(x, &x->drg[i], p ? &p->drg[i] : NULL, "drg", i);
  for (int i = 0; e == CZ_OK && i < CZ_SDR_EXP_DEGREE; i++)
    e = parent_column(x, &x->exp[i], p ? &p->exp[i] : NULL, "exp", i);
  if (e != CZ_OK) return e;

  /* The challenge is the labeling proof's node (Proof::from takes
   * labeling_proofs[0].node), a UInt64 packed into one input. */
  cz_bool challenge[64];
  CZ_PUSH_NS(cs, "challenge");
  cz_cs_sticky(cz_u64_alloc(cs, challenge, p ? p->labeling[0].node : 0));
  CZ_POP_NS(cs);
  CZ_PUSH_NS(cs, "challenge input");
  cz_cs_sticky(cz_pack_into_inputs(cs, challenge, 64));
  CZ_POP_NS(cs);

  for (uint32_t layer = 1; e == CZ_OK && layer <= sh->layers; layer++)
    e = label_layer(x, layer, challenge);
  if (e != CZ_OK) return e;

  /* The key is the last layer's label. */
  cz_anum encoded;
  CZ_PUSH_NS(cs, "encode_node");
  e = cz_sdr_encode_gadget(cs, &encoded, &x->labels[sh->layers - 1], &data_leaf);
  CZ_POP_NS(cs);
  if (e == CZ_OK)
    e = enforce_inclusion(x, "comm_r_last_data_inclusion", tree_r, p ? &p->tree_r_last : NULL,
                          &x->comm_r_last, &encoded);
  if (e != CZ_OK) return e;

  cz_anum column_hash;
  CZ_PUSH_NS(cs, "c_x_column_hash");
  e = cz_sdr_column_hash_gadget(cs, &column_hash, x->labels, sh->layers);
  CZ_POP_NS(cs);
  if (e == CZ_OK)
    e = enforce_inclusion(x, "c_x_inclusion", tree_r, p ? &p->c_x.tree_c : NULL, &x->comm_c,
                          &column_hash);
  return e != CZ_OK ? e : cz_cs_error(cs);
}

static bool shape_eq(const cz_porep_shape *a, const cz_porep_shape *b) {
  return a->nodes == b->nodes && a->layers == b->layers && a->challenges == b->challenges &&
         a->tree_r.hasher == b->tree_r.hasher && a->tree_r.base_arity == b->tree_r.base_arity &&
         a->tree_r.sub_arity == b->tree_r.sub_arity && a->tree_r.top_arity == b->tree_r.top_arity;
}

/* The circuit needs column hashes (2 or 11 layers, hash.rs) and trees that
 * fit the node count; rust-fil-proofs panics elsewhere. */
static bool shape_ok(const cz_porep_shape *s) {
  return s && (s->layers == 2 || s->layers == 11) && s->challenges > 0 && s->nodes <= UINT32_MAX &&
         cz_merkle_shape_ok(&TREE_D, s->nodes) && cz_merkle_shape_ok(&s->tree_r, s->nodes);
}

/* The witness values of StackedCircuit's top level: replica_id, comm_d,
 * comm_r from the C1; comm_r_last and comm_c from the first challenge's
 * tree-R and tree-C roots, which every challenge must share
 * (StackedCompound::circuit's "inconsistent comm_r_lasts / comm_cs"). */
static cz_err top_values(const cz_porep_c1 *c1, uint32_t partition, cz_fr v[5], char *msg,
                         size_t msg_len) {
  const uint8_t *const fields[3] = {c1->replica_id, c1->comm_d, c1->comm_r};
  static const char *const names[3] = {"replica_id", "comm_d", "comm_r"};
  for (int i = 0; i < 3; i++)
    if (cz_fr_from_bytes_le(&v[i], fields[i]) != CZ_OK)
      return cz_msg_err(msg, msg_len, CZ_ERR_NONCANONICAL, "%s: not below the field modulus",
                        names[i]);
  size_t first = (size_t)partition * c1->n_challenges;
  const cz_porep_challenge_proof *p = &c1->proofs[first];
  v[3] = p[0].tree_r_last.root;
  v[4] = p[0].c_x.tree_c.root;
  for (uint32_t i = 1; i < c1->n_challenges; i++) {
    bool r_last = cz_fr_eq(&p[i].tree_r_last.root, &v[3]);
    if (!r_last || !cz_fr_eq(&p[i].c_x.tree_c.root, &v[4]))
      return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                        "vanilla_proofs[%u][%u].%s root differs from challenge 0's", partition, i,
                        r_last ? "replica_column_proofs.c_x.inclusion_proof" : "comm_r_last_proof");
  }
  return CZ_OK;
}

/* What the header leaves for the challenges: the shape, the partition's
 * proofs (NULL without values) and the top-level variables. */
typedef struct {
  const cz_porep_shape *shape;
  const cz_porep_challenge_proof *proofs;
  cz_fr top[5];
  bool vals;
  cz_anum comm_d, comm_c, comm_r_last;
  cz_bool replica_bits[256];
} porep_top;

/* StackedCircuit::synthesize up to the challenges. */
static cz_err top_header(cz_cs *cs, void *ctx) {
  porep_top *t = ctx;
  const cz_fr *top = t->vals ? t->top : NULL;
  cz_anum replica_id, comm_r;
  alloc_named(cs, &replica_id, top ? &top[0] : NULL, "replica_id");
  CZ_PUSH_NS(cs, "replica_id_input");
  cz_cs_sticky(cz_anum_inputize(cs, &replica_id));
  CZ_POP_NS(cs);
  CZ_PUSH_NS(cs, "replica_id_bits");
  to_bits_reversed(cs, t->replica_bits, &replica_id);
  CZ_POP_NS(cs);

  alloc_named(cs, &t->comm_d, top ? &top[1] : NULL, "comm_d");
  CZ_PUSH_NS(cs, "comm_d_input");
  cz_cs_sticky(cz_anum_inputize(cs, &t->comm_d));
  CZ_POP_NS(cs);

  alloc_named(cs, &comm_r, top ? &top[2] : NULL, "comm_r");
  CZ_PUSH_NS(cs, "comm_r_input");
  cz_cs_sticky(cz_anum_inputize(cs, &comm_r));
  CZ_POP_NS(cs);

  alloc_named(cs, &t->comm_r_last, top ? &top[3] : NULL, "comm_r_last");
  alloc_named(cs, &t->comm_c, top ? &top[4] : NULL, "comm_c");
  cz_err e = cz_sdr_comm_r_gadget(cs, &comm_r, &t->comm_c, &t->comm_r_last);
  return e != CZ_OK ? e : cz_cs_error(cs);
}

/* Challenge i ("challenge_<i>"), with scratch of its own: slots run on
 * many threads at once. */
static cz_err top_challenge(cz_cs *cs, const void *ctx, size_t i) {
  const porep_top *t = ctx;
  porep_ctx *x = malloc(sizeof *x);
  if (!x) return CZ_ERR_NOMEM;
  x->cs = cs;
  x->shape = t->shape;
  x->comm_d = t->comm_d;
  x->comm_c = t->comm_c;
  x->comm_r_last = t->comm_r_last;
  memcpy(x->replica_bits, t->replica_bits, sizeof x->replica_bits);
  CZ_PUSH_NS(cs, "challenge_%zu", i);
  cz_err e = challenge_circuit(x, t->vals ? &t->proofs[i] : NULL);
  CZ_POP_NS(cs);
  free(x);
  return e != CZ_OK ? e : cz_cs_error(cs);
}

/* The checks of cz_porep_circuit, and the header's values. */
static cz_err top_init(porep_top *t, const cz_porep_shape *shape, const cz_porep_c1 *c1,
                       uint32_t partition, bool vals, char *msg, size_t msg_len) {
  memset(t, 0, sizeof *t);
  if (!shape_ok(shape)) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "shape: unsupported");
  if (vals && !c1) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "c1: missing");
  t->shape = shape;
  t->vals = vals;
  if (!c1) return CZ_OK;
  if (!c1->registered || !c1->proofs || !shape_eq(shape, &c1->registered->shape))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "registered_proof: not this circuit's");
  if (partition >= c1->n_partitions)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "partition %u: the C1 has %u", partition,
                      c1->n_partitions);
  if (c1->n_challenges != shape->challenges)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "vanilla_proofs[%u]: %u challenges, the circuit takes %u", partition,
                      c1->n_challenges, shape->challenges);
  t->proofs = &c1->proofs[(size_t)partition * c1->n_challenges];
  return top_values(c1, partition, t->top, msg, msg_len);
}

static cz_slotted_circuit top_circuit(porep_top *t) {
  return (cz_slotted_circuit){t->shape->challenges, top_header, top_challenge, t};
}

cz_err cz_porep_circuit(cz_cs *cs, const cz_porep_shape *shape, const cz_porep_c1 *c1,
                        uint32_t partition) {
  if (!cs) return CZ_ERR_INVALID_ARG;
  porep_top *t = malloc(sizeof *t);
  if (!t) return CZ_ERR_NOMEM;
  cz_err e = top_init(t, shape, c1, partition, cz_cs_needs_values(cs), NULL, 0);
  if (e == CZ_OK) {
    cz_slotted_circuit c = top_circuit(t);
    e = cz_slots_run(cs, &c, NULL, 0);
  }
  free(t);
  return e != CZ_OK ? e : cz_cs_error(cs);
}

cz_err cz_porep_witness(cz_cs_mode mode, const cz_porep_c1 *c1, uint32_t partition,
                        const cz_cs_config *cfg, unsigned n_threads, cz_assignment *out, char *msg,
                        size_t msg_len) {
  if (!out) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "out: missing");
  memset(out, 0, sizeof *out);
  if (!c1 || !c1->registered) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "c1: missing");
  porep_top *t = malloc(sizeof *t);
  if (!t) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  cz_err e = top_init(t, &c1->registered->shape, c1, partition, true, msg, msg_len);
  if (e == CZ_OK) {
    cz_slotted_circuit c = top_circuit(t);
    e = cz_slots_synthesize(mode, cfg, &c, n_threads, out, msg, msg_len);
  }
  free(t);
  return e;
}

cz_err cz_porep_record_shape(const cz_registered_porep *k, cz_pce **out, char *msg,
                             size_t msg_len) {
  *out = NULL;
  if (!k) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "no registered proof");
  porep_top *t = malloc(sizeof *t);
  if (!t) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  cz_err e = top_init(t, &k->shape, NULL, 0, false, msg, msg_len);
  if (e == CZ_OK) {
    cz_slotted_circuit c = top_circuit(t);
    e = cz_circuit_record_slots(&c, k->name, out, msg, msg_len);
  }
  free(t);
  return e;
}

cz_err cz_porep_c1_public_inputs_config(const cz_porep_c1 *c1, const cz_porep_config *cfg,
                                        uint32_t partition, cz_fr *out, size_t *n) {
  if (!c1 || !c1->registered || !n) return CZ_ERR_INVALID_ARG;
  cz_porep_config own;
  cz_registered_porep_config(c1->registered, &own);
  if (cfg && (cfg->sector_size != own.sector_size || cfg->challenges != own.challenges ||
              cfg->partitions != own.partitions))
    return CZ_ERR_INVALID_ARG;
  return cz_porep_public_inputs_replica(cfg ? cfg : &own, c1->replica_id, c1->seed, c1->comm_d,
                                        c1->comm_r, partition, out, n);
}

cz_err cz_porep_c1_public_inputs(const cz_porep_c1 *c1, uint32_t partition, cz_fr *out, size_t *n) {
  return cz_porep_c1_public_inputs_config(c1, NULL, partition, out, n);
}
