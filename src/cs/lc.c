/* Linear combinations: a sorted, duplicate-free term array (bellpepper-core
 * 0.2's Indexer semantics, inputs before aux) over three storage layouts.
 * Only growth and release depend on the layout, so the hot add path is the
 * same code for all three. */
#include <stdlib.h>
#include <string.h>
#include "cs/cs_internal.h"

#define ARENA_CHUNK_TERMS 4096u

/* ---- arena ---------------------------------------------------------- */

static cz_arena_chunk *chunk_new(size_t cap) {
  cz_arena_chunk *c = malloc(sizeof *c + cap * sizeof(cz_lc_term));
  if (!c) return NULL;
  c->next = NULL;
  c->cap = cap;
  c->used = 0;
  return c;
}

cz_lc_term *cz_arena_alloc(struct cz_lc_arena *ar, size_t n) {
  if (!ar->cur) {
    if (!ar->head && !(ar->head = chunk_new(n > ARENA_CHUNK_TERMS ? n : ARENA_CHUNK_TERMS)))
      return NULL;
    ar->cur = ar->head;
    ar->cur->used = 0;
  }
  cz_arena_chunk *c = ar->cur;
  if (c->cap - c->used < n) {
    /* Move on: reuse the next chunk when big enough, else splice a new one. */
    cz_arena_chunk *nx = c->next;
    if (!nx || nx->cap < n) {
      size_t cap = n > ARENA_CHUNK_TERMS ? n : ARENA_CHUNK_TERMS;
      cz_arena_chunk *fresh = chunk_new(cap);
      if (!fresh) return NULL;
      fresh->next = nx;
      c->next = fresh;
      nx = fresh;
    }
    nx->used = 0;
    ar->cur = c = nx;
  }
  cz_lc_term *p = c->mem + c->used;
  c->used += n;
  return p;
}

cz_lc_term *cz_arena_grow(struct cz_lc_arena *ar, cz_lc_term *p, size_t old, size_t n) {
  cz_arena_chunk *c = ar->cur;
  if (p && c && p + old == c->mem + c->used && c->cap - c->used >= n - old) {
    c->used += n - old; /* top of the current chunk: extend in place */
    return p;
  }
  cz_lc_term *q = cz_arena_alloc(ar, n);
  if (q && old) memcpy(q, p, old * sizeof *q);
  return q;
}

void cz_arena_reset(struct cz_lc_arena *ar) {
  ar->cur = ar->head;
  if (ar->head) ar->head->used = 0;
}

void cz_arena_destroy(struct cz_lc_arena *ar) {
  for (cz_arena_chunk *c = ar->head, *n; c; c = n) {
    n = c->next;
    free(c);
  }
  ar->head = ar->cur = NULL;
  ar->live = 0;
}

/* ---- init / free ---------------------------------------------------- */

void cz_lc_init_layout(cz_lc *lc, cz_lc_layout layout, unsigned inline_n, struct cz_cs *cs) {
  lc->len = 0;
  lc->heap = 0;
  lc->failed = 0;
  lc->pad_ = 0;
  lc->arena = NULL;
  if (layout == CZ_LC_ARENA && !cs) layout = CZ_LC_VEC;
  lc->layout = (uint8_t)layout;
  switch (layout) {
    case CZ_LC_INLINE:
      if (inline_n < 1) inline_n = 1;
      if (inline_n > CZ_LC_INLINE_MAX) inline_n = CZ_LC_INLINE_MAX;
      lc->t = lc->inl;
      lc->cap = inline_n;
      break;
    case CZ_LC_ARENA:
      lc->t = NULL;
      lc->cap = 0;
      lc->arena = &cs->arena;
      lc->arena->live++;
      break;
    default:
      lc->layout = CZ_LC_VEC;
      lc->t = NULL;
      lc->cap = 0;
      break;
  }
}

void cz_lc_init(cz_lc *lc, struct cz_cs *cs) {
  if (!cs) cz_lc_init_layout(lc, CZ_LC_VEC, 0, NULL);
  else cz_lc_init_layout(lc, cs->cfg.lc_layout, cs->cfg.lc_inline_n, cs);
}

void cz_lc_free(cz_lc *lc) {
  if (lc->heap) free(lc->t);
  if (lc->layout == CZ_LC_ARENA && lc->arena && --lc->arena->live == 0)
    cz_arena_reset(lc->arena); /* the last arena LC is gone: rewind */
  lc->t = NULL;
  lc->len = lc->cap = 0;
  lc->heap = 0;
  lc->arena = NULL;
}

void cz_lc_clear(cz_lc *lc) {
  lc->len = 0;
  lc->failed = 0;
}

/* ---- growth (cold) -------------------------------------------------- */

static bool lc_grow(cz_lc *lc, uint32_t need) {
  if (lc->failed) return false;
  uint64_t ncap = lc->cap ? (uint64_t)lc->cap * 2 : 4;
  while (ncap < need) ncap *= 2;
  if (ncap > UINT32_MAX / 2) goto fail;
  cz_lc_term *p;
  if (lc->layout == CZ_LC_ARENA) {
    p = cz_arena_grow(lc->arena, lc->t, lc->len, (size_t)ncap);
  } else if (lc->heap) {
    p = realloc(lc->t, (size_t)ncap * sizeof *p);
  } else {
    p = malloc((size_t)ncap * sizeof *p);
    if (p && lc->len) memcpy(p, lc->t, lc->len * sizeof *p);
    if (p) lc->heap = 1;
  }
  if (!p) goto fail;
  lc->t = p;
  lc->cap = (uint32_t)ncap;
  return true;
fail:
  lc->failed = 1;
  return false;
}

/* ---- the hot path --------------------------------------------------- */

/* Insert or merge (key, coeff) keeping t sorted with unique keys. The
 * common cases (append after the last key, merge into the last key) skip
 * the search, as bellpepper's last_inserted shortcut does. */
static inline void lc_insert(cz_lc *lc, uint64_t key, const cz_fr *coeff) {
  uint32_t n = lc->len;
  if (n && lc->t[n - 1].key >= key) {
    if (lc->t[n - 1].key == key) {
      cz_fr_add(&lc->t[n - 1].coeff, &lc->t[n - 1].coeff, coeff);
      return;
    }
    uint32_t lo = 0, hi = n - 1; /* the answer is in [lo, hi] */
    while (lo < hi) {
      uint32_t mid = (lo + hi) / 2;
      if (lc->t[mid].key < key) lo = mid + 1;
      else hi = mid;
    }
    if (lc->t[lo].key == key) {
      cz_fr_add(&lc->t[lo].coeff, &lc->t[lo].coeff, coeff);
      return;
    }
    if (n == lc->cap && !lc_grow(lc, n + 1)) return;
    memmove(lc->t + lo + 1, lc->t + lo, (n - lo) * sizeof *lc->t);
    lc->t[lo].key = key;
    lc->t[lo].coeff = *coeff;
    lc->len = n + 1;
    return;
  }
  if (n == lc->cap && !lc_grow(lc, n + 1)) return;
  lc->t[n].key = key;
  lc->t[n].coeff = *coeff;
  lc->len = n + 1;
}

void cz_lc_add_term(cz_lc *lc, cz_var v, const cz_fr *coeff) {
  lc_insert(lc, cz_var_key(v), coeff);
}

void cz_lc_sub_term(cz_lc *lc, cz_var v, const cz_fr *coeff) {
  cz_fr m;
  cz_fr_neg(&m, coeff);
  lc_insert(lc, cz_var_key(v), &m);
}

void cz_lc_add(cz_lc *lc, cz_var v) { lc_insert(lc, cz_var_key(v), &CZ_FR_ONE); }

void cz_lc_sub(cz_lc *lc, cz_var v) {
  cz_fr m;
  cz_fr_neg(&m, &CZ_FR_ONE);
  lc_insert(lc, cz_var_key(v), &m);
}

void cz_lc_add_const(cz_lc *lc, const cz_fr *c) { lc_insert(lc, 0, c); }

/* Terms are copied before insertion so that other may be lc itself (then
 * every key exists already and nothing moves). */
void cz_lc_add_lc(cz_lc *lc, const cz_lc *other) {
  if (other->failed) lc->failed = 1;
  for (uint32_t i = 0, n = other->len; i < n; i++) {
    cz_lc_term t = other->t[i];
    lc_insert(lc, t.key, &t.coeff);
  }
}

void cz_lc_sub_lc(cz_lc *lc, const cz_lc *other) {
  if (other->failed) lc->failed = 1;
  for (uint32_t i = 0, n = other->len; i < n; i++) {
    cz_lc_term t = other->t[i];
    cz_fr_neg(&t.coeff, &t.coeff);
    lc_insert(lc, t.key, &t.coeff);
  }
}

void cz_lc_add_scaled(cz_lc *lc, const cz_fr *coeff, const cz_lc *other) {
  if (other->failed) lc->failed = 1;
  for (uint32_t i = 0, n = other->len; i < n; i++) {
    cz_lc_term t = other->t[i];
    cz_fr_mul(&t.coeff, &t.coeff, coeff);
    lc_insert(lc, t.key, &t.coeff);
  }
}

void cz_lc_sub_scaled(cz_lc *lc, const cz_fr *coeff, const cz_lc *other) {
  if (other->failed) lc->failed = 1;
  for (uint32_t i = 0, n = other->len; i < n; i++) {
    cz_lc_term t = other->t[i];
    cz_fr_mul(&t.coeff, &t.coeff, coeff);
    cz_fr_neg(&t.coeff, &t.coeff);
    lc_insert(lc, t.key, &t.coeff);
  }
}

/* ---- many terms at once ---------------------------------------------- */

/* Sort t[0..n) by key (stable merge sort through scratch w, n terms). */
static void terms_sort(cz_lc_term *t, cz_lc_term *w, size_t n) {
  if (n <= 16) { /* insertion sort: small runs are common and mostly sorted */
    for (size_t i = 1; i < n; i++) {
      cz_lc_term x = t[i];
      size_t j = i;
      for (; j && t[j - 1].key > x.key; j--) t[j] = t[j - 1];
      t[j] = x;
    }
    return;
  }
  size_t h = n / 2;
  terms_sort(t, w, h);
  terms_sort(t + h, w, n - h);
  if (t[h - 1].key <= t[h].key) return; /* already in order */
  memcpy(w, t, h * sizeof *t);
  size_t i = 0, j = h, k = 0;
  while (i < h && j < n) t[k++] = t[j].key < w[i].key ? t[j++] : w[i++];
  while (i < h) t[k++] = w[i++];
}

void cz_lc_add_terms(cz_lc *lc, cz_lc_term *terms, size_t n) {
  if (lc->failed || n == 0) return;
  cz_lc_term stack[512], *w = stack;
  if (n / 2 + 1 > sizeof stack / sizeof *stack && !(w = malloc((n / 2 + 1) * sizeof *w))) {
    for (size_t i = 0; i < n; i++) lc_insert(lc, terms[i].key, &terms[i].coeff); /* slow, exact */
    return;
  }
  terms_sort(terms, w, n);
  if (w != stack) free(w);
  /* One term per key: sums of the duplicates (exact, so in any order). */
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (m && terms[m - 1].key == terms[i].key)
      cz_fr_add(&terms[m - 1].coeff, &terms[m - 1].coeff, &terms[i].coeff);
    else terms[m++] = terms[i];
  }
  /* Keys already in lc take their sum in place; the others are new. */
  uint32_t len = lc->len;
  size_t fresh = 0;
  for (size_t i = 0, j = 0; i < m; i++) {
    while (j < len && lc->t[j].key < terms[i].key) j++;
    if (j < len && lc->t[j].key == terms[i].key) {
      cz_fr_add(&lc->t[j].coeff, &lc->t[j].coeff, &terms[i].coeff);
      terms[i].key = UINT64_MAX; /* done (no variable has this key) */
    } else {
      fresh++;
    }
  }
  if (!fresh) return;
  if ((uint64_t)len + fresh > UINT32_MAX / 2) {
    lc->failed = 1;
    return;
  }
  if (len + fresh > lc->cap && !lc_grow(lc, (uint32_t)(len + fresh))) return;
  /* Merge the new keys in from the back: nothing moves twice. */
  size_t k = len + fresh, i = m, j = len;
  while (i > 0) {
    if (terms[i - 1].key == UINT64_MAX) {
      i--;
    } else if (j > 0 && lc->t[j - 1].key > terms[i - 1].key) {
      lc->t[--k] = lc->t[--j];
    } else {
      lc->t[--k] = terms[--i];
    }
  }
  lc->len = (uint32_t)(len + fresh);
}

void cz_lc_copy(cz_lc *dst, const cz_lc *src) {
  if (dst == src) return;
  dst->len = 0;
  dst->failed = 0;
  if (src->len > dst->cap && !lc_grow(dst, src->len)) return;
  if (src->len) memcpy(dst->t, src->t, src->len * sizeof *dst->t);
  dst->len = src->len;
  dst->failed = src->failed;
}

bool cz_lc_eval(cz_fr *out, const cz_lc *lc, const cz_fr *inputs, size_t n_inputs, const cz_fr *aux,
                size_t n_aux) {
  cz_fr acc = CZ_FR_ZERO, tmp;
  for (uint32_t i = 0; i < lc->len; i++) {
    cz_var v = cz_var_from_key(lc->t[i].key);
    const cz_fr *x;
    if (v.role == CZ_VAR_INPUT && v.index < n_inputs) x = &inputs[v.index];
    else if (v.role == CZ_VAR_AUX && v.index < n_aux) x = &aux[v.index];
    else {
      *out = CZ_FR_ZERO;
      return false;
    }
    cz_fr_mul(&tmp, &lc->t[i].coeff, x);
    cz_fr_add(&acc, &acc, &tmp);
  }
  *out = acc;
  return true;
}
