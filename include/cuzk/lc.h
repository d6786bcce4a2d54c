/* Layer: cs */
/* Variables and linear combinations of the R1CS constraint-system API
 * (src/cs/lc.c), with bellpepper-core 0.2 semantics (the
 * LinearCombination/Indexer pair used by bellperson 0.26/0.27, Filecoin's
 * prover):
 *
 *  - A variable is an input (public; input 0 is the constant ONE) or an aux
 *    (private) variable, each numbered from 0 in allocation order.
 *  - A linear combination (LC) holds at most one term per variable: adding a
 *    variable that is already present adds to its coefficient (bellpepper's
 *    Indexer::insert_or_update). A term whose coefficient sums to zero stays
 *    in the LC (bellpepper never removes entries); backends decide what a zero
 *    coefficient means (the prover's densities skip it, keygen keeps it).
 *  - Terms iterate as bellpepper's iter_inputs() then iter_aux(): inputs by
 *    ascending index, then aux by ascending index. Here that is one array
 *    sorted by the key (role << 32 | index).
 *
 * Storage: three layouts behind the same functions, chosen at run time when
 * the LC is initialised (normally from its constraint system, see cs.h):
 *  - CZ_LC_VEC:    a growable heap vector (empty LCs own no memory; the
 *                  first term allocates 4, then the capacity doubles: Rust's
 *                  Vec policy, what bellpepper does).
 *  - CZ_LC_INLINE: up to N terms (N = 1, 2 or 4) live inside the cz_lc
 *                  itself; more spill to the heap (SmallVec<[T; N]>). The
 *                  struct always has room for 4, N only moves the spill point.
 *  - CZ_LC_ARENA:  terms come from the constraint system's bump arena, which
 *                  is rewound whenever no arena LC of that system is alive
 *                  (in practice: once per constraint). An LC kept alive
 *                  across many constraints pins the arena; long-lived LCs
 *                  should use CZ_LC_VEC via cz_lc_init_layout.
 *
 * A cz_lc may point into itself: never copy one by assignment (use
 * cz_lc_copy), and release every initialised LC with cz_lc_free. Allocation
 * failure never aborts: the LC is marked failed (cz_lc_failed), its contents
 * are incomplete from then on (adds that need no room still land, the rest
 * are dropped), and enforcing a failed LC sets the constraint system's
 * sticky error. An LC holds at most 2^30 terms. In every function taking
 * two LCs, other may be lc itself. LCs are not thread-safe; one constraint
 * system per thread. */
#ifndef CUZK_LC_H
#define CUZK_LC_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/fr.h"

typedef enum { CZ_VAR_INPUT = 0, CZ_VAR_AUX = 1 } cz_var_role;

/* A variable: a small value type, compared by value. */
typedef struct {
  uint32_t index;
  uint32_t role; /* cz_var_role */
} cz_var;

/* The constant ONE: input 0, allocated by every constraint system. */
#define CZ_VAR_ONE ((cz_var){0, CZ_VAR_INPUT})

static inline cz_var cz_var_input(uint32_t i) { return (cz_var){i, CZ_VAR_INPUT}; }
static inline cz_var cz_var_aux(uint32_t i) { return (cz_var){i, CZ_VAR_AUX}; }
static inline bool cz_var_eq(cz_var a, cz_var b) { return a.index == b.index && a.role == b.role; }

/* Term keys order inputs before aux, each by index. */
static inline uint64_t cz_var_key(cz_var v) { return (uint64_t)v.role << 32 | v.index; }
static inline cz_var cz_var_from_key(uint64_t k) {
  return (cz_var){(uint32_t)k, (uint32_t)(k >> 32)};
}

typedef struct {
  cz_fr coeff;  /* Montgomery form */
  uint64_t key; /* cz_var_key of the variable */
} cz_lc_term;

typedef enum { CZ_LC_VEC = 0, CZ_LC_INLINE = 1, CZ_LC_ARENA = 2 } cz_lc_layout;

#define CZ_LC_INLINE_MAX 4

struct cz_cs;
struct cz_lc_arena;

/* Fields are visible so that LCs can live on the stack; change them only
 * through the functions below. */
typedef struct cz_lc {
  cz_lc_term *t; /* terms[len], sorted by key, unique keys */
  uint32_t len, cap;
  uint8_t layout; /* cz_lc_layout */
  uint8_t heap;   /* t was malloc'ed (VEC, or a spilled INLINE) */
  uint8_t failed; /* an allocation failed: contents are incomplete */
  uint8_t pad_;
  struct cz_lc_arena *arena; /* ARENA only */
  cz_lc_term inl[CZ_LC_INLINE_MAX];
} cz_lc;

/* Initialise an empty LC in the layout of cs (cz_cs_config.lc_layout);
 * cs == NULL gives CZ_LC_VEC. */
void cz_lc_init(cz_lc *lc, struct cz_cs *cs);
/* Initialise with an explicit layout. inline_n (1..4) is used by
 * CZ_LC_INLINE only; CZ_LC_ARENA takes the arena of cs and falls back to
 * CZ_LC_VEC when cs is NULL. */
void cz_lc_init_layout(cz_lc *lc, cz_lc_layout layout, unsigned inline_n, struct cz_cs *cs);
/* Release the LC's memory; it must be initialised again before reuse. A
 * second cz_lc_free is harmless. */
void cz_lc_free(cz_lc *lc);
/* Remove every term, keeping the storage, and clear the failed mark. */
void cz_lc_clear(cz_lc *lc);

/* lc += coeff * v (merging with an existing term of v). */
void cz_lc_add_term(cz_lc *lc, cz_var v, const cz_fr *coeff);
/* lc -= coeff * v, i.e. lc += (-coeff) * v as bellpepper does. */
void cz_lc_sub_term(cz_lc *lc, cz_var v, const cz_fr *coeff);
/* lc += v and lc -= v (coefficient one). */
void cz_lc_add(cz_lc *lc, cz_var v);
void cz_lc_sub(cz_lc *lc, cz_var v);
/* lc += c * ONE. */
void cz_lc_add_const(cz_lc *lc, const cz_fr *c);
/* lc += other, lc -= other (term by term, in other's order). */
void cz_lc_add_lc(cz_lc *lc, const cz_lc *other);
void cz_lc_sub_lc(cz_lc *lc, const cz_lc *other);
/* lc += coeff * other and lc -= coeff * other. */
void cz_lc_add_scaled(cz_lc *lc, const cz_fr *coeff, const cz_lc *other);
void cz_lc_sub_scaled(cz_lc *lc, const cz_fr *coeff, const cz_lc *other);
/* lc += sum of terms[i].coeff * (the variable of terms[i].key), for n
 * terms in any order, duplicates allowed: the same LC as cz_lc_add_term
 * on each in turn (sums are exact), in O(len + n log n) where terms out of
 * key order cost cz_lc_add_term O(len) each. terms is used as scratch
 * (reordered, merged); it must not point into lc. */
void cz_lc_add_terms(cz_lc *lc, cz_lc_term *terms, size_t n);
/* dst = src, including src's failed mark; dst must be initialised (its
 * layout is kept). dst == src does nothing. */
void cz_lc_copy(cz_lc *dst, const cz_lc *src);

static inline size_t cz_lc_len(const cz_lc *lc) { return lc->len; }
static inline const cz_lc_term *cz_lc_terms(const cz_lc *lc) { return lc->t; }
static inline bool cz_lc_failed(const cz_lc *lc) { return lc->failed != 0; }

/* sum coeff * value over the terms, with values[] = inputs then aux. Every
 * variable must be below n_inputs / n_aux; returns false (out = 0) otherwise. */
bool cz_lc_eval(cz_fr *out, const cz_lc *lc, const cz_fr *inputs, size_t n_inputs, const cz_fr *aux,
                size_t n_aux);

#endif
