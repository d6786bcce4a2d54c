/* Multipacking of bits into field elements, as bellpepper's
 * gadgets/multipack.rs: chunks of CAPACITY (254) bits, little-endian. */
#include "gadgets/gadget_util.h"

void cz_bytes_to_bits(bool *out, const uint8_t *bytes, size_t n) {
  for (size_t i = 0; i < n; i++)
    for (int j = 0; j < 8; j++) out[8 * i + (size_t)j] = (bytes[i] >> (7 - j)) & 1;
}

void cz_bytes_to_bits_le(bool *out, const uint8_t *bytes, size_t n) {
  for (size_t i = 0; i < n; i++)
    for (int j = 0; j < 8; j++) out[8 * i + (size_t)j] = (bytes[i] >> j) & 1;
}

size_t cz_compute_multipacking(cz_fr *out, const bool *bits, size_t n) {
  size_t count = 0;
  for (size_t at = 0; at < n; at += CZ_FR_CAPACITY, count++) {
    cz_fr cur = CZ_FR_ZERO;
    for (size_t j = 0; j < CZ_FR_CAPACITY && at + j < n; j++)
      if (bits[at + j]) cz_fr_add(&cur, &cur, cz_gadget_pow2((unsigned)j));
    out[count] = cur;
  }
  return count;
}

/* num = sum 2^j bits[j]; then "num * 1 = v". */
static void pack_chunk(cz_cs *cs, cz_var *v, bool input, const cz_bool *bits, size_t n,
                       const char *cname, size_t idx) {
  cz_num num;
  cz_num_init_zero(&num);
  for (size_t j = 0; j < n; j++)
    cz_num_add_bool_with_coeff(&num, &bits[j], cz_gadget_pow2((unsigned)j));
  if (input) {
    cz_cs_sticky(cz_cs_alloc_input(cs, v, &num.value));
  } else {
    CZ_PUSH_NS(cs, "input");
    cz_cs_sticky(cz_cs_alloc(cs, v, &num.value));
    CZ_POP_NS(cs);
  }
  if (cz_cs_needs_constraints(cs)) {
    cz_lc3 l;
    cz_lc3_init(&l, cs);
    cz_lc_add_lc(&l.a, &num.lc);
    cz_lc_add(&l.b, CZ_VAR_ONE);
    cz_lc_add(&l.c, *v);
    if (input) CZ_ENFORCE(cs, &l.a, &l.b, &l.c, "%s %zu", cname, idx);
    else CZ_ENFORCE(cs, &l.a, &l.b, &l.c, "%s", cname);
    cz_lc3_free(&l);
  } else {
    cz_gadget_enforce_nothing(cs);
  }
  cz_num_free(&num);
}

cz_err cz_pack_into_inputs(cz_cs *cs, const cz_bool *bits, size_t n) {
  size_t i = 0;
  for (size_t at = 0; at < n; at += CZ_FR_CAPACITY, i++) {
    size_t len = n - at < CZ_FR_CAPACITY ? n - at : CZ_FR_CAPACITY;
    cz_var v;
    pack_chunk(cs, &v, true, bits + at, len, "packing constraint", i);
  }
  return cz_cs_error(cs);
}

cz_err cz_pack_bits(cz_cs *cs, cz_anum *out, const cz_bool *bits, size_t n) {
  size_t len = n < CZ_FR_CAPACITY ? n : CZ_FR_CAPACITY;
  pack_chunk(cs, &out->var, false, bits, len, "packing constraint", 0);
  out->value = CZ_FR_ZERO;
  for (size_t j = 0; j < len; j++)
    if (bits[j].value) cz_fr_add(&out->value, &out->value, cz_gadget_pow2((unsigned)j));
  return cz_cs_error(cs);
}
