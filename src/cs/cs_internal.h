/* Internals shared by the constraint-system sources: the LC arena and the
 * cz_cs layout. Not a public header. */
#ifndef CUZK_CS_INTERNAL_H
#define CUZK_CS_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/cs.h"
#include "ec/mont.h"
#include "util/bigbuf.h"

/* Bump arena for CZ_LC_ARENA terms: a list of chunks, rewound to the first
 * one whenever no arena LC is alive. Chunks are kept for reuse. */
typedef struct cz_arena_chunk {
  struct cz_arena_chunk *next;
  size_t cap, used; /* in terms */
  cz_lc_term mem[];
} cz_arena_chunk;

struct cz_lc_arena {
  cz_arena_chunk *head, *cur;
  size_t live; /* arena LCs initialised and not yet freed */
};

/* Terms allocated from the arena; NULL when out of memory. */
cz_lc_term *cz_arena_alloc(struct cz_lc_arena *ar, size_t n);
/* Grow the block p (old terms, the most recent allocation or not) to n
 * terms, in place when it is the top of the current chunk. */
cz_lc_term *cz_arena_grow(struct cz_lc_arena *ar, cz_lc_term *p, size_t old, size_t n);
void cz_arena_reset(struct cz_lc_arena *ar);
void cz_arena_destroy(struct cz_lc_arena *ar);

/* A density bitmap with capacity (in 64-bit words). */
typedef struct {
  cz_density d;
  size_t cap_words;
} cz_dens_buf;

/* Entries of one matrix in constraint order: (variable key, row, coeff). */
typedef struct {
  uint64_t *key;
  uint32_t *row;
  cz_fr *val;
  size_t n, cap;
} cz_triplets;

/* RECORD builds CSR as constraints arrive (rows come in order, so nothing
 * is sorted later). Per entry: the column, an aux index or an input index
 * with REC_INPUT_BIT set (inputs go first in the final numbering, which
 * is known only at the end), and the code of its coefficient. ptr has one
 * offset per row plus the leading 0. */
#define REC_INPUT_BIT 0x80000000u
typedef struct {
  uint32_t *ptr, *col, *code;
  size_t rows, n, cap, cap_ptr;
} cz_rec_mat;

/* The coefficient table (code -> value) and an open-addressing index of
 * it (slot = code + 1, 0 = empty). */
typedef struct {
  cz_rec_mat m[3];
  cz_fr *coeffs;
  size_t n_coeffs, cap_coeffs;
  uint32_t *slots;
  size_t n_slots; /* power of two, or 0 */
  cz_fr minus_one;
} cz_recorder;

bool cz_rec_init(cz_recorder *r);
void cz_rec_free(cz_recorder *r);
/* Append lc as the next row of matrix m (zero coefficients dropped). The
 * LC's variables must be allocated and below 2^31 per role. False: out of
 * memory or over 2^32 - 1 entries (*overflow tells which). */
bool cz_rec_push_row(cz_recorder *r, int m, const cz_lc *lc, bool *overflow);

/* The compact recorded shape (cs.h). Columns: inputs, then aux. code is
 * uint16_t[] or uint32_t[] by code_bytes. */
typedef struct {
  uint32_t *ptr; /* n_constraints + 1 */
  uint32_t *idx;
  void *code;
  size_t nnz;
} cz_pce_mat;

/* A tiled shape (cz_slots_record): the matrices hold the header's rows and
 * slot 0's, over the header's and slot 0's variables (inputs hdr_in +
 * per_in, aux hdr_aux + per_aux); slot i's rows are slot 0's with its own
 * variables shifted by i slots. The input constraints are implied (a = the
 * input, b = 0). n_slots == 0: a plain shape, whose rows are all there. */
typedef struct {
  size_t n_slots, hdr_rows, hdr_in, hdr_aux, per_rows, per_in, per_aux;
} cz_pce_tiling;

struct cz_pce {
  /* The matrices' own counts (for a tiled shape, of the header and one
   * slot; cz_pce_get_info reports the whole circuit's). */
  size_t n_inputs, n_aux, n_constraints;
  cz_pce_tiling tile;
  cz_pce_mat m[3]; /* A, B; C is not kept (c = a * b): m[2] is empty */
  cz_fr *coeffs;   /* coeffs[0] = ONE, coeffs[1] = -ONE */
  size_t n_coeffs;
  unsigned code_bytes;
  cz_density a_aux, b_input, b_aux;
  /* Loaded from a file (pce_file.c): every array above points into this
   * read-only mapping, which cz_pce_free unmaps instead of freeing them. */
  void *map;
  size_t map_len;
};

struct cz_cs {
  cz_cs_mode mode;
  cz_cs_config cfg;
  bool want_values, want_names, finished, taken;
  cz_err err;
  char errmsg[160];

  size_t n_inputs, n_aux, n_constraints;

  /* Values (PROVE, TEST, WITNESS). */
  cz_fr *inputs, *aux;
  size_t cap_inputs, cap_aux;

  /* PROVE: the class of every value (CZ_CLS_*), set once at allocation
   * so that evaluation never loads a 0 or 1 value to find out. */
  uint8_t *cls_in, *cls_aux;
  size_t cap_cls_in, cap_cls_aux;

  /* PROVE: evaluations and densities. rows_fixed: a/b/c are a window of
   * another system's result (cs_slots.c), never grown; filling it is an
   * error. */
  cz_fr *a, *b;
  size_t cap_abc;
  bool rows_fixed;
  cz_dens_buf a_aux, b_input, b_aux;

  /* KEYGEN: matrix entries. RECORD: the compact matrices. */
  cz_triplets mat[3];
  cz_recorder rec;
  /* KEYGEN at a point (cs_qap.c): u, v, w accumulated instead of mat. */
  struct cz_qap_state *qap;

  /* TEST: constraint terms (a, b, c of constraint i are terms
   * toff[3i]..toff[3i+1], ..toff[3i+2], ..toff[3i+3]) and names. */
  cz_lc_term *tterms;
  size_t n_tterms, cap_tterms;
  size_t *toff, cap_toff;
  char *names;
  size_t names_len, names_cap;
  size_t *name_off, cap_name_off;

  /* TEST: 64-bit hashes of every constraint and namespace path, to reject
   * duplicates as bellpepper does (open addressing, 0 = empty). */
  uint64_t *path_set;
  size_t path_set_cap, path_set_n;

  /* Namespaces: depth always; the path "a/b" only when want_names. */
  size_t ns_depth;
  char *ns_path;
  size_t ns_len, ns_cap;
  size_t *ns_marks, ns_marks_cap;

  struct cz_lc_arena arena;
  uint64_t two_256_mod_r[4]; /* for cz_acc_reduce */
};

/* Inline field helpers for the evaluation loop (the library's versions
 * are out-of-line calls; this loop runs once per term of every constraint). */
static inline bool fr_is_zero_inl(const cz_fr *a) {
  return (a->l[0] | a->l[1] | a->l[2] | a->l[3]) == 0;
}
static inline bool fr_is_one_inl(const cz_fr *a) {
  return ((a->l[0] ^ CZ_FR_ONE.l[0]) | (a->l[1] ^ CZ_FR_ONE.l[1]) | (a->l[2] ^ CZ_FR_ONE.l[2]) |
          (a->l[3] ^ CZ_FR_ONE.l[3])) == 0;
}
static inline void fr_add_inl(cz_fr *r, const cz_fr *a, const cz_fr *b) {
  mont_add(r->l, a->l, b->l, CZ_FR_MODULUS, CZ_FR_LIMBS);
}

/* Classes of values: a term whose value is 0 or 1 adds its coefficient
 * masked by the class, with no multiplication. */
enum { CZ_CLS_ZERO = 0, CZ_CLS_ONE = 1, CZ_CLS_OTHER = 2 };
static inline uint8_t cz_fr_class(const cz_fr *x) {
  return fr_is_zero_inl(x) ? CZ_CLS_ZERO : fr_is_one_inl(x) ? CZ_CLS_ONE : CZ_CLS_OTHER;
}

/* Capacity for a proving assignment's a/b/c of m rows: the prover's H
 * transform grows them to its domain, the power of two >= m, and with this
 * room it does so in place (a moving realloc would split their huge pages
 * and double the transforms' time). Only the first m rows are touched
 * before then. */
static inline size_t cz_abc_room(size_t m) {
  size_t n = 1;
  while (n < m) n <<= 1;
  return n;
}

/* The tiled shape t of a RECORD system that recorded at least the header
 * and slot 0 of a slotted circuit (pce.c); the rows past slot 0's and
 * their variables are dropped. CZ_ERR_INVALID_ARG when slot 0's rows use a
 * variable past it; CZ_ERR_NOMEM. */
cz_err cz_pce_take_tiled(cz_cs *cs, const cz_pce_tiling *t, cz_pce **out);

/* dst's bits [off, off + n) |= src's bits [0, n). Atomic: runs that meet
 * inside a word (slots of cs_slots.c) write it from two threads. */
static inline void cz_bits_or_at(uint64_t *dst, size_t off, const uint64_t *src, size_t n) {
  for (size_t i = 0; i < n; i += 64) {
    uint64_t v = src[i >> 6];
    if (n - i < 64) v &= ((uint64_t)1 << (n - i)) - 1;
    if (!v) continue;
    size_t d = off + i, w = d >> 6, sh = d & 63;
    __atomic_fetch_or(&dst[w], v << sh, __ATOMIC_RELAXED);
    if (sh && (v >> (64 - sh))) __atomic_fetch_or(&dst[w + 1], v >> (64 - sh), __ATOMIC_RELAXED);
  }
}

/* src's bits [from, from + n) as a bitmap from bit 0 of dst (words past
 * the last bit: whatever src held). */
static inline void cz_bits_extract(uint64_t *dst, const uint64_t *src, size_t from, size_t n) {
  for (size_t i = 0; i < n; i += 64) {
    size_t b = from + i, w = b >> 6, sh = b & 63;
    uint64_t v = src[w] >> sh;
    if (sh && n - i > 64 - sh) v |= src[w + 1] << (64 - sh);
    dst[i >> 6] = v;
  }
}

/* Set the sticky error (first one wins). */
/* cs_qap.c: the evaluations of one row (false: the sticky error is set),
 * and the state's release (NULL is fine). */
bool cz_qap_push(cz_cs *cs, size_t row, const cz_lc *a, const cz_lc *b, const cz_lc *c);
void cz_qap_state_free(struct cz_qap_state *q);

void cz_cs_fail(cz_cs *cs, cz_err e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- 320-bit lazy sums (the prover's evaluation and spmv.c) ----------- */

/* (a0..a4) += v & mask, on five scalars so that they stay in registers
 * across a row. On x86-64 one add/adc chain (GCC spills both the __int128
 * and the _addcarry_u64 versions to memory). Each addend is below 2^256,
 * so 2^64 of them cannot overflow. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CZ_ACC_ADD(a0, a1, a2, a3, a4, v, mask) \
  __asm__("addq %5, %0\n\tadcq %6, %1\n\tadcq %7, %2\n\tadcq %8, %3\n\tadcq $0, %4" \
          : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3), "+r"(a4) \
          : "r"((v)[0] & (mask)), "r"((v)[1] & (mask)), "r"((v)[2] & (mask)), "r"((v)[3] & (mask)) \
          : "cc")
#else
#define CZ_ACC_ADD(a0, a1, a2, a3, a4, v, mask) \
  do { \
    cz_u128 t_ = (cz_u128)(a0) + ((v)[0] & (mask)); \
    a0 = (uint64_t)t_; \
    t_ = (cz_u128)(a1) + ((v)[1] & (mask)) + (uint64_t)(t_ >> 64); \
    a1 = (uint64_t)t_; \
    t_ = (cz_u128)(a2) + ((v)[2] & (mask)) + (uint64_t)(t_ >> 64); \
    a2 = (uint64_t)t_; \
    t_ = (cz_u128)(a3) + ((v)[3] & (mask)) + (uint64_t)(t_ >> 64); \
    a3 = (uint64_t)t_; \
    a4 += (uint64_t)(t_ >> 64); \
  } while (0)
#endif

/* out = a mod r, canonical (a[] is clobbered); t = 2^256 mod r from
 * cz_two_256_mod_r. */
void cz_acc_reduce(cz_fr *out, uint64_t a[5], const uint64_t t[4]);
void cz_two_256_mod_r(uint64_t t[4]);

/* out = (a0..a4) mod r: stored as is when already below r (most sums). */
static inline void cz_acc_store(cz_fr *out, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                                uint64_t a4, const uint64_t t[4]) {
  if (__builtin_expect(a4 == 0 && a3 < CZ_FR_MODULUS[3], 1)) {
    out->l[0] = a0;
    out->l[1] = a1;
    out->l[2] = a2;
    out->l[3] = a3;
  } else {
    uint64_t acc[5] = {a0, a1, a2, a3, a4};
    cz_acc_reduce(out, acc, t);
  }
}

#endif
