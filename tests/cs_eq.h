/* Equality of constraint-system results, for tests that compare backends
 * (PROVE against RECORD + WITNESS, ...): every field, term and density bit. */
#ifndef CUZK_TESTS_CS_EQ_H
#define CUZK_TESTS_CS_EQ_H
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/cs.h"

/* Same length, same count, same bit at every index below n. */
static inline bool dens_eq(const cz_density *x, const cz_density *y) {
  if (x->n != y->n || x->count != y->count) return false;
  for (size_t i = 0; i < x->n; i++)
    if (cz_density_get(x, i) != cz_density_get(y, i)) return false;
  return true;
}

/* Equal values, rows and densities. c is compared where both hold it
 * (cz_r1cs_eval makes it; PROVE and cz_pce_eval leave it NULL). */
static inline bool assign_eq(const cz_assignment *x, const cz_assignment *y) {
  bool rows = (x->a == NULL) == (y->a == NULL);
  if (rows && x->a)
    rows = !memcmp(x->a, y->a, x->n_constraints * sizeof(cz_fr)) &&
           !memcmp(x->b, y->b, x->n_constraints * sizeof(cz_fr));
  if (rows && x->c && y->c) rows = !memcmp(x->c, y->c, x->n_constraints * sizeof(cz_fr));
  return x->n_inputs == y->n_inputs && x->n_aux == y->n_aux &&
         x->n_constraints == y->n_constraints &&
         !memcmp(x->inputs, y->inputs, x->n_inputs * sizeof(cz_fr)) &&
         cz_fr_packed_eq(&x->aux, &y->aux) && rows && dens_eq(&x->a_aux, &y->a_aux) &&
         dens_eq(&x->b_input, &y->b_input) && dens_eq(&x->b_aux, &y->b_aux);
}

/* The value of variable j (inputs first, then aux) of an assignment. */
static inline cz_fr assign_var(const cz_assignment *p, size_t j) {
  cz_fr x;
  if (j < p->n_inputs) x = p->inputs[j];
  else cz_fr_packed_get(&p->aux, j - p->n_inputs, &x);
  return x;
}

/* The first constraint with a * b != c among the first n of an assignment
 * with all three evaluations (a WITNESS run completed by cz_r1cs_eval:
 * PROVE leaves c out); n when all hold. With a TEST run of the same
 * circuit, cz_cs_constraint_name names it: the cheap way to check many
 * broken witnesses of one shape. */
static inline size_t first_unsatisfied(const cz_assignment *w, size_t n) {
  if (!w->c) return 0;
  for (size_t i = 0; i < n; i++) {
    cz_fr ab;
    cz_fr_mul(&ab, &w->a[i], &w->b[i]);
    if (!cz_fr_eq(&ab, &w->c[i])) return i;
  }
  return n;
}

/* KEYGEN's columns against a PROVE run of the same circuit: the same
 * counts, rows ascending within each column, a variable's density bit set
 * exactly when its column has a nonzero entry, and, per row, the sum over
 * columns of entries * w equal to the evaluations a, b and a * b (the
 * witness satisfies the circuit). */
static inline bool keygen_eq(const cz_keygen_cols *k, const cz_assignment *p) {
  const cz_spmat *m[3] = {&k->at, &k->bt, &k->ct};
  cz_fr *ab = malloc((p->n_constraints ? p->n_constraints : 1) * sizeof(cz_fr));
  if (!ab) return false;
  for (size_t i = 0; i < p->n_constraints; i++) cz_fr_mul(&ab[i], &p->a[i], &p->b[i]);
  const cz_fr *ev[3] = {p->a, p->b, p->c ? p->c : ab};
  if (k->n_constraints != p->n_constraints || k->n_inputs != p->n_inputs || k->n_aux != p->n_aux)
    return false;
  size_t n = p->n_constraints;
  cz_fr *acc = calloc(n ? n : 1, sizeof(cz_fr));
  bool ok = acc != NULL;
  for (int t = 0; ok && t < 3; t++) {
    memset(acc, 0, (n ? n : 1) * sizeof(cz_fr));
    for (size_t j = 0; j < m[t]->n_major; j++) {
      cz_fr xv = assign_var(p, j);
      const cz_fr *x = &xv;
      bool nonzero = false;
      for (uint64_t q = m[t]->ptr[j]; q < m[t]->ptr[j + 1]; q++) {
        cz_fr tmp;
        cz_fr_mul(&tmp, &m[t]->val[q], x);
        cz_fr_add(&acc[m[t]->idx[q]], &acc[m[t]->idx[q]], &tmp);
        if (q > m[t]->ptr[j] && m[t]->idx[q] <= m[t]->idx[q - 1]) ok = false;
        if (!cz_fr_is_zero(&m[t]->val[q])) nonzero = true;
      }
      if (t == 0 && j >= p->n_inputs && nonzero != cz_density_get(&p->a_aux, j - p->n_inputs))
        ok = false;
      if (t == 1 && j < p->n_inputs && nonzero != cz_density_get(&p->b_input, j)) ok = false;
      if (t == 1 && j >= p->n_inputs && nonzero != cz_density_get(&p->b_aux, j - p->n_inputs))
        ok = false;
    }
    if (memcmp(acc, ev[t], n * sizeof(cz_fr))) ok = false;
  }
  free(acc);
  free(ab);
  return ok;
}
#endif
