/* Results of a finished constraint system: moving buffers out (prove
 * assignment, keygen columns; the recorded matrices are in pce.c, their
 * evaluation in spmv.c), and the TEST backend's satisfaction check. */
#include <stdlib.h>
#include <string.h>
#include "cs/cs_internal.h"

#define AUX_KEY_BASE ((uint64_t)CZ_VAR_AUX << 32)

void cz_density_free(cz_density *d) {
  cz_pool_give(d->bits);
  memset(d, 0, sizeof *d);
}

void cz_assignment_free(cz_assignment *as) {
  cz_pool_give(as->inputs);
  cz_fr_packed_free(&as->aux);
  cz_pool_give(as->a);
  cz_pool_give(as->b);
  cz_pool_give(as->c);
  cz_density_free(&as->a_aux);
  cz_density_free(&as->b_input);
  cz_density_free(&as->b_aux);
  memset(as, 0, sizeof *as);
}

static void spmat_free(cz_spmat *m) {
  free(m->ptr);
  free(m->idx);
  free(m->val);
  memset(m, 0, sizeof *m);
}

void cz_r1cs_free(cz_r1cs *m) {
  spmat_free(&m->a);
  spmat_free(&m->b);
  spmat_free(&m->c);
  cz_density_free(&m->a_aux);
  cz_density_free(&m->b_input);
  cz_density_free(&m->b_aux);
  memset(m, 0, sizeof *m);
}

void cz_keygen_cols_free(cz_keygen_cols *k) {
  spmat_free(&k->at);
  spmat_free(&k->bt);
  spmat_free(&k->ct);
  memset(k, 0, sizeof *k);
}

static cz_err take_check(cz_cs *cs, bool kind_ok) {
  if (!kind_ok || !cs->finished || cs->taken || cs->err) return CZ_ERR_INVALID_ARG;
  return CZ_OK;
}

static cz_density take_dens(cz_dens_buf *b) {
  cz_density d = b->d;
  if (!d.bits) d.bits = calloc(1, sizeof(uint64_t)); /* never NULL for n = 0 */
  memset(b, 0, sizeof *b);
  return d;
}

cz_err cz_cs_take_assignment(cz_cs *cs, cz_assignment *out) {
  memset(out, 0, sizeof *out);
  cz_err e = take_check(cs, cs->mode == CZ_CS_PROVE || cs->mode == CZ_CS_WITNESS);
  if (e) return e;
  cs->taken = true; /* from here its buffers are gone: a second take must fail */
  out->n_inputs = cs->n_inputs;
  out->n_aux = cs->n_aux;
  out->n_constraints = cs->n_constraints;
  out->inputs = cs->inputs;
  cs->inputs = NULL;
  e = cz_fr_packed_from(&out->aux, cs->aux, cs->n_aux);
  cz_pool_give(cs->aux);
  cs->aux = NULL;
  if (e == CZ_OK && cs->mode == CZ_CS_PROVE) {
    out->a = cs->a;
    out->b = cs->b;
    cs->a = cs->b = NULL;
    out->a_aux = take_dens(&cs->a_aux);
    out->b_input = take_dens(&cs->b_input);
    out->b_aux = take_dens(&cs->b_aux);
    if (!out->a_aux.bits || !out->b_input.bits || !out->b_aux.bits) e = CZ_ERR_NOMEM;
  }
  if (e != CZ_OK) {
    cz_assignment_free(out);
    return e == CZ_ERR_INVALID_ARG ? e : CZ_ERR_NOMEM;
  }
  return CZ_OK;
}

static uint32_t key_to_col(uint64_t key, size_t n_inputs) {
  return key < AUX_KEY_BASE ? (uint32_t)key : (uint32_t)(n_inputs + (key - AUX_KEY_BASE));
}

/* Triplets in row order -> CSC by a stable counting sort on the column, so
 * each column lists its constraints in order (bellperson's at/bt/ct). */
static bool build_csc(cz_spmat *m, const cz_triplets *t, size_t n_rows, size_t n_inputs,
                      size_t n_cols) {
  m->n_major = n_cols;
  m->n_minor = n_rows;
  m->ptr = calloc(n_cols + 1, sizeof *m->ptr);
  m->idx = malloc((t->n ? t->n : 1) * sizeof *m->idx);
  m->val = malloc((t->n ? t->n : 1) * sizeof *m->val);
  uint64_t *pos = malloc((n_cols + 1) * sizeof *pos);
  bool ok = m->ptr && m->idx && m->val && pos;
  if (ok) {
    for (size_t i = 0; i < t->n; i++) m->ptr[key_to_col(t->key[i], n_inputs) + 1]++;
    for (size_t j = 0; j < n_cols; j++) m->ptr[j + 1] += m->ptr[j];
    memcpy(pos, m->ptr, (n_cols + 1) * sizeof *pos);
    for (size_t i = 0; i < t->n; i++) {
      uint64_t p = pos[key_to_col(t->key[i], n_inputs)]++;
      m->idx[p] = t->row[i];
      m->val[p] = t->val[i];
    }
  }
  free(pos);
  return ok;
}

static void triplets_release(cz_triplets *t) {
  free(t->key);
  free(t->row);
  free(t->val);
  memset(t, 0, sizeof *t);
}

cz_err cz_cs_take_keygen(cz_cs *cs, cz_keygen_cols *out) {
  memset(out, 0, sizeof *out);
  cz_err e = take_check(cs, cs->mode == CZ_CS_KEYGEN && !cs->qap);
  if (e) return e;
  size_t n_cols = cs->n_inputs + cs->n_aux;
  if (n_cols > UINT32_MAX) return CZ_ERR_INVALID_ARG;
  out->n_inputs = cs->n_inputs;
  out->n_aux = cs->n_aux;
  out->n_constraints = cs->n_constraints;
  bool ok = build_csc(&out->at, &cs->mat[0], cs->n_constraints, cs->n_inputs, n_cols) &&
            build_csc(&out->bt, &cs->mat[1], cs->n_constraints, cs->n_inputs, n_cols) &&
            build_csc(&out->ct, &cs->mat[2], cs->n_constraints, cs->n_inputs, n_cols);
  for (int i = 0; i < 3; i++) triplets_release(&cs->mat[i]);
  cs->taken = true;
  if (!ok) {
    cz_keygen_cols_free(out);
    return CZ_ERR_NOMEM;
  }
  return CZ_OK;
}

/* ---- TEST backend --------------------------------------------------- */

static void eval_terms(cz_fr *out, const cz_cs *cs, size_t from, size_t to) {
  cz_fr acc = CZ_FR_ZERO, tmp;
  for (size_t i = from; i < to; i++) {
    uint64_t k = cs->tterms[i].key;
    const cz_fr *x = k < AUX_KEY_BASE ? &cs->inputs[k] : &cs->aux[k - AUX_KEY_BASE];
    cz_fr_mul(&tmp, &cs->tterms[i].coeff, x);
    cz_fr_add(&acc, &acc, &tmp);
  }
  *out = acc;
}

const char *cz_cs_which_is_unsatisfied(const cz_cs *cs, size_t *index) {
  if (cs->mode != CZ_CS_TEST) return NULL;
  for (size_t i = 0; i < cs->n_constraints; i++) {
    cz_fr a, b, c;
    eval_terms(&a, cs, cs->toff[3 * i], cs->toff[3 * i + 1]);
    eval_terms(&b, cs, cs->toff[3 * i + 1], cs->toff[3 * i + 2]);
    eval_terms(&c, cs, cs->toff[3 * i + 2], cs->toff[3 * i + 3]);
    cz_fr_mul(&a, &a, &b);
    if (!cz_fr_eq(&a, &c)) {
      if (index) *index = i;
      return cs->names + cs->name_off[i];
    }
  }
  return NULL;
}

bool cz_cs_is_satisfied(const cz_cs *cs) {
  return cs->mode == CZ_CS_TEST && cs->err == CZ_OK && cz_cs_which_is_unsatisfied(cs, NULL) == NULL;
}

const char *cz_cs_constraint_name(const cz_cs *cs, size_t i) {
  if (cs->mode != CZ_CS_TEST || i >= cs->n_constraints) return NULL;
  return cs->names + cs->name_off[i];
}
