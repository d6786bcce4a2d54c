/* Boolean gadgets, as bellpepper-core's gadgets/boolean.rs: same variables,
 * same constraints in the same order, same LC terms (zero coefficients
 * included, e.g. the ONE term of Not(a) - Not(b)). */
#include <pthread.h>
#include "gadgets/gadget_util.h"

static cz_fr pow2_table[256];
static pthread_once_t pow2_once = PTHREAD_ONCE_INIT;

static bool pow2_ready; /* set (release) once the table is built */

static void pow2_build(void) {
  pow2_table[0] = CZ_FR_ONE;
  for (unsigned k = 1; k < 256; k++) cz_fr_dbl(&pow2_table[k], &pow2_table[k - 1]);
  __atomic_store_n(&pow2_ready, true, __ATOMIC_RELEASE);
}

/* An acquire load on the hot path (SHA-256's additions ask for millions of
 * powers); pthread_once only until the table exists. */
const cz_fr *cz_gadget_pow2(unsigned k) {
  if (__builtin_expect(!__atomic_load_n(&pow2_ready, __ATOMIC_ACQUIRE), 0))
    pthread_once(&pow2_once, pow2_build);
  return &pow2_table[k & 255];
}

void cz_bool_add_to_lc(cz_lc *lc, cz_bool b, const cz_fr *coeff) {
  switch (b.form) {
    case CZ_BOOL_CONST:
      if (b.value) cz_lc_add_term(lc, CZ_VAR_ONE, coeff);
      break;
    case CZ_BOOL_IS: cz_lc_add_term(lc, b.var, coeff); break;
    default:
      cz_lc_add_term(lc, CZ_VAR_ONE, coeff);
      cz_lc_sub_term(lc, b.var, coeff);
      break;
  }
}

/* ---- AllocatedBit ---------------------------------------------------- */

/* (1 - [must_be_false] - out) * out = 0: out is boolean, and not both set
 * when must_be_false is given (NULL: none). must_be_false->var is read after
 * out is written, so a caller passing out == must_be_false is unchanged. */
static cz_err alloc_bit(cz_cs *cs, cz_abit *out, bool value, const cz_abit *must_be_false) {
  cz_cs_sticky(cz_cs_alloc(cs, &out->var, cz_bit_fr(value)));
  out->value = value;
  if (cz_cs_needs_constraints(cs)) {
    cz_lc3 l;
    cz_lc3_init(&l, cs);
    cz_lc_add(&l.a, CZ_VAR_ONE);
    if (must_be_false) cz_lc_sub(&l.a, must_be_false->var);
    cz_lc_sub(&l.a, out->var);
    cz_lc_add(&l.b, out->var);
    CZ_ENFORCE(cs, &l.a, &l.b, &l.c, "boolean constraint");
    cz_lc3_free(&l);
  } else {
    cz_gadget_enforce_nothing(cs);
  }
  return cz_cs_error(cs);
}

cz_err cz_abit_alloc(cz_cs *cs, cz_abit *out, bool value) {
  return alloc_bit(cs, out, value, NULL);
}

cz_err cz_abit_alloc_conditionally(cz_cs *cs, cz_abit *out, bool value,
                                   const cz_abit *must_be_false) {
  return alloc_bit(cs, out, value, must_be_false);
}

cz_err cz_abit_xor(cz_cs *cs, cz_abit *out, const cz_abit *a, const cz_abit *b) {
  cz_var av = a->var, bv = b->var; /* out may alias a or b */
  bool v = a->value ^ b->value;
  cz_cs_sticky(cz_cs_alloc(cs, &out->var, cz_bit_fr(v)));
  out->value = v;
  if (cz_cs_needs_constraints(cs)) {
    /* (a + a) * b = a + b - c */
    cz_lc3 l;
    cz_lc3_init(&l, cs);
    cz_lc_add(&l.a, av);
    cz_lc_add(&l.a, av);
    cz_lc_add(&l.b, bv);
    cz_lc_add(&l.c, av);
    cz_lc_add(&l.c, bv);
    cz_lc_sub(&l.c, out->var);
    CZ_ENFORCE(cs, &l.a, &l.b, &l.c, "xor constraint");
    cz_lc3_free(&l);
  } else {
    cz_gadget_enforce_nothing(cs);
  }
  return cz_cs_error(cs);
}

/* and, and_not, nor: (a or 1 - a) * (b or 1 - b) = c. */
static cz_err and_like(cz_cs *cs, cz_abit *out, const cz_abit *a, const cz_abit *b, bool neg_a,
                       bool neg_b, const char *name) {
  cz_var av = a->var, bv = b->var;
  bool v = (a->value ^ neg_a) & (b->value ^ neg_b);
  cz_cs_sticky(cz_cs_alloc(cs, &out->var, cz_bit_fr(v)));
  out->value = v;
  if (cz_cs_needs_constraints(cs)) {
    cz_lc3 l;
    cz_lc3_init(&l, cs);
    if (neg_a) {
      cz_lc_add(&l.a, CZ_VAR_ONE);
      cz_lc_sub(&l.a, av);
    } else {
      cz_lc_add(&l.a, av);
    }
    if (neg_b) {
      cz_lc_add(&l.b, CZ_VAR_ONE);
      cz_lc_sub(&l.b, bv);
    } else {
      cz_lc_add(&l.b, bv);
    }
    cz_lc_add(&l.c, out->var);
    CZ_ENFORCE(cs, &l.a, &l.b, &l.c, "%s", name);
    cz_lc3_free(&l);
  } else {
    cz_gadget_enforce_nothing(cs);
  }
  return cz_cs_error(cs);
}

cz_err cz_abit_and(cz_cs *cs, cz_abit *out, const cz_abit *a, const cz_abit *b) {
  return and_like(cs, out, a, b, false, false, "and constraint");
}
cz_err cz_abit_and_not(cz_cs *cs, cz_abit *out, const cz_abit *a, const cz_abit *b) {
  return and_like(cs, out, a, b, false, true, "and not constraint");
}
cz_err cz_abit_nor(cz_cs *cs, cz_abit *out, const cz_abit *a, const cz_abit *b) {
  return and_like(cs, out, a, b, true, true, "nor constraint");
}

/* ---- Boolean --------------------------------------------------------- */

static cz_abit bit_of(const cz_bool *b) {
  /* The AllocatedBit under Is(v) / Not(v): its own value, not negated. */
  return (cz_abit){b->var, b->form == CZ_BOOL_NOT ? !b->value : b->value};
}

static bool is_const(const cz_bool *b, bool v) { return b->form == CZ_BOOL_CONST && b->value == v; }

cz_err cz_bool_xor(cz_cs *cs, cz_bool *out, const cz_bool *a, const cz_bool *b) {
  /* Match arms in bellpepper's order. */
  if (is_const(a, false)) {
    *out = *b;
  } else if (is_const(b, false)) {
    *out = *a;
  } else if (is_const(a, true)) {
    *out = cz_bool_not(*b);
  } else if (is_const(b, true)) {
    *out = cz_bool_not(*a);
  } else if (a->form != b->form) {
    /* a XOR (NOT b) = NOT (a XOR b), xor(is, not.not()).not() */
    const cz_bool *is = a->form == CZ_BOOL_IS ? a : b, *nt = a->form == CZ_BOOL_IS ? b : a;
    cz_abit x = bit_of(is), y = bit_of(nt), r;
    cz_cs_sticky(cz_abit_xor(cs, &r, &x, &y));
    *out = cz_bool_not(cz_bool_from_bit(r));
  } else {
    cz_abit x = bit_of(a), y = bit_of(b), r;
    cz_cs_sticky(cz_abit_xor(cs, &r, &x, &y));
    *out = cz_bool_from_bit(r);
  }
  return cz_cs_error(cs);
}

cz_err cz_bool_and(cz_cs *cs, cz_bool *out, const cz_bool *a, const cz_bool *b) {
  if (is_const(a, false) || is_const(b, false)) {
    *out = cz_bool_const(false);
  } else if (is_const(a, true)) {
    *out = *b;
  } else if (is_const(b, true)) {
    *out = *a;
  } else if (a->form != b->form) {
    const cz_bool *is = a->form == CZ_BOOL_IS ? a : b, *nt = a->form == CZ_BOOL_IS ? b : a;
    cz_abit x = bit_of(is), y = bit_of(nt), r;
    cz_cs_sticky(cz_abit_and_not(cs, &r, &x, &y));
    *out = cz_bool_from_bit(r);
  } else {
    cz_abit x = bit_of(a), y = bit_of(b), r;
    if (a->form == CZ_BOOL_NOT) cz_cs_sticky(cz_abit_nor(cs, &r, &x, &y));
    else cz_cs_sticky(cz_abit_and(cs, &r, &x, &y));
    *out = cz_bool_from_bit(r);
  }
  return cz_cs_error(cs);
}

cz_err cz_bool_or(cz_cs *cs, cz_bool *out, const cz_bool *a, const cz_bool *b) {
  cz_bool na = cz_bool_not(*a), nb = cz_bool_not(*b), r;
  CZ_PUSH_NS(cs, "not and (not a) (not b)");
  cz_cs_sticky(cz_bool_and(cs, &r, &na, &nb));
  CZ_POP_NS(cs);
  *out = cz_bool_not(r);
  return cz_cs_error(cs);
}

/* out = not(and(x, y)) */
static void nand(cz_cs *cs, cz_bool *out, cz_bool x, cz_bool y) {
  cz_bool r;
  cz_cs_sticky(cz_bool_and(cs, &r, &x, &y));
  *out = cz_bool_not(r);
}

cz_err cz_bool_sha256_ch(cz_cs *cs, cz_bool *out, const cz_bool *a, const cz_bool *b,
                         const cz_bool *c) {
  bool v = (a->value & b->value) ^ (!a->value & c->value);
  if (a->form == CZ_BOOL_CONST && b->form == CZ_BOOL_CONST && c->form == CZ_BOOL_CONST) {
    *out = cz_bool_const(v);
    return cz_cs_error(cs);
  }
  if (is_const(a, false)) {
    *out = *c;
    return cz_cs_error(cs);
  }
  if (is_const(b, false)) {
    cz_bool na = cz_bool_not(*a);
    return cz_bool_and(cs, out, &na, c);
  }
  if (is_const(c, false)) return cz_bool_and(cs, out, a, b);
  if (is_const(c, true)) {
    nand(cs, out, *a, cz_bool_not(*b));
    return cz_cs_error(cs);
  }
  if (is_const(b, true)) {
    nand(cs, out, cz_bool_not(*a), cz_bool_not(*c));
    return cz_cs_error(cs);
  }
  /* a constant true, or nothing constant: allocate ch. */
  cz_var ch;
  cz_cs_sticky(cz_cs_alloc(cs, &ch, cz_bit_fr(v)));
  if (cz_cs_needs_constraints(cs)) {
    /* (b - c) * a = ch - c */
    cz_lc3 l;
    cz_lc3_init(&l, cs);
    cz_bool_add_to_lc(&l.a, *b, &CZ_FR_ONE);
    cz_lc tmp;
    cz_lc_init(&tmp, cs);
    cz_bool_add_to_lc(&tmp, *c, &CZ_FR_ONE);
    cz_lc_sub_lc(&l.a, &tmp);
    cz_bool_add_to_lc(&l.b, *a, &CZ_FR_ONE);
    cz_lc_add(&l.c, ch);
    cz_lc_sub_lc(&l.c, &tmp);
    cz_lc_free(&tmp);
    CZ_ENFORCE(cs, &l.a, &l.b, &l.c, "ch computation");
    cz_lc3_free(&l);
  } else {
    cz_gadget_enforce_nothing(cs);
  }
  *out = (cz_bool){ch, CZ_BOOL_IS, v};
  return cz_cs_error(cs);
}

cz_err cz_bool_sha256_maj(cz_cs *cs, cz_bool *out, const cz_bool *a, const cz_bool *b,
                          const cz_bool *c) {
  bool v = (a->value & b->value) ^ (a->value & c->value) ^ (b->value & c->value);
  if (a->form == CZ_BOOL_CONST && b->form == CZ_BOOL_CONST && c->form == CZ_BOOL_CONST) {
    *out = cz_bool_const(v);
    return cz_cs_error(cs);
  }
  if (is_const(a, false)) return cz_bool_and(cs, out, b, c);
  if (is_const(b, false)) return cz_bool_and(cs, out, a, c);
  if (is_const(c, false)) return cz_bool_and(cs, out, a, b);
  if (is_const(c, true)) {
    nand(cs, out, cz_bool_not(*a), cz_bool_not(*b));
    return cz_cs_error(cs);
  }
  if (is_const(b, true)) {
    nand(cs, out, cz_bool_not(*a), cz_bool_not(*c));
    return cz_cs_error(cs);
  }
  if (is_const(a, true)) {
    nand(cs, out, cz_bool_not(*b), cz_bool_not(*c));
    return cz_cs_error(cs);
  }
  /* maj is allocated before b AND c, as bellpepper does. */
  cz_var maj;
  cz_cs_sticky(cz_cs_alloc(cs, &maj, cz_bit_fr(v)));
  cz_bool bc;
  CZ_PUSH_NS(cs, "b and c");
  cz_cs_sticky(cz_bool_and(cs, &bc, b, c));
  CZ_POP_NS(cs);
  if (cz_cs_needs_constraints(cs)) {
    /* (2bc - b - c) * a = bc - maj */
    cz_lc3 l;
    cz_lc3_init(&l, cs);
    cz_bool_add_to_lc(&l.a, bc, &CZ_FR_ONE);
    cz_bool_add_to_lc(&l.a, bc, &CZ_FR_ONE);
    cz_fr m1;
    cz_fr_neg(&m1, &CZ_FR_ONE);
    cz_bool_add_to_lc(&l.a, *b, &m1);
    cz_bool_add_to_lc(&l.a, *c, &m1);
    cz_bool_add_to_lc(&l.b, *a, &CZ_FR_ONE);
    cz_bool_add_to_lc(&l.c, bc, &CZ_FR_ONE);
    cz_lc_sub(&l.c, maj);
    CZ_ENFORCE(cs, &l.a, &l.b, &l.c, "maj computation");
    cz_lc3_free(&l);
  } else {
    cz_gadget_enforce_nothing(cs);
  }
  *out = (cz_bool){maj, CZ_BOOL_IS, v};
  return cz_cs_error(cs);
}

cz_err cz_bool_enforce_equal(cz_cs *cs, const cz_bool *a, const cz_bool *b) {
  if (a->form == CZ_BOOL_CONST && b->form == CZ_BOOL_CONST)
    return a->value == b->value ? cz_cs_error(cs) : CZ_ERR_INVALID_ARG;
  if (!cz_cs_needs_constraints(cs)) {
    cz_gadget_enforce_nothing(cs);
    return cz_cs_error(cs);
  }
  cz_lc3 l;
  cz_lc3_init(&l, cs);
  const char *name;
  if (is_const(a, true) || is_const(b, true)) {
    const cz_bool *x = is_const(a, true) ? b : a;
    cz_lc_add(&l.c, CZ_VAR_ONE);
    cz_lc tmp;
    cz_lc_init(&tmp, cs);
    cz_bool_add_to_lc(&tmp, *x, &CZ_FR_ONE);
    cz_lc_sub_lc(&l.c, &tmp);
    cz_lc_free(&tmp);
    name = "enforce equal to one";
  } else if (is_const(a, false) || is_const(b, false)) {
    const cz_bool *x = is_const(a, false) ? b : a;
    cz_bool_add_to_lc(&l.c, *x, &CZ_FR_ONE);
    name = "enforce equal to zero";
  } else {
    cz_bool_add_to_lc(&l.c, *a, &CZ_FR_ONE);
    cz_lc tmp;
    cz_lc_init(&tmp, cs);
    cz_bool_add_to_lc(&tmp, *b, &CZ_FR_ONE);
    cz_lc_sub_lc(&l.c, &tmp);
    cz_lc_free(&tmp);
    name = "enforce equal";
  }
  CZ_ENFORCE(cs, &l.a, &l.b, &l.c, "%s", name);
  cz_lc3_free(&l);
  return cz_cs_error(cs);
}

cz_err cz_u64_into_bits_le(cz_cs *cs, cz_bool out[64], uint64_t value) {
  for (unsigned i = 0; i < 64; i++) {
    cz_abit b;
    CZ_PUSH_NS(cs, "bit %u", i);
    cz_cs_sticky(cz_abit_alloc(cs, &b, (value >> i) & 1));
    CZ_POP_NS(cs);
    out[i] = cz_bool_from_bit(b);
  }
  return cz_cs_error(cs);
}

cz_err cz_field_into_allocated_bits_le(cz_cs *cs, cz_abit out[CZ_FR_NUM_BITS], const cz_fr *value) {
  uint64_t limbs[CZ_FR_LIMBS] = {0};
  if (value) cz_fr_to_canonical(limbs, value);
  for (unsigned i = 0; i < CZ_FR_NUM_BITS; i++) {
    CZ_PUSH_NS(cs, "bit %u", i);
    cz_cs_sticky(cz_abit_alloc(cs, &out[i], (limbs[i / 64] >> (i % 64)) & 1));
    CZ_POP_NS(cs);
  }
  return cz_cs_error(cs);
}
