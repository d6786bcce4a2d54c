/* Synthetic circuits (see cuzk/synthetic.h). */
#include <string.h>
#include "cuzk/synthetic.h"

static void square_constraint(cz_cs *cs, cz_var in, cz_var out) {
  cz_lc a, c;
  cz_lc_init(&a, cs);
  cz_lc_init(&c, cs);
  cz_lc_add(&a, in);
  cz_lc_add(&c, out);
  cz_cs_enforce(cs, &a, &a, &c);
  cz_lc_free(&a);
  cz_lc_free(&c);
}

cz_err cz_synthetic_chain(cz_cs *cs, size_t n, const cz_fr *x) {
  const bool vals = cz_cs_needs_values(cs);
  if (vals && !x) return CZ_ERR_INVALID_ARG;
  cz_fr v = vals ? *x : CZ_FR_ZERO;
  cz_var prev, next;
  cz_cs_sticky(cz_cs_alloc_input(cs, &prev, vals ? &v : NULL));
  for (size_t i = 0; i < n; i++) {
    if (vals) cz_fr_sqr(&v, &v);
    cz_cs_sticky(cz_cs_alloc(cs, &next, vals ? &v : NULL));
    square_constraint(cs, prev, next);
    prev = next;
  }
  return cz_cs_error(cs);
}

static uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

cz_err cz_synthetic_sparse(cz_cs *cs, size_t n, const cz_fr *x, uint64_t seed) {
  const bool vals = cz_cs_needs_values(cs);
  if (vals && !x) return CZ_ERR_INVALID_ARG;
  if (n == 0) return cz_cs_error(cs);
  cz_var xv, y, b;
  cz_fr v;
  cz_cs_sticky(cz_cs_alloc_input(cs, &xv, vals ? x : NULL));
  if (vals) cz_fr_sqr(&v, x);
  cz_cs_sticky(cz_cs_alloc(cs, &y, vals ? &v : NULL));
  square_constraint(cs, xv, y);
  cz_lc a, bl, c;
  cz_lc_init(&a, cs);
  cz_lc_init(&bl, cs);
  cz_lc_init(&c, cs);
  for (size_t i = 1; i < n; i++) {
    uint64_t r = mix(seed + 0x9e3779b97f4a7c15ULL * i);
    bool bit = (r & 3) == 3;
    cz_cs_sticky(cz_cs_alloc(cs, &b, vals ? (bit ? &CZ_FR_ONE : &CZ_FR_ZERO) : NULL));
    cz_lc_clear(&a);
    cz_lc_clear(&bl);
    cz_lc_add(&a, b);
    cz_lc_add(&bl, CZ_VAR_ONE);
    cz_lc_sub(&bl, b);
    cz_cs_enforce(cs, &a, &bl, &c);
  }
  cz_lc_free(&a);
  cz_lc_free(&bl);
  cz_lc_free(&c);
  return cz_cs_error(cs);
}

cz_err cz_synthetic_by_name(const char *shape, cz_cs *cs, size_t n, const cz_fr *x, uint64_t seed) {
  if (shape && strcmp(shape, "chain") == 0) return cz_synthetic_chain(cs, n, x);
  if (shape && strcmp(shape, "sparse") == 0) return cz_synthetic_sparse(cs, n, x, seed);
  return CZ_ERR_INVALID_ARG;
}
