/* Layer: ec */
/* Vectors of Fr elements most of which are 0 or 1, packed (src/ec/
 * fr_packed.c): a witness's aux values. In a 32 GiB PoRep partition 98% of
 * the 130 M aux values are bits (SHA-256), so two bits per element and a
 * list of the others take about 0.3 GB where the plain array takes 4.2.
 *
 * Element i is 1 when bit i of `one` is set; it is others[rank(i)] when
 * bit i of `other` is set, rank(i) being the number of `other` bits below
 * i; else it is 0. At most one of the two bits is set. rank[w] holds the
 * number of `other` bits in words [0, w), so that rank(i) is
 * rank[i / 64] + popcount of the bits of word i / 64 below i. Bits at or
 * past n are zero. Values are Montgomery form, as cz_fr. Buffers are pool
 * blocks or malloc's (util/bigbuf.h); cz_fr_packed_free releases either.
 * A packed vector is plain data: threads may read one at the same time. */
#ifndef CUZK_FR_PACKED_H
#define CUZK_FR_PACKED_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/err.h"
#include "cuzk/fr.h"

typedef struct {
  size_t n, n_other;
  uint64_t *one, *other; /* n / 64 + 1 words each */
  uint32_t *rank;        /* n / 64 + 1 entries */
  cz_fr *others;         /* n_other values (at least one slot allocated) */
} cz_fr_packed;

/* Words of each bitmap (and entries of rank) for n elements. */
static inline size_t cz_fr_packed_words(size_t n) { return n / 64 + 1; }

/* 0 for an element equal to 0, 1 for 1, 2 for any other. */
static inline unsigned cz_fr_packed_class(const cz_fr_packed *v, size_t i) {
  size_t w = i >> 6;
  uint64_t bit = (uint64_t)1 << (i & 63);
  return (v->other[w] & bit) ? 2u : (unsigned)((v->one[w] & bit) != 0);
}

/* Index into others of element i, whose `other` bit is set. */
static inline size_t cz_fr_packed_rank(const cz_fr_packed *v, size_t i) {
  size_t w = i >> 6;
  uint64_t below = v->other[w] & (((uint64_t)1 << (i & 63)) - 1);
  return (size_t)v->rank[w] + (size_t)__builtin_popcountll(below);
}

/* Element i (< n) as a plain Fr. */
static inline void cz_fr_packed_get(const cz_fr_packed *v, size_t i, cz_fr *out) {
  unsigned c = cz_fr_packed_class(v, i);
  if (c == 2) *out = v->others[cz_fr_packed_rank(v, i)];
  else *out = c ? CZ_FR_ONE : CZ_FR_ZERO;
}

/* Room for n elements of which at most max_other are neither 0 nor 1:
 * zeroed bitmaps, n_other = 0 (fill the bits and others, then
 * cz_fr_packed_rank_build). CZ_ERR_NOMEM (v then owns nothing), and
 * CZ_ERR_INVALID_ARG for n or max_other of 2^32 or more. */
CZ_MUST_CHECK cz_err cz_fr_packed_alloc(cz_fr_packed *v, size_t n, size_t max_other);

/* rank[] and n_other from the `other` bitmap. */
void cz_fr_packed_rank_build(cz_fr_packed *v);

/* Packs x[0 .. n) into *v (allocated here). CZ_ERR_NOMEM, or
 * CZ_ERR_INVALID_ARG for n of 2^32 or more; *v then owns nothing. */
CZ_MUST_CHECK cz_err cz_fr_packed_from(cz_fr_packed *v, const cz_fr *x, size_t n);

/* Elements [begin, end) of v into out[0 .. end - begin). */
void cz_fr_packed_unpack(const cz_fr_packed *v, size_t begin, size_t end, cz_fr *out);

/* Equal elements (the same n and every element equal). */
bool cz_fr_packed_eq(const cz_fr_packed *x, const cz_fr_packed *y);

/* Releases the buffers and zeroes v (a zeroed v is fine). */
void cz_fr_packed_free(cz_fr_packed *v);

#endif
