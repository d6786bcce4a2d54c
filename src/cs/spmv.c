/* a/b = M * w for a recorded shape (the compact cz_pce; c is a * b, left to
 * the prover: cz_assignment), and a/b/c for the plain cz_r1cs (tests check
 * satisfaction with it), on a thread budget. What makes it cheap on real
 * circuits (the 2 KiB PoRep circuit: 15 M entries; 98% of aux values are 0
 * or 1):
 *  - the packed aux (cuzk/fr_packed.h) classifies every variable as 0, 1
 *    or other in two bits, so an entry whose value is 0 or 1 adds its
 *    coefficient masked by that bit: no multiplication, no branch on the
 *    value, no load of a 32-byte value (the bitmaps are 1/128 of the
 *    values' size, and stay in cache);
 *  - sums are lazy: 320-bit accumulators, one reduction per row;
 *  - only "other" values (rare) load the value and multiply, skipping the
 *    multiplication for coefficient ONE;
 *  - rows are split between workers by entries, not by rows.
 * Every step is exact field arithmetic, and each row ends canonical, so the
 * result equals the prover's bit for bit whatever the order or the split. */
#include <stdlib.h>
#include <string.h>
#include "cs/cs_internal.h"
#include "cuzk/parallel.h"

/* Entry weight of a row's own work (reduction, store) when splitting. */
#define ROW_COST 2

/* Which matrix form the kernel reads (a compile-time constant in each
 * instantiation). */
enum { FORM_R1CS, FORM_PCE16, FORM_PCE32 };

typedef struct {
  /* matrices */
  const uint64_t *ptr64[3]; /* FORM_R1CS */
  const uint32_t *ptr32[3]; /* FORM_PCE* */
  const uint32_t *idx[3];
  const cz_fr *val[3]; /* FORM_R1CS */
  const void *code[3]; /* FORM_PCE* */
  const cz_fr *coeffs;
  size_t rows; /* the matrices' rows */
  int form;
  cz_pce_tiling tile; /* n_slots 0: the rows are the circuit's */
  /* witness */
  const cz_fr *inputs;
  const cz_fr_packed *aux;
  size_t n_inputs; /* the matrices' input columns (then aux) */
  uint8_t *cls_in; /* the inputs' classes (CZ_CLS_*) */
  cz_fr *out[3];
  int n_out; /* 3 for cz_r1cs (a, b, c), 2 for cz_pce (a, b) */
  uint64_t two_256_mod_r[4];
  unsigned parts; /* row parts per tile (the header's and every slot's) */
} ev_ctx;

/* Where one run of rows goes: a tiled shape's slot i reads its own
 * variables i slots on (columns at or past the header's thresholds shift)
 * and writes i slots of rows on. A plain shape's thresholds are past
 * every column. */
typedef struct {
  size_t hdr_in, hdr_aux;     /* columns below stay: the header's */
  size_t shift_in, shift_aux; /* added to the slot's own */
  size_t row_shift;           /* added to the output row */
} ev_tile;

/* ---- 320-bit lazy sums (CZ_ACC_ADD: cs_internal.h) ------------------- */

/* out = a mod r, canonical. a = hi * 2^256 + lo; folding hi * (2^256 mod r)
 * into lo shrinks hi by ~10x per round (2^256 mod r < r / 4) until it is
 * gone; then lo < 2^256 < 3r needs at most two subtractions. (Most rows
 * end below r with a top limb under r's: the kernel stores those as they
 * are.) */
__attribute__((noinline)) void cz_acc_reduce(cz_fr *out, uint64_t a[5], const uint64_t t[4]) {
  while (a[4]) {
    uint64_t hi = a[4], carry = 0;
    for (int i = 0; i < 4; i++) {
      cz_u128 x = (cz_u128)hi * t[i] + a[i] + carry;
      a[i] = (uint64_t)x;
      carry = (uint64_t)(x >> 64);
    }
    a[4] = carry;
  }
  /* Scalars, not mont_reduce_once's arrays: this runs for every sum that
   * reaches r (any term with a negative coefficient), and GCC keeps these
   * in registers. */
  uint64_t x0 = a[0], x1 = a[1], x2 = a[2], x3 = a[3];
  const uint64_t *m = CZ_FR_MODULUS;
  for (int pass = 0; pass < 2; pass++) {
    cz_u128 d = (cz_u128)x0 - m[0];
    uint64_t d0 = (uint64_t)d;
    d = (cz_u128)x1 - m[1] - (uint64_t)(d >> 127);
    uint64_t d1 = (uint64_t)d;
    d = (cz_u128)x2 - m[2] - (uint64_t)(d >> 127);
    uint64_t d2 = (uint64_t)d;
    d = (cz_u128)x3 - m[3] - (uint64_t)(d >> 127);
    uint64_t d3 = (uint64_t)d, keep = 0 - (uint64_t)(d >> 127); /* borrow: x < r */
    x0 = (x0 & keep) | (d0 & ~keep);
    x1 = (x1 & keep) | (d1 & ~keep);
    x2 = (x2 & keep) | (d2 & ~keep);
    x3 = (x3 & keep) | (d3 & ~keep);
  }
  out->l[0] = x0;
  out->l[1] = x1;
  out->l[2] = x2;
  out->l[3] = x3;
}

/* 2^256 mod r = 2^256 - 2r, since 2r < 2^256 < 3r. */
void cz_two_256_mod_r(uint64_t t[4]) {
  uint64_t borrow = 0;
  for (int i = 0; i < 4; i++) {
    uint64_t twice = CZ_FR_MODULUS[i] << 1 | (i ? CZ_FR_MODULUS[i - 1] >> 63 : 0);
    cz_u128 d = (cz_u128)0 - twice - borrow;
    t[i] = (uint64_t)d;
    borrow = (uint64_t)(d >> 64) & 1;
  }
}

/* ---- the kernel ----------------------------------------------------- */

/* *t = coeff * x for a value other than 0 and 1 (rare: out of the hot
 * loop, and the accumulator never leaves registers). x is input `at`, or
 * the aux value at `at` when aux. */
static __attribute__((noinline)) void term_other(cz_fr *t, const ev_ctx *c, bool aux, size_t at,
                                                 const cz_fr *cf, bool coeff_is_one) {
  const cz_fr *x = aux ? &c->aux->others[cz_fr_packed_rank(c->aux, at)] : &c->inputs[at];
  if (coeff_is_one) *t = *x;
  else cz_fr_mul(t, cf, x);
}

/* Rows [r0, r1) of matrix mi through tile tl; form is a constant in each
 * caller. */
static inline __attribute__((always_inline)) void rows_eval(const ev_ctx *c, int mi, size_t r0,
                                                            size_t r1, const ev_tile *tl,
                                                            int form) {
  const uint32_t *idx = c->idx[mi];
  const uint8_t *cls_in = c->cls_in;
  const uint64_t *one = c->aux->one, *other = c->aux->other;
  const size_t n_in = c->n_inputs, hdr_in = tl->hdr_in, hdr_aux = tl->hdr_aux;
  const size_t shift_in = tl->shift_in, shift_aux = tl->shift_aux;
  const cz_fr *coeffs = c->coeffs, *val = c->val[mi];
  const uint16_t *code16 = c->code[mi];
  const uint32_t *code32 = c->code[mi];
  const uint64_t *ptr64 = c->ptr64[mi];
  const uint32_t *ptr32 = c->ptr32[mi];
  cz_fr *out = c->out[mi] + tl->row_shift;
  for (size_t r = r0; r < r1; r++) {
    uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0;
    uint64_t b = form == FORM_R1CS ? ptr64[r] : ptr32[r];
    uint64_t e = form == FORM_R1CS ? ptr64[r + 1] : ptr32[r + 1];
    for (uint64_t p = b; p < e; p++) {
      uint32_t col = idx[p];
      unsigned k;
      size_t at;
      bool aux = col >= n_in;
      if (__builtin_expect(aux, 1)) {
        at = col - n_in;
        at += at >= hdr_aux ? shift_aux : 0;
        uint64_t o = other[at >> 6] >> (at & 63), one_b = one[at >> 6] >> (at & 63);
        k = (o & 1) ? CZ_CLS_OTHER : (unsigned)(one_b & 1);
      } else {
        at = col + (col >= hdr_in ? shift_in : 0);
        k = cls_in[at];
      }
      uint32_t code = form == FORM_PCE16 ? code16[p] : form == FORM_PCE32 ? code32[p] : 0;
      const cz_fr *cf = form == FORM_R1CS ? &val[p] : &coeffs[code];
      if (__builtin_expect(k == CZ_CLS_OTHER, 0)) {
        cz_fr t;
        term_other(&t, c, aux, at, cf, form == FORM_R1CS ? fr_is_one_inl(cf) : code == 0);
        CZ_ACC_ADD(a0, a1, a2, a3, a4, t.l, ~(uint64_t)0);
      } else {
        CZ_ACC_ADD(a0, a1, a2, a3, a4, cf->l, 0 - (uint64_t)k); /* coefficient * 0 or * 1 */
      }
    }
    cz_acc_store(&out[r], a0, a1, a2, a3, a4, c->two_256_mod_r);
  }
}

static __attribute__((noinline)) void rows_r1cs(const ev_ctx *c, int mi, size_t r0, size_t r1,
                                                const ev_tile *tl) {
  rows_eval(c, mi, r0, r1, tl, FORM_R1CS);
}
static __attribute__((noinline)) void rows_pce16(const ev_ctx *c, int mi, size_t r0, size_t r1,
                                                 const ev_tile *tl) {
  rows_eval(c, mi, r0, r1, tl, FORM_PCE16);
}
static __attribute__((noinline)) void rows_pce32(const ev_ctx *c, int mi, size_t r0, size_t r1,
                                                 const ev_tile *tl) {
  rows_eval(c, mi, r0, r1, tl, FORM_PCE32);
}

static uint64_t row_ptr(const ev_ctx *c, int mi, size_t r) {
  return c->form == FORM_R1CS ? c->ptr64[mi][r] : c->ptr32[mi][r];
}

/* The first row at or past `target` cost in [lo, hi) of matrix mi: cost(r)
 * = entries before r + ROW_COST * r, increasing in r. */
static size_t row_at_cost(const ev_ctx *c, int mi, size_t lo, size_t hi, uint64_t target) {
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (row_ptr(c, mi, mid) + (uint64_t)ROW_COST * mid < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Part `part` of c->parts of rows [lo, hi) of matrix mi: parts hold equal
 * shares of entries + ROW_COST * rows. */
static size_t split_row(const ev_ctx *c, int mi, size_t lo, size_t hi, unsigned part) {
  if (part == 0) return lo;
  if (part >= c->parts) return hi;
  uint64_t base = row_ptr(c, mi, lo) + (uint64_t)ROW_COST * lo;
  uint64_t end = row_ptr(c, mi, hi) + (uint64_t)ROW_COST * hi;
  return row_at_cost(c, mi, lo, hi, base + (uint64_t)((cz_u128)(end - base) * part / c->parts));
}

/* Task t: tile t / parts (0 the header, or all rows of a plain shape; 1 +
 * i slot i), part t % parts of its rows, in every matrix. */
static void eval_part(void *ctx, size_t begin, size_t end, unsigned worker) {
  (void)worker;
  const ev_ctx *c = ctx;
  const cz_pce_tiling *t = &c->tile;
  for (size_t task = begin; task < end; task++) {
    size_t tile = task / c->parts;
    unsigned part = (unsigned)(task % c->parts);
    ev_tile tl = {t->hdr_in, t->hdr_aux, 0, 0, 0};
    size_t lo = 0, hi = t->n_slots ? t->hdr_rows : c->rows;
    if (!t->n_slots) tl.hdr_in = tl.hdr_aux = SIZE_MAX;
    if (tile > 0) {
      size_t i = tile - 1;
      tl = (ev_tile){t->hdr_in, t->hdr_aux, i * t->per_in, i * t->per_aux, i * t->per_rows};
      lo = t->hdr_rows;
      hi = c->rows;
    }
    for (int mi = 0; mi < c->n_out; mi++) {
      size_t r0 = split_row(c, mi, lo, hi, part), r1 = split_row(c, mi, lo, hi, part + 1);
      switch (c->form) {
        case FORM_R1CS: rows_r1cs(c, mi, r0, r1, &tl); break;
        case FORM_PCE16: rows_pce16(c, mi, r0, r1, &tl); break;
        default: rows_pce32(c, mi, r0, r1, &tl); break;
      }
    }
  }
}

/* ---- entry points --------------------------------------------------- */

static bool dens_copy(cz_density *dst, const cz_density *src) {
  size_t words = src->n / 64 + 1;
  dst->bits = cz_pool_take(words * sizeof(uint64_t));
  if (!dst->bits) return false;
  memcpy(dst->bits, src->bits, words * sizeof(uint64_t));
  dst->n = src->n;
  dst->count = src->count;
  return true;
}

static void release_abc(cz_assignment *w) {
  cz_pool_give(w->a);
  cz_pool_give(w->b);
  cz_pool_give(w->c);
  w->a = w->b = w->c = NULL;
  cz_density_free(&w->a_aux);
  cz_density_free(&w->b_input);
  cz_density_free(&w->b_aux);
}

/* dst (n_slots tiles of src: its first hdr bits, then per bits per slot)
 * from src, counted. */
static bool dens_tile(cz_density *dst, const cz_density *src, size_t hdr, size_t per,
                      size_t n_slots) {
  dst->n = hdr + n_slots * per;
  size_t words = dst->n / 64 + 1, tw = per / 64 + 1;
  dst->bits = cz_pool_take(words * sizeof(uint64_t));
  uint64_t *tmp = cz_pool_take(tw * sizeof(uint64_t));
  if (!dst->bits || !tmp) {
    cz_pool_give(tmp);
    return false;
  }
  memset(dst->bits, 0, words * sizeof(uint64_t));
  cz_bits_or_at(dst->bits, 0, src->bits, hdr);
  cz_bits_extract(tmp, src->bits, hdr, per);
  for (size_t i = 0; i < n_slots; i++) cz_bits_or_at(dst->bits, hdr + i * per, tmp, per);
  cz_pool_give(tmp);
  dst->count = 0;
  for (size_t w = 0; w < words; w++) dst->count += (size_t)__builtin_popcountll(dst->bits[w]);
  return true;
}

/* The whole circuit's counts of c's shape, and the witness run's rows. */
typedef struct {
  size_t n_inputs, n_aux, body, rows;
} ev_counts;

static ev_counts counts_of(const ev_ctx *c, size_t n_inputs, size_t n_aux) {
  const cz_pce_tiling *t = &c->tile;
  if (!t->n_slots) return (ev_counts){n_inputs, n_aux, c->rows, c->rows};
  size_t in = t->hdr_in + t->n_slots * t->per_in, body = t->hdr_rows + t->n_slots * t->per_rows;
  return (ev_counts){in, t->hdr_aux + t->n_slots * t->per_aux, body, body + in};
}

/* The densities of the whole circuit into w: copied, or tiled. */
static bool dens_out(const ev_ctx *c, const cz_density *dens[3], cz_assignment *w) {
  const cz_pce_tiling *t = &c->tile;
  if (!t->n_slots)
    return dens_copy(&w->a_aux, dens[0]) && dens_copy(&w->b_input, dens[1]) &&
           dens_copy(&w->b_aux, dens[2]);
  return dens_tile(&w->a_aux, dens[0], t->hdr_aux, t->per_aux, t->n_slots) &&
         dens_tile(&w->b_input, dens[1], t->hdr_in, t->per_in, t->n_slots) &&
         dens_tile(&w->b_aux, dens[2], t->hdr_aux, t->per_aux, t->n_slots);
}

/* The checks and outputs common to both forms; c has its matrices set.
 * n_inputs, n_aux: the matrices' columns. */
static cz_err eval_common(ev_ctx *c, size_t n_inputs, size_t n_aux, const cz_density *dens[3],
                          cz_assignment *w, unsigned n_threads) {
  ev_counts g = counts_of(c, n_inputs, n_aux);
  if (w->n_inputs != g.n_inputs || w->n_aux != g.n_aux || w->aux.n != g.n_aux || w->a || w->b ||
      w->c || w->a_aux.bits || w->b_input.bits || w->b_aux.bits)
    return CZ_ERR_INVALID_ARG;
  if (w->n_constraints + g.n_inputs != g.rows && w->n_constraints != g.rows)
    return CZ_ERR_INVALID_ARG;
  size_t room = cz_abc_room(g.rows ? g.rows : 1) * sizeof(cz_fr);
  c->n_inputs = n_inputs;
  c->inputs = w->inputs;
  c->aux = &w->aux;
  c->cls_in = malloc(g.n_inputs ? g.n_inputs : 1);
  w->a = cz_pool_take(room);
  w->b = cz_pool_take(room);
  if (c->n_out == 3) w->c = cz_pool_take(room);
  if (!c->cls_in || !w->a || !w->b || (c->n_out == 3 && !w->c) || !dens_out(c, dens, w)) {
    free(c->cls_in);
    release_abc(w);
    return CZ_ERR_NOMEM;
  }
  c->out[0] = w->a;
  c->out[1] = w->b;
  c->out[2] = w->c;
  cz_two_256_mod_r(c->two_256_mod_r);
  for (size_t i = 0; i < g.n_inputs; i++) c->cls_in[i] = cz_fr_class(&w->inputs[i]);
  size_t tiles = 1 + c->tile.n_slots;
  unsigned threads = cz_parallel_threads(n_threads);
  c->parts = (unsigned)((threads + tiles - 1) / tiles);
  cz_parallel_for(tiles * c->parts, n_threads, eval_part, c);
  free(c->cls_in);
  /* A tiled shape implies the input constraints: input_i * 0 = 0. */
  for (size_t k = 0; g.body < g.rows && k < g.n_inputs && c->tile.n_slots; k++) {
    w->a[g.body + k] = w->inputs[k];
    w->b[g.body + k] = CZ_FR_ZERO;
  }
  w->n_constraints = g.rows;
  return CZ_OK;
}

cz_err cz_r1cs_eval_threads(const cz_r1cs *m, cz_assignment *w, unsigned n_threads) {
  ev_ctx c;
  memset(&c, 0, sizeof c);
  const cz_spmat *s[3] = {&m->a, &m->b, &m->c};
  for (int i = 0; i < 3; i++) {
    c.ptr64[i] = s[i]->ptr;
    c.idx[i] = s[i]->idx;
    c.val[i] = s[i]->val;
  }
  c.rows = m->n_constraints;
  c.form = FORM_R1CS;
  c.n_out = 3;
  const cz_density *d[3] = {&m->a_aux, &m->b_input, &m->b_aux};
  return eval_common(&c, m->n_inputs, m->n_aux, d, w, n_threads);
}

cz_err cz_r1cs_eval(const cz_r1cs *m, cz_assignment *w) { return cz_r1cs_eval_threads(m, w, 1); }

cz_err cz_pce_eval(const cz_pce *p, cz_assignment *w, unsigned n_threads) {
  ev_ctx c;
  memset(&c, 0, sizeof c);
  for (int i = 0; i < 2; i++) {
    c.ptr32[i] = p->m[i].ptr;
    c.idx[i] = p->m[i].idx;
    c.code[i] = p->m[i].code;
  }
  c.coeffs = p->coeffs;
  c.rows = p->n_constraints;
  c.form = p->code_bytes == 2 ? FORM_PCE16 : FORM_PCE32;
  c.n_out = 2;
  c.tile = p->tile;
  const cz_density *d[3] = {&p->a_aux, &p->b_input, &p->b_aux};
  return eval_common(&c, p->n_inputs, p->n_aux, d, w, n_threads);
}
