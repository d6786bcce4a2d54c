/* UInt32 and MultiEq, as bellpepper's gadgets/uint32.rs and multieq.rs. */
#include "gadgets/gadget_util.h"

/* ---- MultiEq ----------------------------------------------------------- */

void cz_multieq_init(cz_multieq *m, cz_cs *cs) {
  m->cs = cs;
  m->ops = 0;
  m->bits_used = 0;
  /* Heap vectors: these live across many constraints and would pin an
   * arena (lc.h). */
  cz_lc_init_layout(&m->lhs, CZ_LC_VEC, 0, NULL);
  cz_lc_init_layout(&m->rhs, CZ_LC_VEC, 0, NULL);
}

/* "multieq N": lhs * 1 = rhs, in the current namespace. */
static void multieq_accumulate(cz_multieq *m) {
  cz_cs *cs = m->cs;
  if (cz_cs_needs_constraints(cs)) {
    cz_lc one;
    cz_lc_init(&one, cs);
    cz_lc_add(&one, CZ_VAR_ONE);
    CZ_ENFORCE(cs, &m->lhs, &one, &m->rhs, "multieq %zu", m->ops);
    cz_lc_free(&one);
  } else {
    cz_gadget_enforce_nothing(cs);
  }
  cz_lc_clear(&m->lhs);
  cz_lc_clear(&m->rhs);
  m->bits_used = 0;
  m->ops++;
}

cz_err cz_multieq_finish(cz_multieq *m) {
  if (m->bits_used > 0) multieq_accumulate(m);
  cz_lc_free(&m->lhs);
  cz_lc_free(&m->rhs);
  return cz_cs_error(m->cs);
}

/* ---- UInt32 ------------------------------------------------------------ */

void cz_u32_const(cz_u32 *out, uint32_t value) {
  for (int i = 0; i < 32; i++) out->bits[i] = cz_bool_const((value >> i) & 1);
  out->value = value;
}

/* UInt32::alloc and storage-proofs-core's UInt64::alloc allocate alike. */
static cz_err alloc_bits_le(cz_cs *cs, cz_bool *out, uint64_t value, int n) {
  for (int i = 0; i < n; i++) {
    cz_abit b;
    CZ_PUSH_NS(cs, "allocated bit %d", i);
    cz_cs_sticky(cz_abit_alloc(cs, &b, (value >> i) & 1));
    CZ_POP_NS(cs);
    out[i] = cz_bool_from_bit(b);
  }
  return cz_cs_error(cs);
}

cz_err cz_u32_alloc(cz_cs *cs, cz_u32 *out, uint32_t value) {
  out->value = value;
  return alloc_bits_le(cs, out->bits, value, 32);
}

cz_err cz_u64_alloc(cz_cs *cs, cz_bool out[64], uint64_t value) {
  return alloc_bits_le(cs, out, value, 64);
}

static uint32_t value_of_le(const cz_bool *bits) {
  uint32_t v = 0;
  for (int i = 0; i < 32; i++) v |= (uint32_t)bits[i].value << i;
  return v;
}

void cz_u32_from_bits_be(cz_u32 *out, const cz_bool bits[32]) {
  cz_bool tmp[32];
  for (int i = 0; i < 32; i++) tmp[i] = bits[31 - i];
  for (int i = 0; i < 32; i++) out->bits[i] = tmp[i];
  out->value = value_of_le(out->bits);
}

void cz_u32_from_bits_le(cz_u32 *out, const cz_bool bits[32]) {
  cz_bool tmp[32];
  for (int i = 0; i < 32; i++) tmp[i] = bits[i];
  for (int i = 0; i < 32; i++) out->bits[i] = tmp[i];
  out->value = value_of_le(out->bits);
}

void cz_u32_into_bits_be(const cz_u32 *a, cz_bool out[32]) {
  cz_bool tmp[32];
  for (int i = 0; i < 32; i++) tmp[i] = a->bits[31 - i];
  for (int i = 0; i < 32; i++) out[i] = tmp[i];
}

void cz_u32_into_bits_le(const cz_u32 *a, cz_bool out[32]) {
  cz_bool tmp[32];
  for (int i = 0; i < 32; i++) tmp[i] = a->bits[i];
  for (int i = 0; i < 32; i++) out[i] = tmp[i];
}

void cz_u32_rotr(cz_u32 *out, const cz_u32 *a, unsigned by) {
  by %= 32;
  cz_u32 r;
  for (unsigned i = 0; i < 32; i++) r.bits[i] = a->bits[(i + by) % 32];
  r.value = by ? (a->value >> by) | (a->value << (32 - by)) : a->value;
  *out = r;
}

void cz_u32_shr(cz_u32 *out, const cz_u32 *a, unsigned by) {
  by %= 32;
  cz_u32 r;
  for (unsigned i = 0; i < 32; i++)
    r.bits[i] = i + by < 32 ? a->bits[i + by] : cz_bool_const(false);
  r.value = a->value >> by;
  *out = r;
}

cz_err cz_u32_xor(cz_cs *cs, cz_u32 *out, const cz_u32 *a, const cz_u32 *b) {
  cz_u32 r;
  for (int i = 0; i < 32; i++) {
    CZ_PUSH_NS(cs, "xor of bit %d", i);
    cz_cs_sticky(cz_bool_xor(cs, &r.bits[i], &a->bits[i], &b->bits[i]));
    CZ_POP_NS(cs);
  }
  r.value = a->value ^ b->value;
  *out = r;
  return cz_cs_error(cs);
}

cz_err cz_u32_sha256_maj(cz_cs *cs, cz_u32 *out, const cz_u32 *a, const cz_u32 *b,
                         const cz_u32 *c) {
  cz_u32 r;
  for (int i = 0; i < 32; i++) {
    CZ_PUSH_NS(cs, "maj %d", i);
    cz_cs_sticky(cz_bool_sha256_maj(cs, &r.bits[i], &a->bits[i], &b->bits[i], &c->bits[i]));
    CZ_POP_NS(cs);
  }
  r.value = (a->value & b->value) ^ (a->value & c->value) ^ (b->value & c->value);
  *out = r;
  return cz_cs_error(cs);
}

cz_err cz_u32_sha256_ch(cz_cs *cs, cz_u32 *out, const cz_u32 *a, const cz_u32 *b, const cz_u32 *c) {
  cz_u32 r;
  for (int i = 0; i < 32; i++) {
    CZ_PUSH_NS(cs, "ch %d", i);
    cz_cs_sticky(cz_bool_sha256_ch(cs, &r.bits[i], &a->bits[i], &b->bits[i], &c->bits[i]));
    CZ_POP_NS(cs);
  }
  r.value = (a->value & b->value) ^ (~a->value & c->value);
  *out = r;
  return cz_cs_error(cs);
}

cz_err cz_u32_addmany(cz_multieq *m, cz_u32 *out, const cz_u32 *ops, size_t n) {
  cz_cs *cs = m->cs;
  if (n < 2 || n > 10) return CZ_ERR_INVALID_ARG;
  uint64_t sum = 0;
  bool all_constants = true;
  for (size_t k = 0; k < n; k++) {
    sum += ops[k].value;
    for (int i = 0; i < 32; i++) all_constants &= ops[k].bits[i].form == CZ_BOOL_CONST;
  }
  uint32_t modular = (uint32_t)sum;
  if (all_constants) {
    cz_u32_const(out, modular);
    return cz_cs_error(cs);
  }
  /* As many result bits as the largest possible sum needs. */
  uint64_t max_value = (uint64_t)n * 0xffffffffull;
  unsigned nbits = 0;
  while (max_value) {
    nbits++;
    max_value >>= 1;
  }
  cz_abit res[64];
  for (unsigned i = 0; i < nbits; i++) {
    CZ_PUSH_NS(cs, "result bit %u", i);
    cz_cs_sticky(cz_abit_alloc(cs, &res[i], (sum >> i) & 1));
    CZ_POP_NS(cs);
  }
  /* MultiEq::enforce_equal(nbits, operands' LC, result LC): the pending
   * constraint is emitted first when this one would not fit in 254 bits;
   * then both LCs go in shifted by bits_used. Adding the scaled terms
   * straight into lhs / rhs touches the same variables with the same sums
   * as bellpepper's lhs + (2^used, lc). */
  if (CZ_FR_CAPACITY <= m->bits_used + nbits) multieq_accumulate(m);
  if (cz_cs_needs_constraints(cs)) {
    /* The operands' terms in one batch: their variables come in no useful
     * order, and one by one each would shift the sorted lhs (hundreds of
     * terms). Same terms and sums as cz_bool_add_to_lc on each bit. */
    cz_lc_term batch[10 * 32 * 2];
    size_t nt = 0;
    unsigned sh = (unsigned)m->bits_used;
    for (size_t k = 0; k < n; k++)
      for (unsigned i = 0; i < 32; i++) {
        cz_bool b = ops[k].bits[i];
        const cz_fr *cf = cz_gadget_pow2(sh + i);
        switch (b.form) {
          case CZ_BOOL_CONST:
            if (b.value) batch[nt++] = (cz_lc_term){*cf, cz_var_key(CZ_VAR_ONE)};
            break;
          case CZ_BOOL_IS: batch[nt++] = (cz_lc_term){*cf, cz_var_key(b.var)}; break;
          default: /* Not(v): coeff * ONE - coeff * v */
            batch[nt++] = (cz_lc_term){*cf, cz_var_key(CZ_VAR_ONE)};
            batch[nt].key = cz_var_key(b.var);
            cz_fr_neg(&batch[nt++].coeff, cf);
            break;
        }
      }
    cz_lc_add_terms(&m->lhs, batch, nt);
    for (unsigned i = 0; i < nbits; i++)
      cz_lc_add_term(&m->rhs, res[i].var, cz_gadget_pow2(sh + i));
  }
  m->bits_used += nbits;
  for (int i = 0; i < 32; i++) out->bits[i] = cz_bool_from_bit(res[i]);
  out->value = modular;
  return cz_cs_error(cs);
}
