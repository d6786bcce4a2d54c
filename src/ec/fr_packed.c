/* Packed Fr vectors (cuzk/fr_packed.h). */
#include "cuzk/fr_packed.h"
#include <string.h>
#include "util/bigbuf.h"

cz_err cz_fr_packed_alloc(cz_fr_packed *v, size_t n, size_t max_other) {
  memset(v, 0, sizeof *v);
  if (n > UINT32_MAX || max_other > UINT32_MAX) return CZ_ERR_INVALID_ARG;
  size_t words = cz_fr_packed_words(n);
  v->n = n;
  v->one = cz_pool_take(words * sizeof *v->one);
  v->other = cz_pool_take(words * sizeof *v->other);
  v->rank = cz_pool_take(words * sizeof *v->rank);
  v->others = cz_pool_take((max_other ? max_other : 1) * sizeof *v->others);
  if (!v->one || !v->other || !v->rank || !v->others) {
    cz_fr_packed_free(v);
    return CZ_ERR_NOMEM;
  }
  memset(v->one, 0, words * sizeof *v->one);
  memset(v->other, 0, words * sizeof *v->other);
  return CZ_OK;
}

void cz_fr_packed_rank_build(cz_fr_packed *v) {
  size_t words = cz_fr_packed_words(v->n), r = 0;
  for (size_t w = 0; w < words; w++) {
    v->rank[w] = (uint32_t)r;
    r += (size_t)__builtin_popcountll(v->other[w]);
  }
  v->n_other = r;
}

/* Montgomery 0 and 1 compare directly (elements are fully reduced). */
static unsigned class_of(const cz_fr *x) {
  uint64_t z = x->l[0] | x->l[1] | x->l[2] | x->l[3];
  uint64_t o = (x->l[0] ^ CZ_FR_ONE.l[0]) | (x->l[1] ^ CZ_FR_ONE.l[1]) |
               (x->l[2] ^ CZ_FR_ONE.l[2]) | (x->l[3] ^ CZ_FR_ONE.l[3]);
  return z == 0 ? 0u : o == 0 ? 1u : 2u;
}

cz_err cz_fr_packed_from(cz_fr_packed *v, const cz_fr *x, size_t n) {
  size_t n_other = 0;
  for (size_t i = 0; i < n; i++) n_other += class_of(&x[i]) == 2;
  cz_err e = cz_fr_packed_alloc(v, n, n_other);
  if (e != CZ_OK) return e;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned c = class_of(&x[i]);
    uint64_t bit = (uint64_t)1 << (i & 63);
    if (c == 2) {
      v->other[i >> 6] |= bit;
      v->others[k++] = x[i];
    } else if (c == 1) {
      v->one[i >> 6] |= bit;
    }
  }
  cz_fr_packed_rank_build(v);
  return CZ_OK;
}

void cz_fr_packed_unpack(const cz_fr_packed *v, size_t begin, size_t end, cz_fr *out) {
  if (begin >= end) return;
  size_t k = cz_fr_packed_rank(v, begin);
  for (size_t i = begin; i < end; i++) {
    unsigned c = cz_fr_packed_class(v, i);
    if (c == 2) out[i - begin] = v->others[k++];
    else out[i - begin] = c ? CZ_FR_ONE : CZ_FR_ZERO;
  }
}

bool cz_fr_packed_eq(const cz_fr_packed *x, const cz_fr_packed *y) {
  if (x->n != y->n || x->n_other != y->n_other) return false;
  size_t words = cz_fr_packed_words(x->n);
  return !memcmp(x->one, y->one, words * sizeof *x->one) &&
         !memcmp(x->other, y->other, words * sizeof *x->other) &&
         !memcmp(x->others, y->others, x->n_other * sizeof *x->others);
}

void cz_fr_packed_free(cz_fr_packed *v) {
  cz_pool_give(v->one);
  cz_pool_give(v->other);
  cz_pool_give(v->rank);
  cz_pool_give(v->others);
  memset(v, 0, sizeof *v);
}
