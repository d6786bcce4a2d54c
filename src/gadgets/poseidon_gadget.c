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
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/poseidon_gadget.h"
#include "gadgets/poseidon_internal.h"

enum { W = CZ_POSEIDON_MAX_WIDTH };

typedef struct {
  bool alloc; /* Elt::Allocated (var) or Elt::Num (lc) */
  cz_var var;
  cz_lc lc;    /* CZ_LC_VEC; empty while alloc */
  cz_fr value; /* meaningful when the system needs values */
} elt;

/* A constraint template: the circuit's A/B/C rows with variables named
 * relative to the gadget (ONE, preimage i, the gadget's k-th allocation).
 * The shape does not depend on the inputs, so PROVE, KEYGEN and RECORD
 * replay it instead of re-deriving the long partial-round LCs per hash. */
enum { TPL_ONE = 0, TPL_INPUT = 1, TPL_LOCAL = 2 };
typedef struct {
  cz_fr coeff;
  uint32_t kind, index;
} tpl_term;
typedef struct {
  size_t n_constraints, n_terms, cap_terms;
  size_t *off; /* row r's A terms: off[3r]..off[3r+1], B, C after */
  tpl_term *terms;
  bool failed;
} tpl;

/* More allocations than any supported arity makes (598 for arity 11). */
#define TPL_MAX_LOCAL 1024
/* Variables of template-building mode (never reach a cs). */
#define TPL_LOCAL_BASE (1u << 24)

typedef struct {
  cz_cs *cs;          /* direct mode: the system; NULL otherwise */
  tpl *build;         /* template-building mode */
  cz_fr *collect;     /* value-collection mode: values of the allocations */
  cz_fr (*row_ab)[2]; /* ... and of every row's a and b */
  size_t n_rows;
  size_t n_alloc;    /* allocations so far (building / collecting) */
  size_t *row_alloc; /* building: n_alloc at each emitted row */
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

#define NS_PUSH(g, ...) \
  do { \
    if ((g)->cs) CZ_PUSH_NS((g)->cs, __VA_ARGS__); \
  } while (0)
#define NS_POP(g) \
  do { \
    if ((g)->cs) CZ_POP_NS((g)->cs); \
  } while (0)

static cz_var alloc(gadget *g, const cz_fr *value) {
  cz_var v = cz_var_aux(TPL_LOCAL_BASE + (uint32_t)g->n_alloc);
  if (g->cs) cz_cs_sticky(cz_cs_alloc(g->cs, &v, g->values ? value : NULL));
  else if (g->collect && g->n_alloc < TPL_MAX_LOCAL) g->collect[g->n_alloc] = *value;
  g->n_alloc++;
  return v;
}

static void tpl_push_lc(tpl *t, const cz_lc *lc) {
  size_t n = cz_lc_len(lc);
  if (t->n_terms + n > t->cap_terms) {
    size_t cap = t->cap_terms ? t->cap_terms : 1024;
    while (cap < t->n_terms + n) cap *= 2;
    tpl_term *nt = realloc(t->terms, cap * sizeof *nt);
    if (!nt) {
      t->failed = true;
      return;
    }
    t->terms = nt;
    t->cap_terms = cap;
  }
  const cz_lc_term *src = cz_lc_terms(lc);
  for (size_t i = 0; i < n; i++) {
    cz_var v = cz_var_from_key(src[i].key);
    tpl_term *d = &t->terms[t->n_terms++];
    d->coeff = src[i].coeff;
    if (v.role == CZ_VAR_INPUT) {
      d->kind = TPL_ONE;
      d->index = 0;
    } else if (v.index >= TPL_LOCAL_BASE) {
      d->kind = TPL_LOCAL;
      d->index = v.index - TPL_LOCAL_BASE;
    } else {
      d->kind = TPL_INPUT;
      d->index = v.index;
    }
  }
}

/* Enforce a * b = c, the LCs just built in g, whose values are av and bv
 * (meaningful with values): on the system (direct mode), into the
 * template, or (value collection) the values kept for replay. */
static void emit(gadget *g, const char *name, const cz_fr *av, const cz_fr *bv) {
  if (g->row_ab && g->n_rows < TPL_MAX_LOCAL) {
    g->row_ab[g->n_rows][0] = *av;
    g->row_ab[g->n_rows][1] = *bv;
  }
  g->n_rows++;
  if (g->cs) {
    CZ_ENFORCE(g->cs, &g->a, &g->b, &g->c, "%s", name);
    return;
  }
  (void)name;
  tpl *t = g->build;
  if (!t || t->failed) return;
  size_t r = t->n_constraints;
  if (r >= TPL_MAX_LOCAL) {
    t->failed = true;
    return;
  }
  g->row_alloc[r] = g->n_alloc;
  size_t *no = realloc(t->off, (3 * r + 4) * sizeof *no);
  if (!no) {
    t->failed = true;
    return;
  }
  t->off = no;
  if (r == 0) t->off[0] = 0;
  tpl_push_lc(t, &g->a);
  t->off[3 * r + 1] = t->n_terms;
  tpl_push_lc(t, &g->b);
  t->off[3 * r + 2] = t->n_terms;
  tpl_push_lc(t, &g->c);
  t->off[3 * r + 3] = t->n_terms;
  t->n_constraints = r + 1;
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
  emit(g, "enforce num allocation preserves lc", &x->value, &CZ_FR_ONE);
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
  emit(g, "squaring constraint", lv, lv);
  return r;
}

/* mul_sum: res = (b + pre) * a + post, enforced (b + pre) * a = res - post. */
static cz_var mul_sum(gadget *g, cz_var a, const cz_fr *av, cz_var b, const cz_fr *bv,
                      const cz_fr *pre, const cz_fr *post, cz_fr *outv) {
  cz_fr bpre = *bv; /* the row's a: b + pre */
  if (g->values) {
    if (pre) cz_fr_add(&bpre, &bpre, pre);
    cz_fr t;
    cz_fr_mul(&t, &bpre, av);
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
  if (post && pre) emit(g, "mul sum constraint pre-post-add", &bpre, av);
  else if (post) emit(g, "mul sum constraint post-add", &bpre, av);
  else if (pre) emit(g, "mul sum constraint pre-add", &bpre, av);
  else emit(g, "mul sum constraint", &bpre, av);
  return r;
}

/* quintic_s_box: x := ensure_allocated(x)^5 + post (post may be NULL). */
static void quintic_s_box(gadget *g, elt *x, const cz_fr *post) {
  NS_PUSH(g, "S-box input");
  ensure_allocated(g, x);
  NS_POP(g);
  cz_var l = x->var;
  cz_fr lv = x->value, l2v, l4v, l5v;
  NS_PUSH(g, "l^2");
  cz_var l2 = square(g, l, &lv, &l2v);
  NS_POP(g);
  NS_PUSH(g, "l^4");
  cz_var l4 = square(g, l2, &l2v, &l4v);
  NS_POP(g);
  NS_PUSH(g, "(l4 * l) + rk)");
  cz_var l5 = mul_sum(g, l4, &l4v, l, &lv, NULL, post, &l5v);
  NS_POP(g);
  set_alloc(x, l5, &l5v);
}

/* quintic_s_box_pre_add on an allocated input: (x + pre)^5 + post. */
static void quintic_s_box_pre_add(gadget *g, elt *x, const cz_fr *pre, const cz_fr *post) {
  NS_PUSH(g, "S-box input");
  ensure_allocated(g, x); /* inputs are allocated: adds nothing */
  NS_POP(g);
  cz_var l = x->var;
  cz_fr lv = x->value, l2v = CZ_FR_ZERO, l4v, l5v, lpre = CZ_FR_ZERO;
  NS_PUSH(g, "(l+rk)^2");
  if (g->values) {
    cz_fr_add(&lpre, &lv, pre);
    cz_fr_sqr(&l2v, &lpre);
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
  emit(g, "squared sum constraint", &lpre, &lpre);
  NS_POP(g);
  NS_PUSH(g, "l^4");
  cz_var l4 = square(g, l2, &l2v, &l4v);
  NS_POP(g);
  NS_PUSH(g, "l4 * (l + rk)");
  cz_var l5 = mul_sum(g, l4, &l4v, l, &lv, pre, post, &l5v);
  NS_POP(g);
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
  if (first) {
    pre = *keys;
    *keys += t;
  }
  if (first || !last) {
    post = *keys;
    *keys += t;
  }
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
    NS_PUSH(g, "quintic s-box %u", i);
    if (first) quintic_s_box_pre_add(g, g->e[i], &pre[i], &post[i]);
    else quintic_s_box(g, g->e[i], post ? &post[i] : NULL);
    NS_POP(g);
  }
  product_mds(g, round);
}

/* The circuit on an initialised gadget; the input Elts are set from
 * inputs / in_values. Returns the output element. */
static elt *run_circuit(gadget *g, const cz_var *inputs, const cz_fr *in_values) {
  const cz_poseidon_params *p = g->p;
  const unsigned half = p->full_rounds / 2;
  set_const(g, g->e[0], &p->domain_tag);
  for (unsigned i = 0; i < p->arity; i++)
    set_alloc(g->e[i + 1], inputs[i], g->values ? &in_values[i] : &CZ_FR_ZERO);

  const cz_fr *keys = p->compressed;
  unsigned round = 0;
  NS_PUSH(g, "first round");
  full_round(g, round++, &keys, true, false);
  NS_POP(g);
  for (unsigned i = 1; i < half; i++) {
    NS_PUSH(g, "initial full round %u", i);
    full_round(g, round++, &keys, false, false);
    NS_POP(g);
  }
  for (unsigned i = 0; i < p->partial_rounds; i++) {
    NS_PUSH(g, "partial round %u", i);
    NS_PUSH(g, "solitary quintic s-box");
    quintic_s_box(g, g->e[0], keys++);
    NS_POP(g);
    NS_POP(g);
    product_mds(g, round++);
  }
  for (unsigned i = 0; i + 1 < half; i++) {
    NS_PUSH(g, "final full round %u", i);
    full_round(g, round++, &keys, false, false);
    NS_POP(g);
  }
  NS_PUSH(g, "terminal full round");
  full_round(g, round++, &keys, false, true);
  NS_POP(g);

  NS_PUSH(g, "hash result");
  ensure_allocated(g, g->e[1]);
  NS_POP(g);
  return g->e[1];
}

static void gadget_init(gadget *g, cz_cs *cs, const cz_poseidon_params *p) {
  memset(g, 0, sizeof *g);
  g->cs = cs;
  g->p = p;
  for (unsigned i = 0; i < p->width; i++) {
    g->e[i] = &g->store[0][i];
    g->next[i] = &g->store[1][i];
    cz_lc_init_layout(&g->e[i]->lc, CZ_LC_VEC, 0, cs);
    cz_lc_init_layout(&g->next[i]->lc, CZ_LC_VEC, 0, cs);
  }
  cz_lc_init(&g->a, cs);
  cz_lc_init(&g->b, cs);
  cz_lc_init(&g->c, cs);
}

static void gadget_free(gadget *g) {
  for (unsigned i = 0; i < g->p->width; i++) {
    cz_lc_free(&g->store[0][i].lc);
    cz_lc_free(&g->store[1][i].lc);
  }
  cz_lc_free(&g->a);
  cz_lc_free(&g->b);
  cz_lc_free(&g->c);
}

/* ---- templates ------------------------------------------------------ */

typedef struct {
  tpl t;
  size_t *alloc_before; /* allocations made before row r is enforced */
  size_t n_local, out_local;
  bool ok;
} circuit_tpl;

static circuit_tpl tpls[CZ_POSEIDON_MAX_ARITY + 1];
static pthread_once_t tpl_once[CZ_POSEIDON_MAX_ARITY + 1] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                                             PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                                             PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                                             PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                                             PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                                             PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};

/* Run the generic circuit with symbolic variables and keep its rows. The
 * allocation count before each row is recorded too, so that replay
 * interleaves allocations and constraints exactly as the generic code. */
static void build_tpl(unsigned arity) {
  circuit_tpl *ct = &tpls[arity];
  const cz_poseidon_params *p = cz_poseidon_params_get(arity);
  if (!p) return;
  gadget g;
  gadget_init(&g, NULL, p);
  g.build = &ct->t;
  g.constraints = true;
  cz_var in[CZ_POSEIDON_MAX_ARITY];
  for (unsigned i = 0; i < arity; i++) in[i] = cz_var_aux(i);
  size_t *before = malloc(TPL_MAX_LOCAL * sizeof *before);
  if (!before) {
    gadget_free(&g);
    return;
  }
  g.row_alloc = before;
  elt *o = run_circuit(&g, in, NULL);
  bool fail = ct->t.failed || g.n_alloc > TPL_MAX_LOCAL || ct->t.n_constraints > TPL_MAX_LOCAL ||
              o->var.index < TPL_LOCAL_BASE;
  for (unsigned i = 0; i < p->width && !fail; i++)
    fail |= cz_lc_failed(&g.store[0][i].lc) || cz_lc_failed(&g.store[1][i].lc);
  if (!fail) {
    ct->alloc_before = before;
    ct->n_local = g.n_alloc;
    ct->out_local = o->var.index - TPL_LOCAL_BASE;
    ct->ok = true;
  } else free(before);
  gadget_free(&g);
}

static void build_tpl_2(void) { build_tpl(2); }
static void build_tpl_4(void) { build_tpl(4); }
static void build_tpl_8(void) { build_tpl(8); }
static void build_tpl_11(void) { build_tpl(11); }

static const circuit_tpl *get_tpl(unsigned arity) {
  void (*fn)(void) = arity == 2    ? build_tpl_2
                     : arity == 4  ? build_tpl_4
                     : arity == 8  ? build_tpl_8
                     : arity == 11 ? build_tpl_11
                                   : NULL;
  if (!fn) return NULL;
  pthread_once(&tpl_once[arity], fn);
  return tpls[arity].ok ? &tpls[arity] : NULL;
}

/* Replay a template on cs: allocations with witness values computed by a
 * value-only run of the generic circuit, rows with variables mapped. */
static cz_err replay(cz_cs *cs, const cz_poseidon_params *p, const circuit_tpl *ct,
                     const cz_var *inputs, const cz_fr *in_values, cz_var *out, cz_fr *out_value) {
  bool values = cz_cs_needs_values(cs);
  cz_fr vals[TPL_MAX_LOCAL], (*ab)[2] = NULL;
  cz_var locals[TPL_MAX_LOCAL];
  if (values) {
    /* The values run also keeps every row's a and b, which PROVE then
     * stores instead of evaluating the long linear-layer LCs (most of a
     * PoSt synthesis' multiplications). */
    ab = malloc(TPL_MAX_LOCAL * sizeof *ab);
    gadget g;
    gadget_init(&g, NULL, p);
    g.values = true;
    g.collect = vals;
    g.row_ab = ab;
    run_circuit(&g, inputs, in_values);
    gadget_free(&g);
  }
  cz_lc lc[3];
  for (int k = 0; k < 3; k++) cz_lc_init(&lc[k], cs);
  size_t n_alloc = 0;
  const tpl *t = &ct->t;
  for (size_t r = 0; r < t->n_constraints; r++) {
    for (; n_alloc < ct->alloc_before[r]; n_alloc++)
      cz_cs_sticky(cz_cs_alloc(cs, &locals[n_alloc], values ? &vals[n_alloc] : NULL));
    for (int k = 0; k < 3; k++) {
      cz_lc_clear(&lc[k]);
      for (size_t q = t->off[3 * r + k]; q < t->off[3 * r + k + 1]; q++) {
        const tpl_term *tt = &t->terms[q];
        cz_var v = tt->kind == TPL_ONE     ? CZ_VAR_ONE
                   : tt->kind == TPL_INPUT ? inputs[tt->index]
                                           : locals[tt->index];
        cz_lc_add_term(&lc[k], v, &tt->coeff);
      }
    }
    if (ab) cz_cs_enforce_known(cs, &lc[0], &lc[1], &lc[2], &ab[r][0], &ab[r][1]);
    else cz_cs_enforce(cs, &lc[0], &lc[1], &lc[2]);
  }
  free(ab);
  for (; n_alloc < ct->n_local; n_alloc++)
    cz_cs_sticky(cz_cs_alloc(cs, &locals[n_alloc], values ? &vals[n_alloc] : NULL));
  for (int k = 0; k < 3; k++) cz_lc_free(&lc[k]);
  *out = locals[ct->out_local];
  if (out_value) *out_value = values ? vals[ct->out_local] : CZ_FR_ZERO;
  return cz_cs_error(cs);
}

/* ---- entry points ------------------------------------------------------ */

static bool use_templates = true;

void cz_poseidon_gadget_set_templates(bool on) { use_templates = on; }

/* The circuit; input values come from in_values when given, else from cs.
 * TEST (names) and WITNESS (no LCs) run the generic code; the others
 * replay the arity's template. */
static cz_err poseidon_circuit(cz_cs *cs, const cz_poseidon_params *p, const cz_var *inputs,
                               const cz_fr *in_values, cz_var *out, cz_fr *out_value) {
  if (!cs || !p || !inputs || !out) return CZ_ERR_INVALID_ARG;
  cz_fr vals[CZ_POSEIDON_MAX_ARITY];
  bool values = cz_cs_needs_values(cs);
  for (unsigned i = 0; i < p->arity; i++) {
    vals[i] = CZ_FR_ZERO;
    if (values) {
      if (in_values) vals[i] = in_values[i];
      else cz_cs_value(cs, inputs[i], &vals[i]);
    }
  }
  cz_cs_mode mode = cz_cs_get_mode(cs);
  if (use_templates && (mode == CZ_CS_PROVE || mode == CZ_CS_KEYGEN || mode == CZ_CS_RECORD)) {
    const circuit_tpl *ct = get_tpl(p->arity);
    if (ct && p == cz_poseidon_params_get(p->arity))
      return replay(cs, p, ct, inputs, vals, out, out_value);
  }
  gadget g;
  gadget_init(&g, cs, p);
  g.values = values;
  g.constraints = cz_cs_needs_constraints(cs);
  elt *o = run_circuit(&g, inputs, vals);
  *out = o->var;
  if (out_value) *out_value = values ? o->value : CZ_FR_ZERO;
  gadget_free(&g);
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
