/* neptune v11 circuit.rs `poseidon_hash` (the legacy circuit Filecoin's
 * parameters were generated with), allocation for allocation and term for
 * term:
 *
 *  - state elements are "Elt"s: an allocated variable, or a Num (an LC with
 *    its value) produced by the linear layers;
 *  - an S-box on a Num first allocates it ("enforce num allocation
 *    preserves lc": lc * 1 = v), then l^2, l^4, l^4 * l + post_key: three
 *    more constraints; on an allocated input only the three;
 *  - the first round adds neptune's compressed pre keys inside the S-box
 *    ((l + k)^2, l^4 * (l + k) + post) and evaluates the tag's S-box as a
 *    constant;
 *  - mixing uses M, then the pre-sparse matrix (last initial full round),
 *    then one sparse matrix per partial round, then M: LCs only.
 *
 * Num LCs are merged exactly as bellpepper's Num::add does (one term per
 * variable, coefficients summed, zero terms kept), so the A/B/C matrices
 * equal neptune's. Num LCs live across constraints, so they are heap
 * vectors reused from round to round; the A/B/C LCs handed to enforce use
 * the constraint system's layout. */
#include <string.h>
#include "cuzk/poseidon.h"

enum { W = CZ_POSEIDON_MAX_WIDTH };

typedef struct {
  bool alloc;  /* Elt::Allocated (var) or Elt::Num (lc) */
  cz_var var;
  cz_lc lc;    /* CZ_LC_VEC; empty while alloc */
  cz_fr value; /* meaningful when the system needs values */
} elt;

typedef struct {
  cz_cs *cs;
  const cz_poseidon_params *p;
  bool values, constraints;
  elt store[2][W]; /* e and next point here; rounds swap the pointers */
  elt *e[W], *next[W];
  cz_lc a, b, c; /* per-constraint LCs in the system's layout */
} gadget;

static void set_alloc(elt *x, cz_var v, const cz_fr *value) {
  x->alloc = true;
  x->var = v;
  cz_lc_clear(&x->lc);
  if (value) x->value = *value;
}

/* Elt::num_from_fr: c * ONE. */
static void set_const(gadget *g, elt *x, const cz_fr *c) {
  x->alloc = false;
  cz_lc_clear(&x->lc);
  if (g->constraints) cz_lc_add_term(&x->lc, CZ_VAR_ONE, c);
  x->value = *c; /* a constant's value is known on every backend */
}

/* acc += s * x (Num::add of x.scale(s)); acc is a Num. */
static void acc_scaled(gadget *g, elt *acc, const cz_fr *s, const elt *x) {
  if (g->constraints) {
    if (x->alloc) cz_lc_add_term(&acc->lc, x->var, s);
    else cz_lc_add_scaled(&acc->lc, s, &x->lc);
  }
  if (g->values) {
    cz_fr t;
    cz_fr_mul(&t, s, &x->value);
    cz_fr_add(&acc->value, &acc->value, &t);
  }
}

static void set_zero_num(elt *x) {
  x->alloc = false;
  cz_lc_clear(&x->lc);
  x->value = CZ_FR_ZERO;
}

/* The A/B/C LCs are only filled when the system keeps constraints; enforce
 * is called either way so that WITNESS counts the constraints too. */
static void reset_abc(gadget *g) {
  cz_lc_clear(&g->a);
  cz_lc_clear(&g->b);
  cz_lc_clear(&g->c);
}

static cz_var alloc(gadget *g, const cz_fr *value) {
  cz_var v;
  cz_cs_alloc(g->cs, &v, g->values ? value : NULL);
  return v;
}

/* Elt::ensure_allocated(enforce = true). */
static void ensure_allocated(gadget *g, elt *x) {
  if (x->alloc) return;
  cz_var v = alloc(g, &x->value);
  if (g->constraints) {
    reset_abc(g);
    cz_lc_add_lc(&g->a, &x->lc);
    cz_lc_add(&g->b, CZ_VAR_ONE);
    cz_lc_add(&g->c, v);
  }
  CZ_ENFORCE(g->cs, &g->a, &g->b, &g->c, "enforce num allocation preserves lc");
  cz_fr value = x->value;
  set_alloc(x, v, &value);
}

/* AllocatedNum::square: "squaring constraint" l * l = l2. */
static cz_var square(gadget *g, cz_var l, const cz_fr *lv, cz_fr *outv) {
  if (g->values) cz_fr_sqr(outv, lv);
  cz_var r = alloc(g, outv);
  if (g->constraints) {
    reset_abc(g);
    cz_lc_add(&g->a, l);
    cz_lc_add(&g->b, l);
    cz_lc_add(&g->c, r);
  }
  CZ_ENFORCE(g->cs, &g->a, &g->b, &g->c, "squaring constraint");
  return r;
}

/* mul_sum: res = (b + pre) * a + post, enforced (b + pre) * a = res - post. */
static cz_var mul_sum(gadget *g, cz_var a, const cz_fr *av, cz_var b, const cz_fr *bv,
                      const cz_fr *pre, const cz_fr *post, cz_fr *outv) {
  if (g->values) {
    cz_fr t = *bv;
    if (pre) cz_fr_add(&t, &t, pre);
    cz_fr_mul(&t, &t, av);
    if (post) cz_fr_add(&t, &t, post);
    *outv = t;
  }
  cz_var r = alloc(g, outv);
  if (g->constraints) {
    reset_abc(g);
    cz_lc_add(&g->a, b);
    if (pre) cz_lc_add_term(&g->a, CZ_VAR_ONE, pre);
    cz_lc_add(&g->b, a);
    cz_lc_add(&g->c, r);
    if (post) {
      cz_fr neg;
      cz_fr_neg(&neg, post);
      cz_lc_add_term(&g->c, CZ_VAR_ONE, &neg);
    }
  }
  if (post && pre) CZ_ENFORCE(g->cs, &g->a, &g->b, &g->c, "mul sum constraint pre-post-add");
  else if (post) CZ_ENFORCE(g->cs, &g->a, &g->b, &g->c, "mul sum constraint post-add");
  else if (pre) CZ_ENFORCE(g->cs, &g->a, &g->b, &g->c, "mul sum constraint pre-add");
  else CZ_ENFORCE(g->cs, &g->a, &g->b, &g->c, "mul sum constraint");
  return r;
}

/* quintic_s_box: x := ensure_allocated(x)^5 + post (post may be NULL). */
static void quintic_s_box(gadget *g, elt *x, const cz_fr *post) {
  CZ_PUSH_NS(g->cs, "S-box input");
  ensure_allocated(g, x);
  CZ_POP_NS(g->cs);
  cz_var l = x->var;
  cz_fr lv = x->value, l2v, l4v, l5v;
  CZ_PUSH_NS(g->cs, "l^2");
  cz_var l2 = square(g, l, &lv, &l2v);
  CZ_POP_NS(g->cs);
  CZ_PUSH_NS(g->cs, "l^4");
  cz_var l4 = square(g, l2, &l2v, &l4v);
  CZ_POP_NS(g->cs);
  CZ_PUSH_NS(g->cs, "(l4 * l) + rk)");
  cz_var l5 = mul_sum(g, l4, &l4v, l, &lv, NULL, post, &l5v);
  CZ_POP_NS(g->cs);
  set_alloc(x, l5, &l5v);
}

/* quintic_s_box_pre_add on an allocated input: (x + pre)^5 + post. */
static void quintic_s_box_pre_add(gadget *g, elt *x, const cz_fr *pre, const cz_fr *post) {
  CZ_PUSH_NS(g->cs, "S-box input");
  ensure_allocated(g, x); /* inputs are allocated: adds nothing */
  CZ_POP_NS(g->cs);
  cz_var l = x->var;
  cz_fr lv = x->value, l2v = CZ_FR_ZERO, l4v, l5v;
  CZ_PUSH_NS(g->cs, "(l+rk)^2");
  if (g->values) {
    cz_fr_add(&l2v, &lv, pre);
    cz_fr_sqr(&l2v, &l2v);
  }
  cz_var l2 = alloc(g, &l2v);
  if (g->constraints) {
    reset_abc(g);
    cz_lc_add(&g->a, l);
    cz_lc_add_term(&g->a, CZ_VAR_ONE, pre);
    cz_lc_add(&g->b, l);
    cz_lc_add_term(&g->b, CZ_VAR_ONE, pre);
    cz_lc_add(&g->c, l2);
  }
  CZ_ENFORCE(g->cs, &g->a, &g->b, &g->c, "squared sum constraint");
  CZ_POP_NS(g->cs);
  CZ_PUSH_NS(g->cs, "l^4");
  cz_var l4 = square(g, l2, &l2v, &l4v);
  CZ_POP_NS(g->cs);
  CZ_PUSH_NS(g->cs, "l4 * (l + rk)");
  cz_var l5 = mul_sum(g, l4, &l4v, l, &lv, pre, post, &l5v);
  CZ_POP_NS(g->cs);
  set_alloc(x, l5, &l5v);
}

/* elements = elements * m (dense): next[j] = sum_i m[i][j] * e[i]. */
static void mix_dense(gadget *g, const cz_fr m[W][W]) {
  const unsigned t = g->p->width;
  for (unsigned j = 0; j < t; j++) {
    set_zero_num(g->next[j]);
    for (unsigned i = 0; i < t; i++) acc_scaled(g, g->next[j], &m[i][j], g->e[i]);
  }
  for (unsigned j = 0; j < t; j++) {
    elt *tmp = g->e[j];
    g->e[j] = g->next[j];
    g->next[j] = tmp;
  }
}

/* Sparse matrix k: e0' = sum_i w_hat[i] * e[i]; ej' = ej + v_rest[j-1] * e0. */
static void mix_sparse(gadget *g, unsigned k) {
  const unsigned t = g->p->width;
  const cz_fr *w = g->p->sparse_w_hat[k], *v = g->p->sparse_v_rest[k];
  elt *n0 = g->next[0];
  set_zero_num(n0);
  for (unsigned i = 0; i < t; i++) acc_scaled(g, n0, &w[i], g->e[i]);
  for (unsigned j = 1; j < t; j++) acc_scaled(g, g->e[j], &v[j - 1], g->e[0]);
  g->next[0] = g->e[0];
  g->e[0] = n0;
}

static void product_mds(gadget *g, unsigned round) {
  const unsigned half = g->p->full_rounds / 2;
  if (round == half - 1) mix_dense(g, g->p->pre_sparse);
  else if (round >= half && round < half + g->p->partial_rounds) mix_sparse(g, round - half);
  else mix_dense(g, g->p->mds);
}

static void full_round(gadget *g, unsigned round, const cz_fr **keys, bool first, bool last) {
  const unsigned t = g->p->width;
  const cz_fr *pre = NULL, *post = NULL;
  if (first) { pre = *keys; *keys += t; }
  if (first || !last) { post = *keys; *keys += t; }
  for (unsigned i = 0; i < t; i++) {
    if (first && i == 0) {
      /* The tag's first S-box is a constant: (tag + pre)^5 + post. */
      cz_fr x, x2;
      cz_fr_add(&x, &g->e[0]->value, &pre[0]);
      cz_fr_sqr(&x2, &x);
      cz_fr_sqr(&x2, &x2);
      cz_fr_mul(&x, &x, &x2);
      cz_fr_add(&x, &x, &post[0]);
      set_const(g, g->e[0], &x);
      continue;
    }
    CZ_PUSH_NS(g->cs, "quintic s-box %u", i);
    if (first) quintic_s_box_pre_add(g, g->e[i], &pre[i], &post[i]);
    else quintic_s_box(g, g->e[i], post ? &post[i] : NULL);
    CZ_POP_NS(g->cs);
  }
  product_mds(g, round);
}

/* The circuit; input values come from in_values when given, else from cs. */
static cz_err poseidon_circuit(cz_cs *cs, const cz_poseidon_params *p, const cz_var *inputs,
                               const cz_fr *in_values, cz_var *out, cz_fr *out_value) {
  if (!cs) return CZ_ERR_INVALID_ARG;
  if (!p || !inputs || !out) return CZ_ERR_INVALID_ARG;
  gadget g;
  g.cs = cs;
  g.p = p;
  g.values = cz_cs_needs_values(cs);
  g.constraints = cz_cs_needs_constraints(cs);
  const unsigned t = p->width, half = p->full_rounds / 2;
  for (unsigned i = 0; i < t; i++) {
    g.e[i] = &g.store[0][i];
    g.next[i] = &g.store[1][i];
    cz_lc_init_layout(&g.e[i]->lc, CZ_LC_VEC, 0, cs);
    cz_lc_init_layout(&g.next[i]->lc, CZ_LC_VEC, 0, cs);
  }
  cz_lc_init(&g.a, cs);
  cz_lc_init(&g.b, cs);
  cz_lc_init(&g.c, cs);

  set_const(&g, g.e[0], &p->domain_tag);
  for (unsigned i = 0; i < p->arity; i++) {
    cz_fr v = CZ_FR_ZERO;
    if (g.values) {
      if (in_values) v = in_values[i];
      else cz_cs_value(cs, inputs[i], &v);
    }
    set_alloc(g.e[i + 1], inputs[i], &v);
  }

  const cz_fr *keys = p->compressed;
  unsigned round = 0;
  CZ_PUSH_NS(cs, "first round");
  full_round(&g, round++, &keys, true, false);
  CZ_POP_NS(cs);
  for (unsigned i = 1; i < half; i++) {
    CZ_PUSH_NS(cs, "initial full round %u", i);
    full_round(&g, round++, &keys, false, false);
    CZ_POP_NS(cs);
  }
  for (unsigned i = 0; i < p->partial_rounds; i++) {
    CZ_PUSH_NS(cs, "partial round %u", i);
    CZ_PUSH_NS(cs, "solitary quintic s-box");
    quintic_s_box(&g, g.e[0], keys++);
    CZ_POP_NS(cs);
    CZ_POP_NS(cs);
    product_mds(&g, round++);
  }
  for (unsigned i = 0; i + 1 < half; i++) {
    CZ_PUSH_NS(cs, "final full round %u", i);
    full_round(&g, round++, &keys, false, false);
    CZ_POP_NS(cs);
  }
  CZ_PUSH_NS(cs, "terminal full round");
  full_round(&g, round++, &keys, false, true);
  CZ_POP_NS(cs);

  CZ_PUSH_NS(cs, "hash result");
  ensure_allocated(&g, g.e[1]);
  CZ_POP_NS(cs);
  *out = g.e[1]->var;
  if (out_value) *out_value = g.values ? g.e[1]->value : CZ_FR_ZERO;

  for (unsigned i = 0; i < t; i++) {
    cz_lc_free(&g.store[0][i].lc);
    cz_lc_free(&g.store[1][i].lc);
  }
  cz_lc_free(&g.a);
  cz_lc_free(&g.b);
  cz_lc_free(&g.c);
  return cz_cs_error(cs);
}

cz_err cz_poseidon_gadget(cz_cs *cs, const cz_poseidon_params *p, const cz_var *inputs,
                          cz_var *out) {
  return poseidon_circuit(cs, p, inputs, NULL, out, NULL);
}

cz_err cz_poseidon_hash_circuit(cz_cs *cs, const cz_poseidon_params *p, const cz_anum *inputs,
                                cz_anum *out) {
  if (!cs || !p || !inputs || !out) return CZ_ERR_INVALID_ARG;
  cz_var vars[CZ_POSEIDON_MAX_ARITY];
  cz_fr vals[CZ_POSEIDON_MAX_ARITY];
  for (unsigned i = 0; i < p->arity; i++) {
    vars[i] = inputs[i].var;
    vals[i] = inputs[i].value;
  }
  return poseidon_circuit(cs, p, vars, vals, &out->var, &out->value);
}
