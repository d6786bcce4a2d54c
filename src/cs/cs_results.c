/* Results of a finished constraint system: moving buffers out (prove
 * assignment, recorded matrices, keygen columns), the recorded-matrix
 * evaluator, and the TEST backend's satisfaction check. */
#include <stdlib.h>
#include <string.h>
#include "cs/cs_internal.h"

#define AUX_KEY_BASE ((uint64_t)CZ_VAR_AUX << 32)

void cz_density_free(cz_density *d) {
  free(d->bits);
  memset(d, 0, sizeof *d);
}

void cz_assignment_free(cz_assignment *as) {
  free(as->inputs);
  free(as->aux);
  free(as->a);
  free(as->b);
  free(as->c);
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
  cz_err e = take_check(cs, cs->kind == CZ_CS_PROVE || cs->kind == CZ_CS_WITNESS);
  if (e) return e;
  out->n_inputs = cs->n_inputs;
  out->n_aux = cs->n_aux;
  out->n_constraints = cs->n_constraints;
  out->inputs = cs->inputs;
  out->aux = cs->aux;
  cs->inputs = cs->aux = NULL;
  if (cs->kind == CZ_CS_PROVE) {
    out->a = cs->a;
    out->b = cs->b;
    out->c = cs->c;
    cs->a = cs->b = cs->c = NULL;
    out->a_aux = take_dens(&cs->a_aux);
    out->b_input = take_dens(&cs->b_input);
    out->b_aux = take_dens(&cs->b_aux);
    if (!out->a_aux.bits || !out->b_input.bits || !out->b_aux.bits) {
      cz_assignment_free(out);
      return CZ_ERR_NOMEM;
    }
  }
  cs->taken = true;
  return CZ_OK;
}

static uint32_t key_to_col(uint64_t key, size_t n_inputs) {
  return key < AUX_KEY_BASE ? (uint32_t)key : (uint32_t)(n_inputs + (key - AUX_KEY_BASE));
}

static bool dens_new(cz_density *d, size_t n) {
  d->n = n;
  d->count = 0;
  d->bits = calloc(n / 64 + 1, sizeof(uint64_t));
  return d->bits != NULL;
}

static void dens_set(cz_density *d, size_t i) {
  uint64_t m = (uint64_t)1 << (i & 63);
  if (!(d->bits[i >> 6] & m)) {
    d->bits[i >> 6] |= m;
    d->count++;
  }
}

/* Triplets in row order -> CSR (rows = constraints). */
static bool build_csr(cz_spmat *m, cz_triplets *t, size_t n_rows, size_t n_inputs, size_t n_cols) {
  m->n_major = n_rows;
  m->n_minor = n_cols;
  m->ptr = calloc(n_rows + 1, sizeof *m->ptr);
  m->idx = malloc((t->n ? t->n : 1) * sizeof *m->idx);
  if (!m->ptr || !m->idx) return false;
  for (size_t i = 0; i < t->n; i++) {
    m->ptr[t->row[i] + 1]++;
    m->idx[i] = key_to_col(t->key[i], n_inputs);
  }
  for (size_t r = 0; r < n_rows; r++) m->ptr[r + 1] += m->ptr[r];
  m->val = t->val; /* already in row order */
  t->val = NULL;
  if (!m->val) m->val = malloc(sizeof(cz_fr));
  return m->val != NULL;
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

cz_err cz_cs_take_r1cs(cz_cs *cs, cz_r1cs *out) {
  memset(out, 0, sizeof *out);
  cz_err e = take_check(cs, cs->kind == CZ_CS_RECORD);
  if (e) return e;
  size_t n_cols = cs->n_inputs + cs->n_aux;
  if (n_cols > UINT32_MAX) return CZ_ERR_INVALID_ARG;
  out->n_inputs = cs->n_inputs;
  out->n_aux = cs->n_aux;
  out->n_constraints = cs->n_constraints;
  bool ok = dens_new(&out->a_aux, cs->n_aux) && dens_new(&out->b_input, cs->n_inputs) &&
            dens_new(&out->b_aux, cs->n_aux);
  /* Densities as the prover counts them: nonzero terms (zeros were never
   * recorded) of A over aux, of B over inputs and aux. */
  if (ok) {
    const cz_triplets *ta = &cs->mat[0], *tb = &cs->mat[1];
    for (size_t i = 0; i < ta->n; i++)
      if (ta->key[i] >= AUX_KEY_BASE) dens_set(&out->a_aux, ta->key[i] - AUX_KEY_BASE);
    for (size_t i = 0; i < tb->n; i++) {
      if (tb->key[i] >= AUX_KEY_BASE) dens_set(&out->b_aux, tb->key[i] - AUX_KEY_BASE);
      else dens_set(&out->b_input, tb->key[i]);
    }
  }
  ok = ok && build_csr(&out->a, &cs->mat[0], cs->n_constraints, cs->n_inputs, n_cols) &&
       build_csr(&out->b, &cs->mat[1], cs->n_constraints, cs->n_inputs, n_cols) &&
       build_csr(&out->c, &cs->mat[2], cs->n_constraints, cs->n_inputs, n_cols);
  for (int i = 0; i < 3; i++) triplets_release(&cs->mat[i]);
  cs->taken = true;
  if (!ok) {
    cz_r1cs_free(out);
    return CZ_ERR_NOMEM;
  }
  return CZ_OK;
}

cz_err cz_cs_take_keygen(cz_cs *cs, cz_keygen_cols *out) {
  memset(out, 0, sizeof *out);
  cz_err e = take_check(cs, cs->kind == CZ_CS_KEYGEN);
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

/* One row of M * w; coefficient one skips the multiplication exactly as the
 * prover does (the value is the same either way: field arithmetic is exact). */
static void spmv(cz_fr *out, const cz_spmat *m, const cz_fr *inputs, size_t n_inputs,
                 const cz_fr *aux) {
  for (size_t r = 0; r < m->n_major; r++) {
    cz_fr acc = CZ_FR_ZERO, tmp;
    for (uint64_t p = m->ptr[r]; p < m->ptr[r + 1]; p++) {
      uint32_t col = m->idx[p];
      const cz_fr *x = col < n_inputs ? &inputs[col] : &aux[col - n_inputs];
      if (fr_is_one_inl(&m->val[p])) {
        fr_add_inl(&acc, &acc, x);
      } else {
        cz_fr_mul(&tmp, &m->val[p], x);
        fr_add_inl(&acc, &acc, &tmp);
      }
    }
    out[r] = acc;
  }
}

static bool dens_copy(cz_density *dst, const cz_density *src) {
  size_t words = src->n / 64 + 1;
  dst->bits = malloc(words * sizeof(uint64_t));
  if (!dst->bits) return false;
  memcpy(dst->bits, src->bits, words * sizeof(uint64_t));
  dst->n = src->n;
  dst->count = src->count;
  return true;
}

cz_err cz_r1cs_eval(const cz_r1cs *m, cz_assignment *w) {
  if (w->n_inputs != m->n_inputs || w->n_aux != m->n_aux || w->a || w->b || w->c ||
      w->a_aux.bits || w->b_input.bits || w->b_aux.bits)
    return CZ_ERR_INVALID_ARG;
  if (w->n_constraints + m->n_inputs != m->n_constraints && w->n_constraints != m->n_constraints)
    return CZ_ERR_INVALID_ARG;
  size_t n = m->n_constraints ? m->n_constraints : 1;
  w->a = malloc(n * sizeof(cz_fr));
  w->b = malloc(n * sizeof(cz_fr));
  w->c = malloc(n * sizeof(cz_fr));
  if (!w->a || !w->b || !w->c || !dens_copy(&w->a_aux, &m->a_aux) ||
      !dens_copy(&w->b_input, &m->b_input) || !dens_copy(&w->b_aux, &m->b_aux)) {
    free(w->a);
    free(w->b);
    free(w->c);
    w->a = w->b = w->c = NULL;
    cz_density_free(&w->a_aux);
    cz_density_free(&w->b_input);
    cz_density_free(&w->b_aux);
    return CZ_ERR_NOMEM;
  }
  spmv(w->a, &m->a, w->inputs, m->n_inputs, w->aux);
  spmv(w->b, &m->b, w->inputs, m->n_inputs, w->aux);
  spmv(w->c, &m->c, w->inputs, m->n_inputs, w->aux);
  w->n_constraints = m->n_constraints;
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
  if (cs->kind != CZ_CS_TEST) return NULL;
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
  return cs->kind == CZ_CS_TEST && cs->err == CZ_OK && cz_cs_which_is_unsatisfied(cs, NULL) == NULL;
}

const char *cz_cs_constraint_name(const cz_cs *cs, size_t i) {
  if (cs->kind != CZ_CS_TEST || i >= cs->n_constraints) return NULL;
  return cs->names + cs->name_off[i];
}
