/* The insert gadget (storage-proofs-core gadgets/insertion.rs), the tree
 * hashers' hash_multi_leaf_circuit (filecoin-hashers) and the PoR circuit
 * (gadgets/por.rs), allocation for allocation. */
#include <string.h>

#include "cuzk/merkle.h"
#include "cuzk/por.h"
#include "cuzk/poseidon_gadget.h"
#include "gadgets/gadget_util.h"

cz_err cz_pick(cz_cs *cs, cz_anum *out, const cz_bool *cond, const cz_anum *a, const cz_anum *b) {
  cz_anum A = *a, B = *b; /* out may alias a or b */
  CZ_PUSH_NS(cs, "pick result");
  cz_cs_sticky(cz_anum_alloc(cs, out, cond->value ? &A.value : &B.value));
  CZ_POP_NS(cs);
  if (!cz_cs_needs_constraints(cs)) {
    cz_gadget_enforce_nothing(cs);
    return cz_cs_error(cs);
  }
  cz_lc3 l;
  cz_lc3_init(&l, cs);
  cz_lc_add(&l.a, B.var);
  cz_lc_sub(&l.a, A.var);
  cz_bool_add_to_lc(&l.b, *cond, &CZ_FR_ONE);
  cz_lc_add(&l.c, B.var);
  cz_lc_sub(&l.c, out->var);
  CZ_ENFORCE(cs, &l.a, &l.b, &l.c, "pick");
  cz_lc3_free(&l);
  return cz_cs_error(cs);
}

/* witness!(name <== if cond { a } else { b }) */
static void wit(cz_cs *cs, cz_anum *out, const char *name, const cz_bool *cond, const cz_anum *a,
                const cz_anum *b) {
  CZ_PUSH_NS(cs, "%s", name);
  cz_cs_sticky(cz_pick(cs, out, cond, a, b));
  CZ_POP_NS(cs);
}

static void insert_4(cz_cs *cs, cz_anum *o, const cz_anum *A, const cz_bool *bits,
                     const cz_anum *e) {
  const cz_bool *b0 = &bits[0], *b1 = &bits[1];
  const cz_anum *b = &e[0], *c = &e[1], *d = &e[2];
  cz_anum t;
  wit(cs, &t, "p0_x0", b0, b, A);
  wit(cs, &o[0], "p0", b1, b, &t);
  wit(cs, &t, "p1_x0", b0, A, b);
  wit(cs, &o[1], "p1", b1, c, &t);
  wit(cs, &t, "p2_x1", b0, d, A);
  wit(cs, &o[2], "p2", b1, &t, c);
  wit(cs, &t, "p3_x1", b0, A, d);
  wit(cs, &o[3], "p3", b1, &t, d);
}

static cz_err insert_8(cz_cs *cs, cz_anum *o, const cz_anum *A, const cz_bool *bits,
                       const cz_anum *e) {
  const cz_bool *b0 = &bits[0], *b1 = &bits[1], *b2 = &bits[2];
  if (b0->form != CZ_BOOL_IS || b1->form != CZ_BOOL_IS) return CZ_ERR_INVALID_ARG;
  const cz_anum *b = &e[0], *c = &e[1], *d = &e[2], *ee = &e[3], *f = &e[4], *g = &e[5], *h = &e[6];
  cz_abit x0 = {b0->var, b0->value}, x1 = {b1->var, b1->value}, nor, and;
  CZ_PUSH_NS(cs, "b0 nor b1");
  cz_cs_sticky(cz_abit_nor(cs, &nor, &x0, &x1));
  CZ_POP_NS(cs);
  CZ_PUSH_NS(cs, "b0 and b1");
  cz_cs_sticky(cz_abit_and(cs, &and, &x0, &x1));
  CZ_POP_NS(cs);
  cz_bool b0_nor_b1 = cz_bool_from_bit(nor), b0_and_b1 = cz_bool_from_bit(and);
  cz_anum t, u;
  wit(cs, &t, "p0_xx0", &b0_nor_b1, A, b);
  wit(cs, &o[0], "p0", b2, b, &t);

  wit(cs, &t, "p1_x00", b0, A, b);
  wit(cs, &u, "p1_xx0", b1, c, &t);
  wit(cs, &o[1], "p1", b2, c, &u);

  wit(cs, &t, "p2_x10", b0, d, A);
  wit(cs, &u, "p2_xx0", b1, &t, c);
  wit(cs, &o[2], "p2", b2, d, &u);

  wit(cs, &t, "p3_xx0", &b0_and_b1, A, d);
  wit(cs, &o[3], "p3", b2, ee, &t);

  wit(cs, &t, "p4_xx1", &b0_nor_b1, A, f);
  wit(cs, &o[4], "p4", b2, &t, ee);

  wit(cs, &t, "p5_x01", b0, A, f);
  wit(cs, &u, "p5_xx1", b1, g, &t);
  wit(cs, &o[5], "p5", b2, &u, f);

  wit(cs, &t, "p6_x11", b0, h, A);
  wit(cs, &u, "p6_xx1", b1, &t, g);
  wit(cs, &o[6], "p6", b2, &u, g);

  wit(cs, &t, "p7_xx1", &b0_and_b1, A, h);
  wit(cs, &o[7], "p7", b2, &t, h);
  return cz_cs_error(cs);
}

/* insertion.rs select: MSB first, halving the candidates per bit. */
static void select_gadget(cz_cs *cs, cz_anum *out, const cz_anum *from, size_t n,
                          const cz_bool *bits, size_t nbits) {
  cz_anum state[CZ_SELECT_MAX];
  memcpy(state, from, n * sizeof *state);
  size_t half = n / 2;
  for (size_t i = 0; i < nbits; i++, half /= 2) {
    const cz_bool *bit = &bits[nbits - 1 - i];
    for (size_t j = 0; j < half; j++) {
      CZ_PUSH_NS(cs, "pick %zu, %zu", i, j);
      cz_cs_sticky(cz_pick(cs, &state[j], bit, &state[half + j], &state[j]));
      CZ_POP_NS(cs);
    }
  }
  *out = state[0];
}

cz_err cz_select(cz_cs *cs, cz_anum *out, const cz_anum *from, size_t n, const cz_bool *bits,
                 size_t nbits) {
  if (!cs || !out || !from || !bits || nbits > 7 || n != (size_t)1 << nbits)
    return CZ_ERR_INVALID_ARG;
  select_gadget(cs, out, from, n, bits, nbits);
  return cz_cs_error(cs);
}

cz_err cz_insert(cz_cs *cs, cz_anum *out, const cz_anum *element, const cz_bool *bits, size_t nbits,
                 const cz_anum *elements, size_t n) {
  size_t size = n + 1;
  if (nbits >= 7 || size != (size_t)1 << nbits) return CZ_ERR_INVALID_ARG;
  cz_anum el = *element; /* out may not alias, but keep element stable */
  if (size == 2) {
    CZ_PUSH_NS(cs, "binary insert 0");
    cz_cs_sticky(cz_pick(cs, &out[0], &bits[0], &elements[0], &el));
    CZ_POP_NS(cs);
    CZ_PUSH_NS(cs, "binary insert 1");
    cz_cs_sticky(cz_pick(cs, &out[1], &bits[0], &el, &elements[0]));
    CZ_POP_NS(cs);
    return cz_cs_error(cs);
  }
  if (size == 4) {
    insert_4(cs, out, &el, bits, elements);
    return cz_cs_error(cs);
  }
  if (size == 8) return insert_8(cs, out, &el, bits, elements);
  for (size_t pos = 0; pos < size; pos++) {
    /* choices[index] = potential_results[index][pos] */
    cz_anum choices[64];
    for (size_t index = 0; index < size; index++)
      choices[index] = pos < index ? elements[pos] : pos == index ? el : elements[pos - 1];
    CZ_PUSH_NS(cs, "choice at %zu", pos);
    select_gadget(cs, &out[pos], choices, size, bits, nbits);
    CZ_POP_NS(cs);
  }
  return cz_cs_error(cs);
}

/* hash2 names the decompositions "a_bits" / "b_bits", multi-leaf "<i>_num_into_bits". */
static cz_err sha256_multi_leaf(cz_cs *cs, unsigned arity, const cz_anum *children, cz_anum *out,
                                bool hash2_names) {
  cz_bool pre[CZ_MERKLE_MAX_ARITY * 256], leaf[CZ_FR_NUM_BITS];
  for (unsigned i = 0; i < arity; i++) {
    if (hash2_names) CZ_PUSH_NS(cs, "%s", i ? "b_bits" : "a_bits");
    else CZ_PUSH_NS(cs, "%u_num_into_bits", i);
    cz_cs_sticky(cz_anum_to_bits_le(cs, leaf, &children[i]));
    CZ_POP_NS(cs);
    /* 255 LE bits padded to 256, then each byte MSB first: the LE bytes. */
    for (unsigned k = 0; k < 256; k++) {
      unsigned src = (k & ~7u) | (7 - (k & 7));
      pre[i * 256 + k] = src < CZ_FR_NUM_BITS ? leaf[src] : cz_bool_const(false);
    }
  }
  cz_bool be[256], le[CZ_FR_CAPACITY];
  CZ_PUSH_NS(cs, "hash");
  cz_err e = cz_sha256(cs, be, pre, (size_t)arity * 256);
  CZ_POP_NS(cs);
  if (e != CZ_OK) return e;
  for (unsigned k = 0; k < CZ_FR_CAPACITY; k++) le[k] = be[(k & ~7u) | (7 - (k & 7))];
  CZ_PUSH_NS(cs, "pack_le");
  cz_cs_sticky(cz_pack_bits(cs, out, le, CZ_FR_CAPACITY));
  CZ_POP_NS(cs);
  return cz_cs_error(cs);
}

cz_err cz_merkle_hash_circuit(cz_cs *cs, cz_merkle_hasher h, unsigned arity,
                              const cz_anum *children, cz_anum *out) {
  if (h == CZ_MERKLE_POSEIDON) {
    const cz_poseidon_params *p = cz_poseidon_params_get(arity);
    if (!p) return CZ_ERR_INVALID_ARG;
    return cz_poseidon_hash_circuit(cs, p, children, out);
  }
  if (h != CZ_MERKLE_SHA256 || arity == 0 || arity > CZ_MERKLE_MAX_ARITY) return CZ_ERR_INVALID_ARG;
  return sha256_multi_leaf(cs, arity, children, out, false);
}

cz_err cz_merkle_hash2_circuit(cz_cs *cs, cz_merkle_hasher h, const cz_anum *a, const cz_anum *b,
                               cz_anum *out) {
  const cz_anum kids[2] = {*a, *b};
  if (h == CZ_MERKLE_SHA256) return sha256_multi_leaf(cs, 2, kids, out, true);
  return cz_merkle_hash_circuit(cs, h, 2, kids, out);
}

static unsigned log2u(unsigned a) {
  unsigned k = 0;
  while (1u << k < a) k++;
  return k;
}

/* The arities of the proof levels, leaves up; returns the level count. */
static size_t level_arities(const cz_merkle_shape *s, size_t n_leaves,
                            unsigned ar[CZ_MERKLE_MAX_LEVELS]) {
  size_t n = cz_merkle_proof_levels(s, n_leaves),
         base = n - (s->sub_arity != 0) - (s->top_arity != 0);
  for (size_t l = 0; l < n; l++)
    ar[l] = l < base ? s->base_arity : l == base ? s->sub_arity : s->top_arity;
  return n;
}

/* por.rs SubPath::synthesize over levels [from, to). */
static cz_err sub_path(cz_cs *cs, cz_merkle_hasher hasher, const char *ns, size_t from, size_t to,
                       const unsigned *ar, const cz_merkle_proof *p, bool vals, cz_anum *cur,
                       cz_bool *bits, size_t *nbits) {
  CZ_PUSH_NS(cs, "%s", ns);
  cz_err e = CZ_OK;
  for (size_t l = from; e == CZ_OK && l < to; l++) {
    unsigned a = ar[l], nb = log2u(a);
    CZ_PUSH_NS(cs, "merkle tree hash %zu", l - from);
    cz_bool *ib = bits + *nbits;
    for (unsigned i = 0; i < nb; i++) {
      cz_abit bit;
      CZ_PUSH_NS(cs, "index bit %u", i);
      cz_cs_sticky(cz_abit_alloc(cs, &bit, vals && ((p->index[l] >> i) & 1)));
      CZ_POP_NS(cs);
      ib[i] = cz_bool_from_bit(bit);
    }
    *nbits += nb;
    cz_anum sib[CZ_MERKLE_MAX_ARITY - 1], ins[CZ_MERKLE_MAX_ARITY];
    for (unsigned j = 0; j + 1 < a; j++) {
      CZ_PUSH_NS(cs, "path element %u", j);
      cz_cs_sticky(cz_anum_alloc(cs, &sib[j], vals ? &p->siblings[l][j] : &CZ_FR_ZERO));
      CZ_POP_NS(cs);
    }
    e = cz_insert(cs, ins, cur, ib, nb, sib, a - 1);
    CZ_PUSH_NS(cs, "computation of commitment hash");
    if (e == CZ_OK) e = cz_merkle_hash_circuit(cs, hasher, a, ins, cur);
    CZ_POP_NS(cs);
    CZ_POP_NS(cs);
  }
  CZ_POP_NS(cs);
  return e;
}

/* PoRCircuit::synthesize. leaf / root NULL: Root::Val, allocated here from
 * p in "value" / "root_value"; else Root::Var, the caller's variable
 * (Root::allocated then only pushes the namespace, which adds nothing). */
static cz_err por_synthesize(cz_cs *cs, const cz_merkle_shape *s, size_t n_leaves,
                             const cz_merkle_proof *p, const cz_anum *leaf, const cz_anum *root,
                             bool private_root) {
  unsigned ar[CZ_MERKLE_MAX_LEVELS];
  size_t n = level_arities(s, n_leaves, ar);
  if (n == 0) return CZ_ERR_INVALID_ARG;
  bool vals = cz_cs_needs_values(cs);
  if (vals && (!p || p->n_levels != n || p->shape.hasher != s->hasher)) return CZ_ERR_INVALID_ARG;
  for (size_t l = 0; vals && l < n; l++)
    if (p->arity[l] != ar[l]) return CZ_ERR_INVALID_ARG;
  cz_anum cur, rt;
  if (leaf) {
    cur = *leaf;
  } else {
    CZ_PUSH_NS(cs, "value");
    cz_cs_sticky(cz_anum_alloc(cs, &cur, vals ? &p->leaf : &CZ_FR_ZERO));
    CZ_POP_NS(cs);
  }
  cz_bool bits[CZ_MERKLE_MAX_LEVELS * 3];
  size_t nbits = 0, base = n - (s->sub_arity != 0) - (s->top_arity != 0);
  cz_err e = sub_path(cs, s->hasher, "base", 0, base, ar, p, vals, &cur, bits, &nbits);
  /* por.rs always calls the sub and top paths; of arity 0 they add
   * nothing, so absent ones are skipped. */
  if (e == CZ_OK && s->sub_arity)
    e = sub_path(cs, s->hasher, "sub", base, base + 1, ar, p, vals, &cur, bits, &nbits);
  if (e == CZ_OK && s->top_arity)
    e = sub_path(cs, s->hasher, "top", base + 1, base + 2, ar, p, vals, &cur, bits, &nbits);
  if (e != CZ_OK) return e;
  CZ_PUSH_NS(cs, "path");
  cz_cs_sticky(cz_pack_into_inputs(cs, bits, nbits));
  CZ_POP_NS(cs);
  if (root) {
    rt = *root;
  } else {
    CZ_PUSH_NS(cs, "root_value");
    cz_cs_sticky(cz_anum_alloc(cs, &rt, vals ? &p->root : &CZ_FR_ZERO));
    CZ_POP_NS(cs);
  }
  cz_cs_sticky(cz_anum_enforce_equal(cs, &cur, &rt, "enforce root is correct"));
  if (!private_root) {
    CZ_PUSH_NS(cs, "root");
    cz_cs_sticky(cz_anum_inputize(cs, &rt));
    CZ_POP_NS(cs);
  }
  return cz_cs_error(cs);
}

cz_err cz_por_circuit(cz_cs *cs, const cz_merkle_shape *s, size_t n_leaves,
                      const cz_merkle_proof *p, bool private_root) {
  return por_synthesize(cs, s, n_leaves, p, NULL, NULL, private_root);
}

cz_err cz_por_circuit_allocated(cz_cs *cs, const cz_merkle_shape *s, size_t n_leaves,
                                const cz_merkle_proof *p, const cz_anum *leaf, const cz_anum *root,
                                bool private_root) {
  if (!leaf || !root) return CZ_ERR_INVALID_ARG;
  return por_synthesize(cs, s, n_leaves, p, leaf, root, private_root);
}

cz_err cz_por_circuit_var_root(cz_cs *cs, const cz_merkle_shape *s, size_t n_leaves,
                               const cz_merkle_proof *p, const cz_anum *root, bool private_root) {
  if (!root) return CZ_ERR_INVALID_ARG;
  return por_synthesize(cs, s, n_leaves, p, NULL, root, private_root);
}

cz_err cz_por_no_challenge_input(cz_cs *cs, const cz_merkle_shape *s, size_t n_leaves,
                                 const cz_abit *challenge_bits, const cz_anum *leaf,
                                 const cz_anum *path, const cz_anum *root) {
  unsigned ar[CZ_MERKLE_MAX_LEVELS];
  size_t n = level_arities(s, n_leaves, ar);
  if (n == 0) return CZ_ERR_INVALID_ARG;
  cz_anum cur = *leaf;
  size_t bit = 0, off = 0;
  for (size_t h = 0; h < n; h++) {
    unsigned a = ar[h], nb = log2u(a);
    cz_bool ib[3];
    for (unsigned i = 0; i < nb; i++) ib[i] = cz_bool_from_bit(challenge_bits[bit++]);
    cz_anum ins[CZ_MERKLE_MAX_ARITY];
    CZ_PUSH_NS(cs, "merkle proof insert (height=%zu)", h);
    cz_err e = cz_insert(cs, ins, &cur, ib, nb, path + off, a - 1);
    CZ_POP_NS(cs);
    if (e != CZ_OK) return e;
    off += a - 1;
    CZ_PUSH_NS(cs, "merkle proof hash (height=%zu)", h);
    e = cz_merkle_hash_circuit(cs, s->hasher, a, ins, &cur);
    CZ_POP_NS(cs);
    if (e != CZ_OK) return e;
  }
  if (!cz_cs_needs_constraints(cs)) {
    cz_gadget_enforce_nothing(cs);
  } else {
    cz_lc3 l;
    cz_lc3_init(&l, cs);
    cz_lc_add(&l.a, cur.var);
    cz_lc_add(&l.b, CZ_VAR_ONE);
    cz_lc_add(&l.c, root->var);
    CZ_ENFORCE(cs, &l.a, &l.b, &l.c, "calculated root == provided root");
    cz_lc3_free(&l);
  }
  return cz_cs_error(cs);
}
