/* Equality of constraint-system results, for tests that compare backends
 * (PROVE against RECORD + WITNESS, ...): every field, term and density bit. */
#ifndef CUZK_TESTS_CS_EQ_H
#define CUZK_TESTS_CS_EQ_H
#include <stdbool.h>
#include <string.h>
#include "cuzk/cs.h"

/* Same length, same count, same bit at every index below n. */
static inline bool dens_eq(const cz_density *x, const cz_density *y) {
  if (x->n != y->n || x->count != y->count) return false;
  for (size_t i = 0; i < x->n; i++)
    if (cz_density_get(x, i) != cz_density_get(y, i)) return false;
  return true;
}

static inline bool assign_eq(const cz_assignment *x, const cz_assignment *y) {
  return x->n_inputs == y->n_inputs && x->n_aux == y->n_aux &&
         x->n_constraints == y->n_constraints &&
         !memcmp(x->inputs, y->inputs, x->n_inputs * sizeof(cz_fr)) &&
         !memcmp(x->aux, y->aux, x->n_aux * sizeof(cz_fr)) &&
         !memcmp(x->a, y->a, x->n_constraints * sizeof(cz_fr)) &&
         !memcmp(x->b, y->b, x->n_constraints * sizeof(cz_fr)) &&
         !memcmp(x->c, y->c, x->n_constraints * sizeof(cz_fr)) && dens_eq(&x->a_aux, &y->a_aux) &&
         dens_eq(&x->b_input, &y->b_input) && dens_eq(&x->b_aux, &y->b_aux);
}
#endif
