/* AllocatedNum and Num, as bellpepper-core's gadgets/num.rs. */
#include "gadgets/gadget_util.h"

cz_err cz_anum_alloc(cz_cs *cs, cz_anum *out, const cz_fr *value) {
  out->value = value ? *value : CZ_FR_ZERO;
  cz_cs_sticky(cz_cs_alloc(cs, &out->var, value));
  return cz_cs_error(cs);
}

cz_err cz_anum_alloc_input(cz_cs *cs, cz_anum *out, const cz_fr *value) {
  out->value = value ? *value : CZ_FR_ZERO;
  cz_cs_sticky(cz_cs_alloc_input(cs, &out->var, value));
  return cz_cs_error(cs);
}

/* x * y = z over single variables, named name. */
static void enforce_vars(cz_cs *cs, cz_var x, cz_var y, cz_var z, const char *name) {
  if (!cz_cs_needs_constraints(cs)) {
    cz_gadget_enforce_nothing(cs);
    return;
  }
  cz_lc3 l;
  cz_lc3_init(&l, cs);
  cz_lc_add(&l.a, x);
  cz_lc_add(&l.b, y);
  cz_lc_add(&l.c, z);
  CZ_ENFORCE(cs, &l.a, &l.b, &l.c, "%s", name);
  cz_lc3_free(&l);
}

/* (x + y) * 1 = z, named name. */
static void enforce_sum(cz_cs *cs, cz_var x, cz_var y, cz_var z, const char *name) {
  if (!cz_cs_needs_constraints(cs)) {
    cz_gadget_enforce_nothing(cs);
    return;
  }
  cz_lc3 l;
  cz_lc3_init(&l, cs);
  cz_lc_add(&l.a, x);
  cz_lc_add(&l.a, y);
  cz_lc_add(&l.b, CZ_VAR_ONE);
  cz_lc_add(&l.c, z);
  CZ_ENFORCE(cs, &l.a, &l.b, &l.c, "%s", name);
  cz_lc3_free(&l);
}

cz_err cz_anum_inputize(cz_cs *cs, const cz_anum *a) {
  cz_var in;
  cz_cs_sticky(cz_cs_alloc_input(cs, &in, &a->value));
  enforce_vars(cs, in, CZ_VAR_ONE, a->var, "enforce input is correct");
  return cz_cs_error(cs);
}

cz_err cz_anum_add(cz_cs *cs, cz_anum *out, const cz_anum *a, const cz_anum *b) {
  cz_var av = a->var, bv = b->var;
  cz_fr v;
  cz_fr_add(&v, &a->value, &b->value);
  cz_cs_sticky(cz_cs_alloc(cs, &out->var, &v));
  out->value = v;
  enforce_sum(cs, av, bv, out->var, "addition constraint");
  return cz_cs_error(cs);
}

cz_err cz_anum_mul(cz_cs *cs, cz_anum *out, const cz_anum *a, const cz_anum *b) {
  cz_var av = a->var, bv = b->var;
  cz_fr v;
  cz_fr_mul(&v, &a->value, &b->value);
  cz_cs_sticky(cz_cs_alloc(cs, &out->var, &v));
  out->value = v;
  enforce_vars(cs, av, bv, out->var, "multiplication constraint");
  return cz_cs_error(cs);
}

cz_err cz_anum_square(cz_cs *cs, cz_anum *out, const cz_anum *a) {
  cz_var av = a->var;
  cz_fr v;
  cz_fr_sqr(&v, &a->value);
  cz_cs_sticky(cz_cs_alloc(cs, &out->var, &v));
  out->value = v;
  enforce_vars(cs, av, av, out->var, "squaring constraint");
  return cz_cs_error(cs);
}

cz_err cz_anum_enforce_equal(cz_cs *cs, const cz_anum *a, const cz_anum *b, const char *name) {
  enforce_vars(cs, a->var, CZ_VAR_ONE, b->var, name);
  return cz_cs_error(cs);
}

cz_err cz_constraint_add(cz_cs *cs, cz_anum *out, const cz_anum *a, const cz_anum *b) {
  cz_anum A = *a, B = *b;
  cz_fr v;
  cz_fr_add(&v, &A.value, &B.value);
  CZ_PUSH_NS(cs, "add_num");
  cz_cs_sticky(cz_anum_alloc(cs, out, &v));
  CZ_POP_NS(cs);
  enforce_sum(cs, A.var, B.var, out->var, "sum constraint");
  return cz_cs_error(cs);
}

cz_err cz_constraint_sub(cz_cs *cs, cz_anum *out, const cz_anum *a, const cz_anum *b) {
  cz_anum A = *a, B = *b;
  cz_fr v;
  cz_fr_sub(&v, &A.value, &B.value);
  CZ_PUSH_NS(cs, "sub_num");
  cz_cs_sticky(cz_anum_alloc(cs, out, &v));
  CZ_POP_NS(cs);
  enforce_sum(cs, out->var, B.var, A.var, "subtraction constraint");
  return cz_cs_error(cs);
}

/* 0 * 0 = sum 2^i bits[i] - v: the "unpacking constraint". bits are LSB
 * first. */
static void unpacking(cz_cs *cs, const cz_abit *bits, size_t n, cz_var v) {
  if (!cz_cs_needs_constraints(cs)) {
    cz_gadget_enforce_nothing(cs);
    return;
  }
  cz_lc3 l;
  cz_lc3_init(&l, cs);
  for (size_t i = 0; i < n; i++) cz_lc_add_term(&l.c, bits[i].var, cz_gadget_pow2((unsigned)i));
  cz_lc_sub(&l.c, v);
  CZ_ENFORCE(cs, &l.a, &l.b, &l.c, "unpacking constraint");
  cz_lc3_free(&l);
}

cz_err cz_anum_to_bits_le(cz_cs *cs, cz_bool out[CZ_FR_NUM_BITS], const cz_anum *a) {
  cz_abit bits[CZ_FR_NUM_BITS];
  cz_cs_sticky(cz_field_into_allocated_bits_le(cs, bits, &a->value));
  unpacking(cs, bits, CZ_FR_NUM_BITS, a->var);
  for (int i = 0; i < CZ_FR_NUM_BITS; i++) out[i] = cz_bool_from_bit(bits[i]);
  return cz_cs_error(cs);
}

/* bellpepper's kary_and: AND the bits one after another, namespaces "and i". */
static cz_abit kary_and(cz_cs *cs, const cz_abit *v, size_t n) {
  cz_abit cur = v[0];
  for (size_t i = 1; i < n; i++) {
    cz_abit r;
    CZ_PUSH_NS(cs, "and %zu", i);
    cz_cs_sticky(cz_abit_and(cs, &r, &cur, &v[i]));
    CZ_POP_NS(cs);
    cur = r;
  }
  return cur;
}

cz_err cz_anum_to_bits_le_strict(cz_cs *cs, cz_bool out[CZ_FR_NUM_BITS], const cz_anum *a) {
  /* Walk r - 1 from its top set bit (bit 254) down: a run of ones in r - 1
   * allocates plain bits; at the end of a run, last_run = AND of the run's
   * bits and the previous last_run ("a equals r - 1 so far"); a zero bit of
   * r - 1 must be zero in a when last_run is set. */
  uint64_t rm1[CZ_FR_LIMBS], av[CZ_FR_LIMBS];
  for (int i = 0; i < CZ_FR_LIMBS; i++) rm1[i] = CZ_FR_MODULUS[i];
  rm1[0] -= 1; /* r is odd */
  cz_fr_to_canonical(av, &a->value);
  cz_abit result[CZ_FR_NUM_BITS]; /* big-endian */
  cz_abit run[CZ_FR_NUM_BITS + 1], last_run = {CZ_VAR_ONE, false};
  size_t nrun = 0, nres = 0;
  bool have_last = false;
  unsigned i = 0;
  for (int k = 254; k >= 0; k--) {
    bool b = (rm1[k / 64] >> (k % 64)) & 1;
    bool abit = (av[k / 64] >> (k % 64)) & 1;
    if (b) {
      CZ_PUSH_NS(cs, "bit %u", i);
      cz_cs_sticky(cz_abit_alloc(cs, &result[nres], abit));
      CZ_POP_NS(cs);
      run[nrun++] = result[nres++];
    } else {
      if (nrun) {
        if (have_last) run[nrun++] = last_run;
        CZ_PUSH_NS(cs, "run ending at %u", i);
        last_run = kary_and(cs, run, nrun);
        CZ_POP_NS(cs);
        have_last = true;
        nrun = 0;
      }
      CZ_PUSH_NS(cs, "bit %u", i);
      cz_cs_sticky(cz_abit_alloc_conditionally(cs, &result[nres++], abit, &last_run));
      CZ_POP_NS(cs);
    }
    i++;
  }
  /* result is big-endian; unpack little-endian. */
  cz_abit le[CZ_FR_NUM_BITS];
  for (size_t j = 0; j < nres; j++) le[j] = result[nres - 1 - j];
  unpacking(cs, le, nres, a->var);
  for (size_t j = 0; j < nres; j++) out[j] = cz_bool_from_bit(le[j]);
  return cz_cs_error(cs);
}

cz_err cz_anum_conditionally_reverse(cz_cs *cs, cz_anum *c, cz_anum *d, const cz_anum *a,
                                     const cz_anum *b, const cz_bool *cond) {
  cz_anum A = *a, B = *b; /* c, d may alias a, b */
  bool sw = cond->value;
  for (int k = 0; k < 2; k++) {
    /* k = 0: c = cond ? b : a, (a - b) * cond = a - c; k = 1 mirrored. */
    const cz_anum *x = k ? &B : &A, *y = k ? &A : &B;
    cz_anum *o = k ? d : c;
    CZ_PUSH_NS(cs, "conditional reversal result %d", k + 1);
    cz_cs_sticky(cz_anum_alloc(cs, o, sw ? &y->value : &x->value));
    CZ_POP_NS(cs);
    if (cz_cs_needs_constraints(cs)) {
      cz_lc3 l;
      cz_lc3_init(&l, cs);
      cz_lc_add(&l.a, x->var);
      cz_lc_sub(&l.a, y->var);
      cz_bool_add_to_lc(&l.b, *cond, &CZ_FR_ONE);
      cz_lc_add(&l.c, x->var);
      cz_lc_sub(&l.c, o->var);
      CZ_ENFORCE(cs, &l.a, &l.b, &l.c, "%s conditional reversal", k ? "second" : "first");
      cz_lc3_free(&l);
    } else {
      cz_gadget_enforce_nothing(cs);
    }
  }
  return cz_cs_error(cs);
}

/* ---- Num ---------------------------------------------------------------- */

void cz_num_init_zero(cz_num *n) {
  cz_lc_init_layout(&n->lc, CZ_LC_VEC, 0, NULL);
  n->value = CZ_FR_ZERO;
}

void cz_num_from_anum(cz_num *n, const cz_anum *a) {
  cz_lc_init_layout(&n->lc, CZ_LC_VEC, 0, NULL);
  cz_lc_add(&n->lc, a->var);
  n->value = a->value;
}

void cz_num_free(cz_num *n) { cz_lc_free(&n->lc); }

void cz_num_add_bool_with_coeff(cz_num *n, const cz_bool *bit, const cz_fr *coeff) {
  if (bit->value) cz_fr_add(&n->value, &n->value, coeff);
  cz_bool_add_to_lc(&n->lc, *bit, coeff);
}

void cz_num_add(cz_num *n, const cz_num *other) {
  cz_lc_add_lc(&n->lc, &other->lc);
  cz_fr_add(&n->value, &n->value, &other->value);
}

void cz_num_scale(cz_num *n, const cz_fr *s) {
  cz_lc scaled;
  cz_lc_init_layout(&scaled, CZ_LC_VEC, 0, NULL);
  cz_lc_add_scaled(&scaled, s, &n->lc);
  cz_lc_clear(&n->lc);
  cz_lc_add_lc(&n->lc, &scaled);
  cz_lc_free(&scaled);
  cz_fr_mul(&n->value, &n->value, s);
}
