/* The constraint system: allocation, namespaces and enforce for every
 * backend. enforce dispatches on the mode with one switch (a well-predicted
 * branch: the mode never changes during a run). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cs/cs_internal.h"

#define AUX_KEY_BASE ((uint64_t)CZ_VAR_AUX << 32)

void cz_cs_fail(cz_cs *cs, cz_err e, const char *fmt, ...) {
  if (cs->err != CZ_OK) return;
  cs->err = e;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(cs->errmsg, sizeof cs->errmsg, fmt, ap);
  va_end(ap);
}

static bool dens_add(cz_dens_buf *b) {
  size_t i = b->d.n;
  if ((i >> 6) >= b->cap_words) {
    size_t old = b->cap_words;
    if (!cz_grow((void **)&b->d.bits, &b->cap_words, (i >> 6) + 1, sizeof(uint64_t))) return false;
    memset(b->d.bits + old, 0, (b->cap_words - old) * sizeof(uint64_t));
  }
  b->d.n = i + 1;
  return true;
}

static inline void dens_inc(cz_dens_buf *b, uint64_t i) {
  uint64_t *w = &b->d.bits[i >> 6], bit = (*w >> (i & 63)) & 1;
  *w |= (uint64_t)1 << (i & 63);
  b->d.count += bit ^ 1; /* no branch: whether a bit is new is data */
}

cz_cs *cz_cs_new(cz_cs_mode mode, const cz_cs_config *cfg) {
  if ((unsigned)mode >= CZ_CS_MODE_COUNT) return NULL;
  /* Default layout by measurement (cuzk-bench cs, prove backend): inline:4
   * beat vec by 1.29x on 1-term constraints and 1.15x on 9-term ones, with
   * none of the arena's pinning caveat. */
  cz_cs_config c = {CZ_LC_INLINE, 4, 0, 0};
  if (cfg) c = *cfg;
  if ((unsigned)c.lc_layout > CZ_LC_ARENA) return NULL;
  if (c.lc_layout == CZ_LC_INLINE && (c.lc_inline_n < 1 || c.lc_inline_n > CZ_LC_INLINE_MAX))
    return NULL;
  cz_cs *cs = calloc(1, sizeof *cs);
  if (!cs) return NULL;
  cs->mode = mode;
  cs->cfg = c;
  cs->want_values = mode == CZ_CS_PROVE || mode == CZ_CS_TEST || mode == CZ_CS_WITNESS;
  cs->want_names = mode == CZ_CS_TEST;
  cz_two_256_mod_r(cs->two_256_mod_r);
  bool ok = true;
  /* A right hint means no buffer ever moves (a/b/c get the H domain's room). */
  if (mode == CZ_CS_PROVE && c.hint_constraints) {
    ok = cz_reserve((void **)&cs->a, &cs->cap_abc, cz_abc_room(c.hint_constraints), sizeof(cz_fr));
    size_t cap = 0;
    ok = ok && cz_reserve((void **)&cs->b, &cap, cs->cap_abc, sizeof(cz_fr));
  }
  if (cs->want_values && c.hint_aux)
    ok = ok && cz_reserve((void **)&cs->aux, &cs->cap_aux, c.hint_aux, sizeof(cz_fr));
  if (mode == CZ_CS_PROVE && c.hint_aux)
    ok = ok && cz_reserve((void **)&cs->cls_aux, &cs->cap_cls_aux, c.hint_aux, 1);
  if (mode == CZ_CS_RECORD) ok = ok && cz_rec_init(&cs->rec);
  if (!ok) {
    cz_cs_free(cs);
    return NULL;
  }
  cz_var one;
  if (cz_cs_alloc_input(cs, &one, &CZ_FR_ONE) != CZ_OK) {
    cz_cs_free(cs);
    return NULL;
  }
  return cs;
}

static void triplets_free(cz_triplets *t) {
  free(t->key);
  free(t->row);
  free(t->val);
  memset(t, 0, sizeof *t);
}

void cz_cs_free(cz_cs *cs) {
  if (!cs) return;
  /* Big arrays may be pool blocks (cs_slots.c); give() frees the rest. */
  void *const big[] = {
      cs->inputs,         cs->aux,         cs->a, cs->b, cs->cls_in, cs->cls_aux, cs->a_aux.d.bits,
      cs->b_input.d.bits, cs->b_aux.d.bits};
  for (size_t i = 0; i < sizeof big / sizeof *big; i++) cz_pool_give(big[i]);
  for (int i = 0; i < 3; i++) triplets_free(&cs->mat[i]);
  cz_rec_free(&cs->rec);
  cz_qap_state_free(cs->qap);
  free(cs->tterms);
  free(cs->toff);
  free(cs->names);
  free(cs->name_off);
  free(cs->ns_path);
  free(cs->ns_marks);
  free(cs->path_set);
  cz_arena_destroy(&cs->arena);
  free(cs);
}

cz_cs_mode cz_cs_get_mode(const cz_cs *cs) { return cs->mode; }
bool cz_cs_needs_constraints(const cz_cs *cs) {
  return cs->mode != CZ_CS_WITNESS && cs->mode != CZ_CS_COUNT;
}
bool cz_cs_needs_values(const cz_cs *cs) { return cs->want_values; }
size_t cz_cs_num_inputs(const cz_cs *cs) { return cs->n_inputs; }
size_t cz_cs_num_aux(const cz_cs *cs) { return cs->n_aux; }
size_t cz_cs_num_constraints(const cz_cs *cs) { return cs->n_constraints; }
cz_err cz_cs_error(const cz_cs *cs) { return cs->err; }
const char *cz_cs_errmsg(const cz_cs *cs) { return cs->errmsg; }

/* ---- allocation ----------------------------------------------------- */

static cz_err alloc_common(cz_cs *cs, cz_var *out, const cz_fr *value, bool input) {
  size_t *n = input ? &cs->n_inputs : &cs->n_aux;
  *out = input ? cz_var_input((uint32_t)*n) : cz_var_aux((uint32_t)*n);
  if (cs->err) return cs->err;
  if (cs->finished) {
    cz_cs_fail(cs, CZ_ERR_INVALID_ARG, "alloc after finish");
    return cs->err;
  }
  /* RECORD keeps a role bit in its 32-bit columns (cz_rec_mat). */
  if (*n >= (cs->mode == CZ_CS_RECORD ? (size_t)REC_INPUT_BIT : (size_t)UINT32_MAX)) {
    cz_cs_fail(cs, CZ_ERR_INVALID_ARG, "too many %s variables", input ? "input" : "aux");
    return cs->err;
  }
  if (cs->want_values) {
    if (!value) {
      cz_cs_fail(cs, CZ_ERR_INVALID_ARG, "assignment missing for %s %zu", input ? "input" : "aux",
                 *n);
      return cs->err;
    }
    cz_fr **vals = input ? &cs->inputs : &cs->aux;
    size_t *cap = input ? &cs->cap_inputs : &cs->cap_aux;
    if (*n >= *cap && !cz_grow((void **)vals, cap, *n + 1, sizeof(cz_fr))) goto nomem;
    (*vals)[*n] = *value;
  }
  if (cs->mode == CZ_CS_PROVE) {
    if (input ? !dens_add(&cs->b_input) : !(dens_add(&cs->a_aux) && dens_add(&cs->b_aux)))
      goto nomem;
    uint8_t **cls = input ? &cs->cls_in : &cs->cls_aux;
    size_t *cap = input ? &cs->cap_cls_in : &cs->cap_cls_aux;
    if (*n >= *cap && !cz_grow((void **)cls, cap, *n + 1, 1)) goto nomem;
    (*cls)[*n] = cz_fr_class(value);
  }
  (*n)++;
  return CZ_OK;
nomem:
  cz_cs_fail(cs, CZ_ERR_NOMEM, "out of memory allocating a variable");
  return cs->err;
}

cz_err cz_cs_alloc(cz_cs *cs, cz_var *out, const cz_fr *value) {
  return alloc_common(cs, out, value, false);
}

cz_err cz_cs_alloc_input(cz_cs *cs, cz_var *out, const cz_fr *value) {
  return alloc_common(cs, out, value, true);
}

bool cz_cs_value(const cz_cs *cs, cz_var v, cz_fr *out) {
  if (v.role == CZ_VAR_INPUT && v.index < cs->n_inputs && cs->inputs) *out = cs->inputs[v.index];
  else if (v.role == CZ_VAR_AUX && v.index < cs->n_aux && cs->aux) *out = cs->aux[v.index];
  else return false;
  return true;
}

bool cz_cs_set_value(cz_cs *cs, cz_var v, const cz_fr *value) {
  if (cs->mode != CZ_CS_TEST && cs->mode != CZ_CS_WITNESS) return false;
  if (v.role == CZ_VAR_INPUT && v.index < cs->n_inputs && cs->inputs) cs->inputs[v.index] = *value;
  else if (v.role == CZ_VAR_AUX && v.index < cs->n_aux && cs->aux) cs->aux[v.index] = *value;
  else return false;
  return true;
}

/* ---- namespaces ----------------------------------------------------- */

/* Append a formatted component to ns_path (with a '/' separator when not
 * at the root). Returns false on error (sticky error set). */
static bool path_append(cz_cs *cs, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int len = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (len < 0) {
    cz_cs_fail(cs, CZ_ERR_INVALID_ARG, "bad name format");
    return false;
  }
  size_t start = cs->ns_len + (cs->ns_len ? 1 : 0);
  if (!cz_grow((void **)&cs->ns_path, &cs->ns_cap, start + (size_t)len + 1, 1)) {
    cz_cs_fail(cs, CZ_ERR_NOMEM, "out of memory in a name");
    return false;
  }
  if (cs->ns_len) cs->ns_path[cs->ns_len] = '/';
  vsnprintf(cs->ns_path + start, (size_t)len + 1, fmt, ap);
  if (memchr(cs->ns_path + start, '/', (size_t)len)) {
    cs->ns_path[cs->ns_len] = 0;
    cz_cs_fail(cs, CZ_ERR_INVALID_ARG, "'/' is not allowed in names");
    return false;
  }
  cs->ns_len = start + (size_t)len;
  return true;
}

/* Register the current ns_path as a named object (TEST only); a path seen
 * before is an error, as bellpepper's set_named_obj panics on it. Hashes
 * stand for paths: a false duplicate needs a 64-bit collision. */
static bool path_register(cz_cs *cs) {
  uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
  for (size_t i = 0; i < cs->ns_len; i++) h = (h ^ (uint8_t)cs->ns_path[i]) * 0x100000001b3ULL;
  if (h == 0) h = 1;
  if (2 * (cs->path_set_n + 1) > cs->path_set_cap) {
    size_t ncap = cs->path_set_cap ? 2 * cs->path_set_cap : 1024;
    uint64_t *t = calloc(ncap, sizeof *t);
    if (!t) {
      cz_cs_fail(cs, CZ_ERR_NOMEM, "out of memory registering a name");
      return false;
    }
    for (size_t i = 0; i < cs->path_set_cap; i++) {
      uint64_t k = cs->path_set[i];
      if (!k) continue;
      size_t j = (size_t)(k * 0x9e3779b97f4a7c15ULL >> 20) & (ncap - 1);
      while (t[j]) j = (j + 1) & (ncap - 1);
      t[j] = k;
    }
    free(cs->path_set);
    cs->path_set = t;
    cs->path_set_cap = ncap;
  }
  size_t mask = cs->path_set_cap - 1, j = (size_t)(h * 0x9e3779b97f4a7c15ULL >> 20) & mask;
  for (; cs->path_set[j]; j = (j + 1) & mask) {
    if (cs->path_set[j] == h) {
      cz_cs_fail(cs, CZ_ERR_INVALID_ARG, "name already used: %s", cs->ns_path);
      return false;
    }
  }
  cs->path_set[j] = h;
  cs->path_set_n++;
  return true;
}

static bool path_append_v(cz_cs *cs, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  bool ok = path_append(cs, fmt, ap);
  va_end(ap);
  return ok;
}

static bool path_append_str(cz_cs *cs, const char *s) { return path_append_v(cs, "%s", s); }

void cz_cs_push_ns(cz_cs *cs, const char *fmt, ...) {
  cs->ns_depth++;
  if (!cs->want_names || cs->err) return;
  if (!cz_grow((void **)&cs->ns_marks, &cs->ns_marks_cap, cs->ns_depth, sizeof(size_t))) {
    cz_cs_fail(cs, CZ_ERR_NOMEM, "out of memory in a namespace");
    return;
  }
  cs->ns_marks[cs->ns_depth - 1] = cs->ns_len;
  va_list ap;
  va_start(ap, fmt);
  if (path_append(cs, fmt, ap)) path_register(cs);
  va_end(ap);
}

void cz_cs_push_ns_anon(cz_cs *cs) {
  cs->ns_depth++;
  if (!cs->want_names || cs->err) return;
  if (!cz_grow((void **)&cs->ns_marks, &cs->ns_marks_cap, cs->ns_depth, sizeof(size_t))) {
    cz_cs_fail(cs, CZ_ERR_NOMEM, "out of memory in a namespace");
    return;
  }
  cs->ns_marks[cs->ns_depth - 1] = cs->ns_len; /* pop restores the same path */
}

void cz_cs_pop_ns(cz_cs *cs) {
  if (cs->ns_depth == 0) {
    cz_cs_fail(cs, CZ_ERR_INVALID_ARG, "pop_ns without push_ns");
    return;
  }
  cs->ns_depth--;
  if (!cs->want_names || cs->err) return;
  cs->ns_len = cs->ns_marks[cs->ns_depth];
  if (cs->ns_path) cs->ns_path[cs->ns_len] = 0;
}

/* ---- enforce -------------------------------------------------------- */

/* PROVE: evaluate one LC as bellperson's eval_with_trackers: zero
 * coefficients are skipped (no value, no density). The sum is lazy (320
 * bits, one reduction at the end), and most terms multiply nothing: a
 * value of class 0 or 1 (most of a circuit's values are bits) adds the
 * coefficient masked by its class without loading the value; other values
 * with coefficient one are added as they are. Exact arithmetic and a
 * canonical end: the same result bit for bit as summing coefficient *
 * value term by term. din / daux may be NULL. */
static inline bool prove_eval(cz_cs *cs, cz_fr *out, const cz_lc *lc, cz_dens_buf *din,
                              cz_dens_buf *daux) {
  uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0;
  const uint64_t n_in = cs->n_inputs, n_aux = cs->n_aux;
  const cz_lc_term *t = lc->t, *end = t + lc->len;
  const uint8_t *cls_in = cs->cls_in, *cls_aux = cs->cls_aux;
  for (; t < end; t++) {
    uint64_t k = t->key;
    unsigned cls;
    const cz_fr *x;
    if (k < n_in) {
      if (fr_is_zero_inl(&t->coeff)) continue;
      cls = cls_in[k];
      x = &cs->inputs[k];
      if (din) dens_inc(din, k);
    } else if (k - AUX_KEY_BASE < n_aux) {
      if (fr_is_zero_inl(&t->coeff)) continue;
      k -= AUX_KEY_BASE;
      cls = cls_aux[k];
      x = &cs->aux[k];
      if (daux) dens_inc(daux, k);
    } else {
      return false;
    }
    if (__builtin_expect(cls != CZ_CLS_OTHER, 1)) {
      CZ_ACC_ADD(a0, a1, a2, a3, a4, t->coeff.l, 0 - (uint64_t)cls);
    } else if (fr_is_one_inl(&t->coeff)) {
      CZ_ACC_ADD(a0, a1, a2, a3, a4, x->l, ~(uint64_t)0);
    } else {
      cz_fr tmp;
      cz_fr_mul(&tmp, &t->coeff, x);
      CZ_ACC_ADD(a0, a1, a2, a3, a4, tmp.l, ~(uint64_t)0);
    }
  }
  cz_acc_store(out, a0, a1, a2, a3, a4, cs->two_256_mod_r);
  return true;
}

/* PROVE with a known value: the density bits prove_eval would set (terms
 * with nonzero coefficients), and the range check, without evaluating. */
static bool prove_mark(cz_cs *cs, const cz_lc *lc, cz_dens_buf *din, cz_dens_buf *daux) {
  const uint64_t n_in = cs->n_inputs, n_aux = cs->n_aux;
  for (const cz_lc_term *t = lc->t, *end = t + lc->len; t < end; t++) {
    uint64_t k = t->key;
    if (k < n_in) {
      if (din && !fr_is_zero_inl(&t->coeff)) dens_inc(din, k);
    } else if (k - AUX_KEY_BASE < n_aux) {
      if (daux && !fr_is_zero_inl(&t->coeff)) dens_inc(daux, k - AUX_KEY_BASE);
    } else {
      return false;
    }
  }
  return true;
}

static bool lc_in_range(const cz_cs *cs, const cz_lc *lc) {
  for (uint32_t i = 0; i < lc->len; i++) {
    uint64_t k = lc->t[i].key;
    if (!(k < cs->n_inputs || k - AUX_KEY_BASE < cs->n_aux)) return false;
  }
  return true;
}

static bool triplets_push(cz_triplets *t, uint64_t key, uint32_t row, const cz_fr *val) {
  if (t->n == t->cap) {
    size_t c1 = t->cap, c2 = t->cap, c3 = t->cap;
    if (!cz_grow((void **)&t->key, &c1, t->n + 1, sizeof *t->key) ||
        !cz_grow((void **)&t->row, &c2, t->n + 1, sizeof *t->row) ||
        !cz_grow((void **)&t->val, &c3, t->n + 1, sizeof *t->val))
      return false;
    t->cap = c1;
  }
  t->key[t->n] = key;
  t->row[t->n] = row;
  t->val[t->n] = *val;
  t->n++;
  return true;
}

/* KEYGEN keeps every term (bellperson pushes zero coefficients too). */
static bool matrix_push(cz_cs *cs, int m, const cz_lc *lc, uint32_t row) {
  for (uint32_t i = 0; i < lc->len; i++)
    if (!triplets_push(&cs->mat[m], lc->t[i].key, row, &lc->t[i].coeff)) return false;
  return true;
}

static bool test_push_lc(cz_cs *cs, const cz_lc *lc) {
  if (!cz_grow((void **)&cs->tterms, &cs->cap_tterms, cs->n_tterms + lc->len, sizeof(cz_lc_term)))
    return false;
  if (lc->len) memcpy(cs->tterms + cs->n_tterms, lc->t, lc->len * sizeof(cz_lc_term));
  cs->n_tterms += lc->len;
  return true;
}

/* TEST: record the constraint's full name, "<path>/<name>", or
 * "<path>/#<index>" when unnamed. False: out of memory or a bad name (the
 * sticky error is set either way). */
static bool test_push_name(cz_cs *cs, const char *fmt, va_list *ap) {
  if (!cz_grow((void **)&cs->name_off, &cs->cap_name_off, cs->n_constraints + 1, sizeof(size_t))) {
    cz_cs_fail(cs, CZ_ERR_NOMEM, "out of memory at constraint %zu", cs->n_constraints);
    return false;
  }
  size_t save_len = cs->ns_len;
  char buf[32];
  if (!fmt) snprintf(buf, sizeof buf, "#%zu", cs->n_constraints);
  bool ok = fmt ? path_append(cs, fmt, *ap) : path_append_str(cs, buf);
  ok = ok && path_register(cs);
  if (ok) {
    size_t len = cs->ns_len;
    ok = cz_grow((void **)&cs->names, &cs->names_cap, cs->names_len + len + 1, 1);
    if (ok) {
      memcpy(cs->names + cs->names_len, cs->ns_path, len);
      cs->names[cs->names_len + len] = 0;
      cs->name_off[cs->n_constraints] = cs->names_len;
      cs->names_len += len + 1;
    } else {
      cz_cs_fail(cs, CZ_ERR_NOMEM, "out of memory at constraint %zu", cs->n_constraints);
    }
  }
  cs->ns_len = save_len;
  if (cs->ns_path) cs->ns_path[save_len] = 0;
  return ok;
}

/* What a mode's part of enforce_impl says: the row is kept, or why not
 * (ROW_FAILED: the system's error is set already). */
typedef enum { ROW_OK, ROW_RANGE, ROW_NOMEM, ROW_FAILED } row_result;

/* PROVE: A and B evaluated (or known), C only range-checked. */
static inline row_result enforce_prove(cz_cs *cs, size_t row, const cz_lc *a, const cz_lc *b,
                                       const cz_lc *c, const cz_fr known[2]) {
  if (row == cs->cap_abc && cs->rows_fixed) {
    cz_cs_fail(cs, CZ_ERR_INVALID_ARG, "constraint %zu: more rows than slot 0 has", row);
    return ROW_FAILED;
  }
  if (row == cs->cap_abc) {
    size_t c1 = cs->cap_abc, c2 = cs->cap_abc;
    if (!cz_grow((void **)&cs->a, &c1, row + 1, sizeof(cz_fr)) ||
        !cz_grow((void **)&cs->b, &c2, row + 1, sizeof(cz_fr)))
      return ROW_NOMEM;
    cs->cap_abc = c1;
  }
  /* A: inputs have full density thanks to the input constraints, so only
   * aux is tracked; B: both; C: none (bellperson's prover), and its value
   * is a * b (cz_assignment): not evaluated, only range-checked. */
  if (known) {
    if (!prove_mark(cs, a, NULL, &cs->a_aux) || !prove_mark(cs, b, &cs->b_input, &cs->b_aux) ||
        !lc_in_range(cs, c))
      return ROW_RANGE;
    cs->a[row] = known[0];
    cs->b[row] = known[1];
  } else if (!prove_eval(cs, &cs->a[row], a, NULL, &cs->a_aux) ||
             !prove_eval(cs, &cs->b[row], b, &cs->b_input, &cs->b_aux) || !lc_in_range(cs, c)) {
    return ROW_RANGE;
  }
  return ROW_OK;
}

/* KEYGEN (the three matrices) or RECORD (the recorded shape's rows). */
static row_result enforce_rows(cz_cs *cs, size_t row, const cz_lc *a, const cz_lc *b,
                               const cz_lc *c) {
  if (row >= UINT32_MAX) {
    cz_cs_fail(cs, CZ_ERR_INVALID_ARG, "too many constraints");
    return ROW_FAILED;
  }
  if (!lc_in_range(cs, a) || !lc_in_range(cs, b) || !lc_in_range(cs, c)) return ROW_RANGE;
  if (cs->qap) return cz_qap_push(cs, row, a, b, c) ? ROW_OK : ROW_FAILED;
  if (cs->mode == CZ_CS_KEYGEN)
    return matrix_push(cs, 0, a, (uint32_t)row) && matrix_push(cs, 1, b, (uint32_t)row) &&
                   matrix_push(cs, 2, c, (uint32_t)row)
               ? ROW_OK
               : ROW_NOMEM;
  bool overflow = false;
  if (cz_rec_push_row(&cs->rec, 0, a, &overflow) && cz_rec_push_row(&cs->rec, 1, b, &overflow) &&
      cz_rec_push_row(&cs->rec, 2, c, &overflow))
    return ROW_OK;
  if (!overflow) return ROW_NOMEM;
  cz_cs_fail(cs, CZ_ERR_INVALID_ARG, "constraint %zu: over 2^32 - 1 matrix entries", row);
  return ROW_FAILED;
}

/* TEST: the terms of each row and its name, to find the first unsatisfied. */
static row_result enforce_test(cz_cs *cs, size_t row, const cz_lc *a, const cz_lc *b,
                               const cz_lc *c, const char *fmt, va_list *ap) {
  if (!lc_in_range(cs, a) || !lc_in_range(cs, b) || !lc_in_range(cs, c)) return ROW_RANGE;
  if (!cz_grow((void **)&cs->toff, &cs->cap_toff, 3 * row + 4, sizeof(size_t))) return ROW_NOMEM;
  if (row == 0) cs->toff[0] = 0;
  if (!test_push_lc(cs, a)) return ROW_NOMEM;
  cs->toff[3 * row + 1] = cs->n_tterms;
  if (!test_push_lc(cs, b)) return ROW_NOMEM;
  cs->toff[3 * row + 2] = cs->n_tterms;
  if (!test_push_lc(cs, c)) return ROW_NOMEM;
  cs->toff[3 * row + 3] = cs->n_tterms;
  return test_push_name(cs, fmt, ap) ? ROW_OK : ROW_FAILED;
}

/* known: NULL, or the values of a and b (PROVE stores them instead of
 * evaluating). */
static void enforce_impl(cz_cs *cs, const cz_lc *a, const cz_lc *b, const cz_lc *c,
                         const cz_fr known[2], const char *fmt, va_list *ap) {
  if (cs->err) return;
  if (cs->finished) {
    cz_cs_fail(cs, CZ_ERR_INVALID_ARG, "enforce after finish");
    return;
  }
  if (a->failed || b->failed || c->failed) {
    cz_cs_fail(cs, CZ_ERR_NOMEM, "constraint %zu: a linear combination ran out of memory",
               cs->n_constraints);
    return;
  }
  size_t row = cs->n_constraints;
  row_result r = ROW_OK;
  switch (cs->mode) {
    case CZ_CS_PROVE: r = enforce_prove(cs, row, a, b, c, known); break;
    case CZ_CS_KEYGEN:
    case CZ_CS_RECORD: r = enforce_rows(cs, row, a, b, c); break;
    case CZ_CS_TEST: r = enforce_test(cs, row, a, b, c, fmt, ap); break;
    case CZ_CS_WITNESS:
    case CZ_CS_COUNT: /* the count below is all either keeps */
    default: break;
  }
  if (r == ROW_OK) cs->n_constraints = row + 1;
  else if (r == ROW_RANGE)
    cz_cs_fail(cs, CZ_ERR_INVALID_ARG, "constraint %zu uses a variable that is not allocated", row);
  else if (r == ROW_NOMEM) cz_cs_fail(cs, CZ_ERR_NOMEM, "out of memory at constraint %zu", row);
}

void cz_cs_enforce(cz_cs *cs, const cz_lc *a, const cz_lc *b, const cz_lc *c) {
  enforce_impl(cs, a, b, c, NULL, NULL, NULL);
}

void cz_cs_enforce_known(cz_cs *cs, const cz_lc *a, const cz_lc *b, const cz_lc *c,
                         const cz_fr *a_value, const cz_fr *b_value) {
  const cz_fr known[2] = {*a_value, *b_value};
  enforce_impl(cs, a, b, c, known, NULL, NULL);
}

void cz_cs_enforce_named(cz_cs *cs, const cz_lc *a, const cz_lc *b, const cz_lc *c, const char *fmt,
                         ...) {
  if (!cs->want_names) {
    enforce_impl(cs, a, b, c, NULL, NULL, NULL);
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  enforce_impl(cs, a, b, c, NULL, fmt, &ap);
  va_end(ap);
}

cz_err cz_cs_finish(cz_cs *cs) {
  if (cs->err) return cs->err;
  if (cs->finished) {
    cz_cs_fail(cs, CZ_ERR_INVALID_ARG, "finish called twice");
    return cs->err;
  }
  if (cs->ns_depth) {
    cz_cs_fail(cs, CZ_ERR_INVALID_ARG, "%zu namespace(s) still open at finish", cs->ns_depth);
    return cs->err;
  }
  if (cs->mode == CZ_CS_PROVE || cs->mode == CZ_CS_KEYGEN || cs->mode == CZ_CS_RECORD) {
    /* input_i * 0 = 0 for every input, ONE included (bellperson). */
    cz_lc a, z;
    cz_lc_init_layout(&a, CZ_LC_INLINE, 1, NULL);
    cz_lc_init_layout(&z, CZ_LC_INLINE, 1, NULL);
    for (size_t i = 0; i < cs->n_inputs && !cs->err; i++) {
      cz_lc_clear(&a);
      cz_lc_add(&a, cz_var_input((uint32_t)i));
      cz_cs_enforce(cs, &a, &z, &z);
    }
    cz_lc_free(&a);
    cz_lc_free(&z);
  }
  cs->finished = true;
  return cs->err;
}
