/* Internals shared by the gadget sources: powers of two in Fr and the
 * three-LC scratch every constraint is built in. Not a public header. */
#ifndef CUZK_GADGET_UTIL_H
#define CUZK_GADGET_UTIL_H
#include "cuzk/cs.h"
#include "cuzk/gadgets.h"

/* 2^k in Montgomery form, k < 256 (table built once, thread-safe). */
const cz_fr *cz_gadget_pow2(unsigned k);

/* The A, B, C of one constraint, in the layout of the system: bellpepper's
 * per-constraint closures build fresh LCs, so do we. */
typedef struct {
  cz_lc a, b, c;
} cz_lc3;

static inline void cz_lc3_init(cz_lc3 *l, cz_cs *cs) {
  cz_lc_init(&l->a, cs);
  cz_lc_init(&l->b, cs);
  cz_lc_init(&l->c, cs);
}
static inline void cz_lc3_free(cz_lc3 *l) {
  cz_lc_free(&l->a);
  cz_lc_free(&l->b);
  cz_lc_free(&l->c);
}

/* Where no LCs are needed (WITNESS), a constraint is still counted: the
 * witness's constraint count must match the recorded shape. */
static inline void cz_gadget_enforce_nothing(cz_cs *cs) {
  cz_lc e;
  cz_lc_init_layout(&e, CZ_LC_VEC, 0, NULL);
  cz_cs_enforce(cs, &e, &e, &e);
  cz_lc_free(&e);
}

static inline const cz_fr *cz_bit_fr(bool b) { return b ? &CZ_FR_ONE : &CZ_FR_ZERO; }

#endif
