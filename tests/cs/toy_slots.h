/* A circuit of a header and slots for the tests of cz_slots_synthesize
 * and the proofs made from it (test_cs_slots, test_prove_slots): slots of
 * 37 aux (so slots meet inside density and packing words), an input each,
 * bits and full values, using the header's variables in A and B; knobs
 * make one slot of another shape, one use a variable it was not given,
 * one fail, odd slots read another header variable (slots that do not
 * repeat), or every slot be larger (another circuit with the same header). */
#ifndef CUZK_TESTS_TOY_SLOTS_H
#define CUZK_TESTS_TOY_SLOTS_H
#include "cuzk/cs_slots.h"

#define PER_AUX 37

typedef struct {
  size_t n_slots;
  cz_var h_in, h_aux, h_bit; /* the header's */
  cz_fr h_val;
  int odd_slot; /* this slot allocates one aux more (-1: none) */
  int thief;    /* this slot uses a variable it did not get (-1: none) */
  int failing;  /* this slot fails (-1: none) */
  bool vary;    /* odd slots read another header variable: slots do not repeat */
  size_t extra; /* aux every slot allocates beyond PER_AUX (another circuit, the same header) */
} toy;

static inline cz_fr toy_fr(uint64_t v) {
  cz_fr x;
  cz_fr_from_u64(&x, v);
  return x;
}

static inline cz_err toy_header(cz_cs *cs, void *ctx) {
  toy *t = ctx;
  t->h_val = toy_fr(12345);
  cz_cs_sticky(cz_cs_alloc_input(cs, &t->h_in, &t->h_val));
  cz_cs_sticky(cz_cs_alloc(cs, &t->h_aux, &t->h_val));
  cz_cs_sticky(cz_cs_alloc(cs, &t->h_bit, &CZ_FR_ONE));
  cz_lc a, b, c;
  cz_lc_init(&a, cs);
  cz_lc_init(&b, cs);
  cz_lc_init(&c, cs);
  cz_lc_add(&a, t->h_in);
  cz_lc_add(&b, CZ_VAR_ONE);
  cz_lc_add(&c, t->h_aux);
  cz_cs_enforce(cs, &a, &b, &c); /* h_in * 1 = h_aux */
  cz_lc_free(&a);
  cz_lc_free(&b);
  cz_lc_free(&c);
  return cz_cs_error(cs);
}

/* Slot i: an input, PER_AUX aux (bits and values) and constraints tying
 * them to the header, satisfied: (v_j [+ input]) * (h_bit + h_aux) = w_j,
 * v_j 0, 1 or a value by i + j, and a last bit v * (1 - v) = 0. */
static inline cz_err toy_slot(cz_cs *cs, const void *ctx, size_t i) {
  const toy *t = ctx;
  if ((int)i == t->failing) return CZ_ERR_INVALID_ARG;
  cz_var in, v;
  /* B's value: h_bit + h_aux, or h_in + h_aux when the slot varies. */
  cz_fr iv = toy_fr(1000 + i), hb;
  cz_fr_add(&hb, &t->h_val, t->vary && i % 2 ? &t->h_val : &CZ_FR_ONE);
  cz_cs_sticky(cz_cs_alloc_input(cs, &in, &iv));
  cz_lc a, b, c;
  cz_lc_init(&a, cs);
  cz_lc_init(&b, cs);
  cz_lc_init(&c, cs);
  size_t n = PER_AUX + t->extra + ((int)i == t->odd_slot);
  for (size_t j = 0; j + 1 < n; j += 2) {
    /* v in {0, 1, other} by (i + j) % 3; w = v * (h_aux + 1). */
    unsigned k = (unsigned)((i + j) % 3);
    cz_fr vv = k == 0 ? CZ_FR_ZERO : k == 1 ? CZ_FR_ONE : toy_fr(7 * i + j + 2), ww, av;
    cz_fr_add(&av, &vv, j % 4 == 0 ? &iv : &CZ_FR_ZERO); /* A's value */
    cz_fr_mul(&ww, &av, &hb);
    cz_var w;
    cz_cs_sticky(cz_cs_alloc(cs, &v, &vv));
    cz_cs_sticky(cz_cs_alloc(cs, &w, &ww));
    cz_lc_clear(&a);
    cz_lc_clear(&b);
    cz_lc_clear(&c);
    cz_lc_add(&a, v);
    if (j % 4 == 0) cz_lc_add(&a, in); /* + the slot's input: A gains it, not its density */
    cz_lc_add(&b, t->vary && i % 2 ? t->h_in : t->h_bit);
    /* The thief names a later slot's variable (by index: slots get no other
     * handles), unallocated when it runs, serially or not. */
    cz_lc_add(&b, (int)i == t->thief ? cz_var_aux((uint32_t)(2 + (t->n_slots - 1) * PER_AUX))
                                     : t->h_aux);
    cz_lc_add(&c, w);
    cz_cs_enforce(cs, &a, &b, &c);
  }
  if (n % 2) { /* a last bit, constrained to be one: v * (1 - v) = 0 */
    cz_cs_sticky(cz_cs_alloc(cs, &v, &CZ_FR_ONE));
    cz_lc_clear(&a);
    cz_lc_clear(&b);
    cz_lc_clear(&c);
    cz_lc_add(&a, v);
    cz_lc_add(&b, CZ_VAR_ONE);
    cz_lc_sub(&b, v);
    cz_cs_enforce(cs, &a, &b, &c);
  }
  cz_lc_free(&a);
  cz_lc_free(&b);
  cz_lc_free(&c);
  return cz_cs_error(cs);
}

static inline toy toy_new(size_t n) {
  return (toy){.n_slots = n, .odd_slot = -1, .thief = -1, .failing = -1};
}

#endif
