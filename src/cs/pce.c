/* The compact recorded shape (cuzk's PCE): RECORD builds it row by row,
 * interning coefficients into one table as it goes; cz_cs_take_pce moves
 * it out, cz_cs_take_r1cs expands it into the full cz_r1cs. Evaluation is
 * in spmv.c. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "cs/cs_internal.h"

#define AUX_KEY_BASE ((uint64_t)CZ_VAR_AUX << 32)
#define CODE_NONE UINT32_MAX

static inline bool fr_eq_inl(const cz_fr *a, const cz_fr *b) {
  return ((a->l[0] ^ b->l[0]) | (a->l[1] ^ b->l[1]) | (a->l[2] ^ b->l[2]) | (a->l[3] ^ b->l[3])) ==
         0;
}

static inline uint64_t fr_hash(const cz_fr *c) {
  uint64_t h = c->l[0] * 0x9e3779b97f4a7c15ULL ^ c->l[1];
  h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ULL ^ c->l[2];
  h = (h ^ (h >> 32)) * 0x94d049bb133111ebULL ^ c->l[3];
  return h ^ (h >> 31);
}

/* ---- the coefficient table ------------------------------------------ */

static bool slots_rebuild(cz_recorder *r, size_t n_slots) {
  uint32_t *s = calloc(n_slots, sizeof *s);
  if (!s) return false;
  for (size_t k = 0; k < r->n_coeffs; k++) {
    size_t j = fr_hash(&r->coeffs[k]) & (n_slots - 1);
    while (s[j]) j = (j + 1) & (n_slots - 1);
    s[j] = (uint32_t)k + 1;
  }
  free(r->slots);
  r->slots = s;
  r->n_slots = n_slots;
  return true;
}

/* The code of c, added to the table when new; CODE_NONE when out of
 * memory. ONE and -ONE (most terms of real circuits) skip the hash. */
static inline uint32_t rec_intern(cz_recorder *r, const cz_fr *c) {
  if (fr_eq_inl(c, &CZ_FR_ONE)) return 0;
  if (fr_eq_inl(c, &r->minus_one)) return 1;
  size_t mask = r->n_slots - 1, j = fr_hash(c) & mask;
  for (; r->slots[j]; j = (j + 1) & mask) {
    uint32_t k = r->slots[j] - 1;
    if (fr_eq_inl(&r->coeffs[k], c)) return k;
  }
  /* Codes stay below 2^32 - 1: a table that large would not fit anyway. */
  if (r->n_coeffs >= CODE_NONE - 1 ||
      !cz_grow((void **)&r->coeffs, &r->cap_coeffs, r->n_coeffs + 1, sizeof(cz_fr)))
    return CODE_NONE;
  uint32_t k = (uint32_t)r->n_coeffs++;
  r->coeffs[k] = *c;
  r->slots[j] = k + 1;
  /* Keep the load at most 1/2 so probes stay short. */
  if (2 * r->n_coeffs > r->n_slots && !slots_rebuild(r, 2 * r->n_slots)) {
    r->n_coeffs--;
    return CODE_NONE;
  }
  return k;
}

bool cz_rec_init(cz_recorder *r) {
  memset(r, 0, sizeof *r);
  cz_fr_neg(&r->minus_one, &CZ_FR_ONE);
  if (!cz_grow((void **)&r->coeffs, &r->cap_coeffs, 16, sizeof(cz_fr))) return false;
  r->coeffs[0] = CZ_FR_ONE;
  r->coeffs[1] = r->minus_one;
  r->n_coeffs = 2;
  if (!slots_rebuild(r, 64)) return false;
  for (int i = 0; i < 3; i++) {
    if (!cz_grow((void **)&r->m[i].ptr, &r->m[i].cap_ptr, 1024, sizeof(uint32_t))) return false;
    r->m[i].ptr[0] = 0;
  }
  return true;
}

void cz_rec_free(cz_recorder *r) {
  for (int i = 0; i < 3; i++) {
    free(r->m[i].ptr);
    free(r->m[i].col);
    free(r->m[i].code);
  }
  free(r->coeffs);
  free(r->slots);
  memset(r, 0, sizeof *r);
}

bool cz_rec_push_row(cz_recorder *r, int mi, const cz_lc *lc, bool *overflow) {
  cz_rec_mat *m = &r->m[mi];
  size_t n = m->n, len = lc->len;
  if (len > UINT32_MAX - n) {
    *overflow = true;
    return false;
  }
  if (n + len > m->cap) {
    size_t c1 = m->cap, c2 = m->cap;
    if (!cz_grow((void **)&m->col, &c1, n + len, sizeof(uint32_t)) ||
        !cz_grow((void **)&m->code, &c2, n + len, sizeof(uint32_t)))
      return false;
    m->cap = c1;
  }
  if (m->rows + 2 > m->cap_ptr &&
      !cz_grow((void **)&m->ptr, &m->cap_ptr, m->rows + 2, sizeof(uint32_t)))
    return false;
  for (size_t i = 0; i < len; i++) {
    const cz_lc_term *t = &lc->t[i];
    if (fr_is_zero_inl(&t->coeff)) continue; /* nothing to M * w, nor to densities */
    uint32_t code = rec_intern(r, &t->coeff);
    if (code == CODE_NONE) return false;
    uint64_t k = t->key;
    /* Indices are below 2^31 (alloc refuses more under RECORD). */
    m->col[n] = k < AUX_KEY_BASE ? (uint32_t)k | REC_INPUT_BIT : (uint32_t)(k - AUX_KEY_BASE);
    m->code[n] = code;
    n++;
  }
  m->n = n;
  m->ptr[++m->rows] = (uint32_t)n;
  return true;
}

/* ---- cz_pce --------------------------------------------------------- */

void cz_pce_free(cz_pce *p) {
  if (!p) return;
  if (p->map) {
    munmap(p->map, p->map_len);
    free(p);
    return;
  }
  for (int i = 0; i < 3; i++) {
    free(p->m[i].ptr);
    free(p->m[i].idx);
    free(p->m[i].code);
  }
  free(p->coeffs);
  cz_density_free(&p->a_aux);
  cz_density_free(&p->b_input);
  cz_density_free(&p->b_aux);
  free(p);
}

static size_t dens_bytes(const cz_density *d) { return (d->n / 64 + 1) * sizeof(uint64_t); }

void cz_pce_get_info(const cz_pce *p, cz_pce_info *out) {
  memset(out, 0, sizeof *out);
  const cz_pce_tiling *t = &p->tile;
  out->n_inputs = t->n_slots ? t->hdr_in + t->n_slots * t->per_in : p->n_inputs;
  out->n_aux = t->n_slots ? t->hdr_aux + t->n_slots * t->per_aux : p->n_aux;
  out->n_constraints =
      t->n_slots ? t->hdr_rows + t->n_slots * t->per_rows + out->n_inputs : p->n_constraints;
  out->n_slots = t->n_slots;
  out->n_coeffs = p->n_coeffs;
  out->code_bytes = p->code_bytes;
  size_t b = sizeof *p + p->n_coeffs * sizeof(cz_fr) + dens_bytes(&p->a_aux) +
             dens_bytes(&p->b_input) + dens_bytes(&p->b_aux);
  for (int i = 0; i < 2; i++) {
    out->nnz[i] = p->m[i].nnz;
    b += (p->n_constraints + 1) * sizeof(uint32_t) + p->m[i].nnz * (4 + p->code_bytes);
  }
  out->bytes = b;
}

static bool dens_new(cz_density *d, size_t n) {
  d->n = n;
  d->count = 0;
  d->bits = calloc(n / 64 + 1, sizeof(uint64_t));
  return d->bits != NULL;
}

static inline void dens_set(cz_density *d, size_t i) {
  uint64_t bit = (uint64_t)1 << (i & 63);
  if (!(d->bits[i >> 6] & bit)) {
    d->bits[i >> 6] |= bit;
    d->count++;
  }
}

/* Shrink a buffer to n elements (never fails: keeps the old one). */
static void *shrink(void *p, size_t n, size_t elem) {
  void *q = realloc(p, (n ? n : 1) * elem);
  return q ? q : p;
}

/* Codes of the three matrices (uint32_t, moved in) to the final width:
 * 16 bits while the table allows. */
static bool set_codes(cz_pce *p, uint32_t *codes[3]) {
  p->code_bytes = p->n_coeffs <= 65536 ? 2 : 4;
  for (int i = 0; i < 3; i++) {
    if (!codes[i]) continue;
    size_t n = p->m[i].nnz;
    if (p->code_bytes == 4) {
      p->m[i].code = shrink(codes[i], n, sizeof(uint32_t));
      codes[i] = NULL;
      continue;
    }
    uint16_t *c16 = malloc((n ? n : 1) * sizeof *c16);
    if (!c16) return false;
    for (size_t k = 0; k < n; k++) c16[k] = (uint16_t)codes[i][k];
    free(codes[i]);
    codes[i] = NULL;
    p->m[i].code = c16;
  }
  return true;
}

/* The densities as PROVE counts them: columns with an entry in A (aux),
 * in B (inputs and aux). Zero coefficients were never stored. */
static bool pce_densities(cz_pce *p) {
  if (!dens_new(&p->a_aux, p->n_aux) || !dens_new(&p->b_input, p->n_inputs) ||
      !dens_new(&p->b_aux, p->n_aux))
    return false;
  size_t ni = p->n_inputs;
  for (size_t k = 0; k < p->m[0].nnz; k++)
    if (p->m[0].idx[k] >= ni) dens_set(&p->a_aux, p->m[0].idx[k] - ni);
  for (size_t k = 0; k < p->m[1].nnz; k++) {
    uint32_t c = p->m[1].idx[k];
    if (c >= ni) dens_set(&p->b_aux, c - ni);
    else dens_set(&p->b_input, c);
  }
  return true;
}

/* Matrix i of the recorder, rows [0, rows), into p->m[i] with the final
 * numbering (inputs, then aux) of a system of n_in inputs; *codes gets its
 * codes (u32, moved). False: a column past n_in inputs or n_aux aux. */
static bool take_rows(cz_pce_mat *d, uint32_t **codes, cz_rec_mat *m, size_t rows, size_t n_in,
                      size_t n_aux) {
  size_t nnz = m->ptr[rows];
  uint32_t bad = 0;
  for (size_t k = 0; k < nnz; k++) {
    uint32_t c = m->col[k];
    bad |= c & REC_INPUT_BIT ? (c & ~REC_INPUT_BIT) >= n_in : c >= n_aux;
    m->col[k] = c & REC_INPUT_BIT ? c & ~REC_INPUT_BIT : c + (uint32_t)n_in;
  }
  d->ptr = shrink(m->ptr, rows + 1, sizeof(uint32_t));
  d->idx = shrink(m->col, nnz, sizeof(uint32_t));
  d->nnz = nnz;
  *codes = m->code;
  m->ptr = m->col = m->code = NULL;
  return !bad;
}

/* The first `rows` rows of a finished RECORD system over its first n_in
 * inputs and n_aux aux (all of it, or the header and one slot of a tiled
 * shape), C kept only for keep_c (cz_cs_take_r1cs). */
static cz_err take_pce(cz_cs *cs, size_t rows, size_t n_in, size_t n_aux, bool keep_c,
                       cz_pce **out) {
  *out = NULL;
  if (cs->mode != CZ_CS_RECORD || !cs->finished || cs->taken || cs->err) return CZ_ERR_INVALID_ARG;
  cz_pce *p = calloc(1, sizeof *p);
  if (!p) return CZ_ERR_NOMEM;
  cz_recorder *r = &cs->rec;
  p->n_inputs = n_in;
  p->n_aux = n_aux;
  p->n_constraints = rows;
  uint32_t *codes[3] = {NULL, NULL, NULL};
  bool ok = true;
  for (int i = 0; i < (keep_c ? 3 : 2); i++)
    ok &= take_rows(&p->m[i], &codes[i], &r->m[i], rows, n_in, n_aux);
  p->coeffs = shrink(r->coeffs, r->n_coeffs, sizeof(cz_fr));
  p->n_coeffs = r->n_coeffs;
  r->coeffs = NULL;
  cz_rec_free(r);
  cs->taken = true;
  cz_err e = !ok                                       ? CZ_ERR_INVALID_ARG
             : set_codes(p, codes) && pce_densities(p) ? CZ_OK
                                                       : CZ_ERR_NOMEM;
  for (int i = 0; i < 3; i++) free(codes[i]);
  if (e != CZ_OK) {
    cz_pce_free(p);
    return e;
  }
  *out = p;
  return CZ_OK;
}

cz_err cz_pce_take_tiled(cz_cs *cs, const cz_pce_tiling *t, cz_pce **out) {
  cz_err e = take_pce(cs, t->hdr_rows + t->per_rows, t->hdr_in + t->per_in, t->hdr_aux + t->per_aux,
                      false, out);
  if (e == CZ_OK) (*out)->tile = *t;
  return e;
}

cz_err cz_cs_take_pce(cz_cs *cs, cz_pce **out) {
  return take_pce(cs, cs->n_constraints, cs->n_inputs, cs->n_aux, false, out);
}

static inline uint32_t code_at(const cz_pce *p, const cz_pce_mat *m, size_t k) {
  return p->code_bytes == 2 ? ((const uint16_t *)m->code)[k] : ((const uint32_t *)m->code)[k];
}

/* RECORD's cz_r1cs is the compact form expanded: offsets to 64 bits, every
 * entry's coefficient written out. */
cz_err cz_cs_take_r1cs(cz_cs *cs, cz_r1cs *out) {
  memset(out, 0, sizeof *out);
  cz_pce *p;
  cz_err e = take_pce(cs, cs->n_constraints, cs->n_inputs, cs->n_aux, true, &p);
  if (e) return e;
  out->n_inputs = p->n_inputs;
  out->n_aux = p->n_aux;
  out->n_constraints = p->n_constraints;
  cz_spmat *dst[3] = {&out->a, &out->b, &out->c};
  bool ok = true;
  for (int i = 0; i < 3 && ok; i++) {
    cz_pce_mat *m = &p->m[i];
    cz_spmat *s = dst[i];
    s->n_major = p->n_constraints;
    s->n_minor = p->n_inputs + p->n_aux;
    s->ptr = malloc((p->n_constraints + 1) * sizeof *s->ptr);
    s->val = malloc((m->nnz ? m->nnz : 1) * sizeof *s->val);
    if (!(ok = s->ptr && s->val)) break;
    for (size_t r = 0; r <= p->n_constraints; r++) s->ptr[r] = m->ptr[r];
    for (size_t k = 0; k < m->nnz; k++) s->val[k] = p->coeffs[code_at(p, m, k)];
    s->idx = m->idx; /* same columns */
    m->idx = NULL;
  }
  if (ok) {
    out->a_aux = p->a_aux;
    out->b_input = p->b_input;
    out->b_aux = p->b_aux;
    memset(&p->a_aux, 0, sizeof p->a_aux);
    memset(&p->b_input, 0, sizeof p->b_input);
    memset(&p->b_aux, 0, sizeof p->b_aux);
  }
  cz_pce_free(p);
  if (!ok) {
    cz_r1cs_free(out);
    return CZ_ERR_NOMEM;
  }
  return CZ_OK;
}

static bool dens_copy(cz_density *dst, const cz_density *src) {
  size_t words = src->n / 64 + 1;
  dst->bits = malloc(words * sizeof(uint64_t));
  if (!dst->bits) return false;
  if (src->bits) memcpy(dst->bits, src->bits, words * sizeof(uint64_t));
  else memset(dst->bits, 0, words * sizeof(uint64_t));
  dst->n = src->n;
  dst->count = src->count;
  return true;
}

cz_err cz_pce_from_r1cs(const cz_r1cs *m, cz_pce **out) {
  *out = NULL;
  size_t n_cols = m->n_inputs + m->n_aux, rows = m->n_constraints;
  if (n_cols > UINT32_MAX) return CZ_ERR_INVALID_ARG;
  const cz_spmat *src[3] = {&m->a, &m->b, &m->c};
  for (int i = 0; i < 3; i++) {
    const cz_spmat *s = src[i];
    if (s->n_major != rows || !s->ptr || s->ptr[0] != 0 || s->ptr[rows] > UINT32_MAX)
      return CZ_ERR_INVALID_ARG;
    for (size_t r = 0; r < rows; r++)
      if (s->ptr[r + 1] < s->ptr[r]) return CZ_ERR_INVALID_ARG;
    for (uint64_t k = 0; k < s->ptr[rows]; k++)
      if (s->idx[k] >= n_cols) return CZ_ERR_INVALID_ARG;
  }
  cz_pce *p = calloc(1, sizeof *p);
  cz_recorder r;
  if (!p) return CZ_ERR_NOMEM;
  bool ok = cz_rec_init(&r);
  p->n_inputs = m->n_inputs;
  p->n_aux = m->n_aux;
  p->n_constraints = rows;
  uint32_t *codes[3] = {NULL, NULL, NULL};
  for (int i = 0; i < 2 && ok; i++) { /* C is not kept (c = a * b) */
    const cz_spmat *s = src[i];
    size_t nnz = (size_t)s->ptr[rows];
    cz_pce_mat *d = &p->m[i];
    d->ptr = malloc((rows + 1) * sizeof *d->ptr);
    d->idx = malloc((nnz ? nnz : 1) * sizeof *d->idx);
    codes[i] = malloc((nnz ? nnz : 1) * sizeof(uint32_t));
    if (!(ok = d->ptr && d->idx && codes[i])) break;
    size_t n = 0;
    d->ptr[0] = 0;
    for (size_t row = 0; row < rows && ok; row++) {
      for (uint64_t k = s->ptr[row]; k < s->ptr[row + 1]; k++) {
        if (fr_is_zero_inl(&s->val[k])) continue;
        uint32_t code = rec_intern(&r, &s->val[k]);
        if (!(ok = code != CODE_NONE)) break;
        d->idx[n] = s->idx[k];
        codes[i][n++] = code;
      }
      d->ptr[row + 1] = (uint32_t)n;
    }
    d->nnz = n;
    d->idx = shrink(d->idx, n, sizeof *d->idx);
  }
  if (ok) {
    p->coeffs = shrink(r.coeffs, r.n_coeffs, sizeof(cz_fr));
    p->n_coeffs = r.n_coeffs;
    r.coeffs = NULL;
    ok = set_codes(p, codes) && dens_copy(&p->a_aux, &m->a_aux) &&
         dens_copy(&p->b_input, &m->b_input) && dens_copy(&p->b_aux, &m->b_aux);
  }
  cz_rec_free(&r);
  for (int i = 0; i < 3; i++) free(codes[i]);
  if (!ok) {
    cz_pce_free(p);
    return CZ_ERR_NOMEM;
  }
  *out = p;
  return CZ_OK;
}
