/* Internals shared by the NTT sources (not a public interface).
 *
 * Layout of a transform (ntt.c runs it, ntt_scalar.c and ntt_ifma.c hold
 * the kernels): a vector of n = 2^k elements is cut into blocks of bsize
 * contiguous elements (at most 2^NTT_BLOCK_LOG = 256 KiB, which stays in
 * L2). The stages whose pairs lie inside a block (half-size h < bsize) run
 * block by block in one pass over memory. The other stages ("outer", h >=
 * bsize) are grouped into levels of at most cz_ntt_level_max_log stages; a
 * level runs in one pass too, as panels: NTT_PANEL_W adjacent columns of all
 * the rows that the level's stages combine (rows h_lo apart), copied into a
 * per-thread buffer that stays in L2, transformed there and copied back.
 * A DIF runs the levels from the top, then the blocks; a DIT the reverse.
 * So a transform of 2^22 reads and writes memory twice (one level and the
 * blocks) where a pass per stage pair would take six. */
#ifndef CUZK_NTT_IMPL_H
#define CUZK_NTT_IMPL_H
#include <stdint.h>
#include "cuzk/ntt.h"
#include "cuzk/parallel.h"
#include "ec/mont.h"
#include "ec/mont_adx_asm.h"
#include "ec/ifma_field.h"
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/* Blocks of 2^13 elements = 256 KiB: with their twiddles, well inside a
 * 1 MiB L2. */
#define NTT_BLOCK_LOG 13
/* Columns per panel: 8 elements = 256 bytes of each row, 4 cache lines. */
#define NTT_PANEL_W 8

struct cz_ntt_domain {
  unsigned log_n;
  size_t n, half; /* half = n / 2 */
  cz_fr omega, omega_inv, n_inv, g, g_inv;
  /* omega^i for i in [0, half]: the table tw, or (tw NULL, domains above
   * 2^cz_ntt_tw_full_max_log) the product tw_lo[i & tw_lo_mask] *
   * tw_hi[i >> tw_lo_log] of two tables of about sqrt(half) entries. At
   * 2^27 the full table is 2.1 GB, the largest buffer of a 32 GiB PoRep
   * partition's H step after a, b and c; read it with ntt_tw_at. */
  cz_fr *tw, *tw_lo, *tw_hi;
  size_t tw_lo_mask;
  unsigned tw_lo_log;
  cz_fr *tw_blk; /* omega_B^i, i in [0, blk_half], B = 2 blk_half = min(n, 2^block_log) */
  size_t blk_half;
  unsigned blk_log; /* log2 B */
  /* Powers of base = g (index 0) and g^-1 (index 1) by bit-reversed
   * position, base^rev(p) = rev_lo[p % B] * rev_hi[p / B]:
   *   rev_lo[j] = base^(rev_b(j) 2^(k-b)), j < B (b = blk_log),
   *   rev_hi[q] = base^rev_(k-b)(q),       q < n / B.
   * The coset shift between a DIF and a DIT (ntt_job.coset) reads them. */
  cz_fr *rev_lo[2], *rev_hi[2];
  /* The IFMA path's block twiddles, built when the CPU has IFMA (else NULL):
   * per stage h = 8, 16, ..., blk_half, the h/8 cz_frv (prepared, 8 columns
   * each) of omega_2h^j, j < h, at group offset h/8 - 1; vtw_inv the same
   * with ntt_twid's inverse-root convention. */
  void *vtw_fwd, *vtw_inv;
};

/* Knobs for tests, so that every code path runs at small sizes (not
 * thread-safe; set them before creating a domain):
 *   cz_ntt_block_log      blocks of at most 2^this elements (default 13)
 *   cz_ntt_level_max_log  at most this many stages per level (default 11)
 *   cz_ntt_no_scratch     1: act as if no per-thread buffer could be had
 *                         (panels then run in place, the IFMA path falls
 *                         back to the scalar kernels) */
extern unsigned cz_ntt_block_log;
extern unsigned cz_ntt_level_max_log;
extern int cz_ntt_no_scratch;
/*   cz_ntt_tw_full_max_log  domains up to 2^this keep the full table tw
 *                           (default 24: 256 MiB), larger ones the split one */
extern unsigned cz_ntt_tw_full_max_log;

/* The budget n_threads, trimmed so that each worker gets at least 2^12
 * elements of an n-element pass: below that, starting a thread costs more
 * than it saves. */
static inline unsigned ntt_threads(size_t n, unsigned n_threads) {
  unsigned t = cz_parallel_threads(n_threads);
  size_t cap = n >> 12;
  if (cap < 1) cap = 1;
  return t > cap ? (unsigned)cap : t;
}

/* 64-byte aligned storage for count elements (free with free()). */
cz_fr *cz_ntt_alloc_fr(size_t count);

/* ---- jobs and passes --------------------------------------------------------- */

/* What cz_ntt_run does to one vector x, in order (each part optional):
 *   x[i] *= pre_mul[i]                              (natural positions)
 *   DIF stages, root omega^-1 when dif_inv          (natural -> bit-reversed)
 *   x[p] = x[p] * coset_c base^rev(p) - sub[p] sub_k (coset >= 0: base g for
 *          0, g^-1 for 1; sub may be NULL; sub must not alias x)
 *   DIT stages, root omega^-1 when dit_inv          (bit-reversed -> natural)
 *   x[i] *= *scale                                  (with the DIT only)
 * fused into as few passes over memory as the layout allows. */
typedef struct {
  int dif, dif_inv, dit, dit_inv;
  const cz_fr *pre_mul;
  int coset;
  cz_fr coset_c;
  const cz_fr *sub;
  cz_fr sub_k;
  const cz_fr *scale;
} ntt_job;

void cz_ntt_run(const cz_ntt_domain *d, cz_fr *x, const ntt_job *job, unsigned n_threads);

/* One pass over the blocks: bsize elements each, block b at x + b bsize.
 * The job's parts that run here: pre_mul (when no DIF level ran before),
 * the DIF's block stages, the coset step, the DIT's block stages, scale
 * (when no DIT level follows). */
typedef struct {
  const cz_ntt_domain *d;
  cz_fr *x;
  size_t bsize;
  const ntt_job *job;
  const cz_fr *pre_mul; /* job->pre_mul or NULL */
  const cz_fr *scale;   /* job->scale or NULL */
} ntt_block_pass;

/* One level: the stages of half-sizes h_lo, 2 h_lo, ..., h_lo 2^(rows_log-1)
 * (DIF: from the top; DIT: from the bottom), which combine the 2^rows_log
 * rows base + r h_lo (r < 2^rows_log) of each span of h_lo 2^rows_log
 * elements. Panel q covers the columns c0 .. c0 + width - 1 of one span:
 * span = q % spans, c0 = (q / spans) width. */
typedef struct {
  const cz_ntt_domain *d;
  cz_fr *x;
  size_t h_lo, width, spans;
  unsigned rows_log;
  int dit, inv;
  const cz_fr *pre_mul; /* x *= pre_mul when loading (or NULL) */
  const cz_fr *scale;   /* DIT: outputs of the level's last stage times this */
} ntt_level_pass;

/* Where panel q's element (r, c) lives: x + panel_base(q) + r h_lo + c. */
static inline size_t ntt_panel_base(const ntt_level_pass *p, size_t q) {
  size_t span = q % p->spans, c0 = q / p->spans * p->width;
  return span * (p->h_lo << p->rows_log) + c0;
}

/* The kernels take the calling worker's scratch: 64-byte aligned, 40
 * bytes per element of a block or a panel, or NULL when none could be had.
 *
 * The scalar kernels (ntt_scalar.c), for any path. Without scratch, panels
 * run in place. */
void cz_ntt_scalar_blocks(const ntt_block_pass *p, size_t b0, size_t b1);
void cz_ntt_scalar_panels(const ntt_level_pass *p, size_t q0, size_t q1, void *scratch);

/* The 8-lane IFMA kernels (ntt_ifma.c): the same results. Only call them
 * when ntt_use_ifma() and the domain has its vector twiddles; blocks need
 * bsize >= 16. Without scratch they return 0, having done nothing, and the
 * caller runs the scalar kernel. */
int cz_ntt_ifma_blocks(const ntt_block_pass *p, size_t b0, size_t b1, void *scratch);
int cz_ntt_ifma_panels(const ntt_level_pass *p, size_t q0, size_t q1, void *scratch);
/* Build / free d->vtw_fwd and d->vtw_inv (left NULL when it cannot). */
void cz_ntt_ifma_domain_init(cz_ntt_domain *d);
void cz_ntt_ifma_domain_free(cz_ntt_domain *d);

static inline int ntt_use_ifma(void) {
#ifdef CZ_IFMA
  return cz_ifma_use;
#else
  return 0;
#endif
}

/* The natural-order scaling x[i] *= c base^i of cz_ntt_coset_fft
 * (ntt_permute.c). */
void cz_ntt_scale_natural(const cz_ntt_domain *d, cz_fr *x, const cz_fr *base, const cz_fr *c,
                          unsigned n_threads);

/* Rows ahead that the panel copies prefetch: the rows of a panel are h_lo
 * apart, which no hardware prefetcher follows. */
#define NTT_PREFETCH_ROWS 4
static inline void ntt_prefetch_row(const cz_fr *row, size_t count) {
  for (size_t k = 0; k < count * sizeof(cz_fr); k += 64) __builtin_prefetch((const char *)row + k);
}

/* Row residues ahead whose twiddles a panel stage prefetches: they lie
 * h_lo apart in tw (a cache and TLB miss each), and a residue of the top
 * stages runs only one row group, too little work to hide a miss. */
#define NTT_PREFETCH_TW 8
/* The lines of the count twiddles for exponents (e0 + c) s, c < count. */
static inline void ntt_prefetch_tw(const cz_fr *tw, size_t half, size_t e0, size_t s, size_t count,
                                   int inv) {
  if (!tw) return; /* split tables: small enough to stay cached */
  for (size_t c = 0; c < count; c++) {
    size_t e = (e0 + c) * s;
    __builtin_prefetch(&tw[inv ? half - e : e]);
  }
}

/* A contiguous region brought into the cache a few lines per step while
 * other work runs: the next block, during the first stages of the current
 * one, so that its stages do not wait on memory. */
typedef struct {
  const char *at, *end;
  size_t per_step; /* lines per ntt_lines_step */
} ntt_lines;

static inline void ntt_lines_init(ntt_lines *l, const void *p, size_t bytes, size_t steps) {
  l->at = p;
  l->end = p ? l->at + bytes : l->at; /* no arithmetic on a null p (UB) */
  l->per_step = (bytes / 64 + steps - 1) / (steps ? steps : 1);
}

static inline void ntt_lines_step(ntt_lines *l) {
  for (size_t k = 0; k < l->per_step && l->at < l->end; k++, l->at += 64) __builtin_prefetch(l->at);
}

/* The next panel's rows, brought into the cache a few at a time while a
 * panel runs (they lie h_lo apart: no hardware prefetcher follows them),
 * so that its copy finds them there. A panel's steps run about rows / 3
 * row residues in all; NTT_AHEAD_ROWS rows per residue cover the next
 * panel well before it starts. */
#define NTT_AHEAD_ROWS 4
typedef struct {
  const ntt_level_pass *p;
  size_t base, row; /* the next panel's base in x (SIZE_MAX: none), rows done */
} ntt_ahead;

static inline void ntt_ahead_init(ntt_ahead *a, const ntt_level_pass *p, size_t q, size_t q1) {
  a->p = p;
  a->base = q + 1 < q1 ? ntt_panel_base(p, q + 1) : SIZE_MAX;
  a->row = 0;
}

/* Called once per row residue. */
static inline void ntt_ahead_step(ntt_ahead *a) {
  const ntt_level_pass *p = a->p;
  size_t rows = (size_t)1 << p->rows_log;
  if (a->base == SIZE_MAX) return;
  for (size_t k = 0; k < NTT_AHEAD_ROWS && a->row < rows; k++, a->row++) {
    size_t at = a->base + a->row * p->h_lo;
    ntt_prefetch_row(p->x + at, p->width);
    if (p->pre_mul) ntt_prefetch_row(p->pre_mul + at, p->width);
  }
}

/* A panel stage of half-size m h_lo pairs rows r and r + m; its twiddle for
 * row residue rr = r % m and column c0 + c is omega_2h^(rr h_lo + c0 + c) =
 * tw[(e0 + c) s] with e0 = rr h_lo + c0, s = half / h. */
static inline size_t ntt_panel_tw_stride(const ntt_level_pass *p, size_t m) {
  return p->d->half >> __builtin_ctzll(m * p->h_lo); /* powers of two: no division */
}

/* Prefetch the twiddles of residues rr0 .. rr0 + NTT_PREFETCH_TW - 1 (< m). */
static inline void ntt_panel_tw_ahead(const ntt_level_pass *p, size_t c0, size_t m, size_t rr0) {
  size_t s = ntt_panel_tw_stride(p, m);
  for (size_t rr = rr0; rr < m && rr < rr0 + NTT_PREFETCH_TW; rr++)
    ntt_prefetch_tw(p->d->tw, p->d->half, rr * p->h_lo + c0, s, p->width, p->inv);
}

/* The steps of a panel, in order: the DIF from the top in radix-4 pairs
 * (stages 2m and m), with one radix-2 stage last when the count is odd;
 * the DIT from the bottom, the radix-2 stage first; last marks the DIT's
 * final step (it scales). */
typedef struct {
  size_t m;
  int radix4, last;
} ntt_panel_step;

static inline unsigned ntt_panel_steps(const ntt_level_pass *p, ntt_panel_step *st) {
  unsigned stages = p->rows_log, n = 0;
  if (!p->dit) {
    size_t m = (size_t)1 << stages >> 1; /* the top stage's m */
    for (; stages >= 2; stages -= 2, m /= 4) st[n++] = (ntt_panel_step){m / 2, 1, 0};
    if (stages) st[n++] = (ntt_panel_step){m, 0, 0};
    return n;
  }
  size_t m = 1;
  if (stages & 1) {
    st[n++] = (ntt_panel_step){1, 0, 0};
    m = 2;
    stages--;
  }
  for (; stages >= 2; stages -= 2, m *= 4) st[n++] = (ntt_panel_step){m, 1, 0};
  st[n - 1].last = 1;
  return n;
}

/* The leading twiddles of a step, fetched one step before it runs: the
 * small-m steps use few twiddles per panel, each on its own line, and
 * would otherwise wait for them right away. */
static inline void ntt_panel_step_ahead(const ntt_level_pass *p, size_t c0,
                                        const ntt_panel_step *st) {
  if (!st->radix4) {
    ntt_panel_tw_ahead(p, c0, st->m, 0);
    return;
  }
  ntt_panel_tw_ahead(p, c0, 2 * st->m, 0);
  ntt_panel_tw_ahead(p, c0, 2 * st->m, st->m);
  ntt_panel_tw_ahead(p, c0, st->m, 0);
}

/* The first step's, before the panel is copied in. */
static inline void ntt_panel_first_ahead(const ntt_level_pass *p, size_t c0) {
  ntt_panel_step st[64];
  ntt_panel_steps(p, st);
  ntt_panel_step_ahead(p, c0, &st[0]);
}

/* ---- field helpers ------------------------------------------------------------ */

/* Fr add and sub for the butterflies: the shared mont_add/mont_sub are
 * generic in the limb count and slow here, and C versions compile to a
 * branch on the final carry, which random data mispredicts half the time
 * (measured: 7.5 ns per add against 3 ns branch-free). So on x86-64 they
 * are written out with cmov / masks. */
#if defined(__x86_64__)
static const uint64_t NTT_FR_MOD[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                       0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
#define NTT_MEM4(p) "m"(*(const uint64_t(*)[4])(p))

/* r = a + b mod r_Fr (a, b reduced; 2 r_Fr < 2^256, so no carry out). */
static inline __attribute__((always_inline)) void ntt_fr_add(cz_fr *r, const cz_fr *a,
                                                             const cz_fr *b) {
  uint64_t s0, s1, s2, s3, d0, d1, d2, d3;
  __asm__(
      "movq 0(%[a]), %[s0]\n\t addq 0(%[b]), %[s0]\n\t"
      "movq 8(%[a]), %[s1]\n\t adcq 8(%[b]), %[s1]\n\t"
      "movq 16(%[a]), %[s2]\n\t adcq 16(%[b]), %[s2]\n\t"
      "movq 24(%[a]), %[s3]\n\t adcq 24(%[b]), %[s3]\n\t"
      "movq %[s0], %[d0]\n\t subq 0(%[m]), %[d0]\n\t"
      "movq %[s1], %[d1]\n\t sbbq 8(%[m]), %[d1]\n\t"
      "movq %[s2], %[d2]\n\t sbbq 16(%[m]), %[d2]\n\t"
      "movq %[s3], %[d3]\n\t sbbq 24(%[m]), %[d3]\n\t"
      "cmovncq %[d0], %[s0]\n\t cmovncq %[d1], %[s1]\n\t"
      "cmovncq %[d2], %[s2]\n\t cmovncq %[d3], %[s3]\n\t"
      : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [d0] "=&r"(d0),
        [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3)
      : [a] "r"(a->l), [b] "r"(b->l), [m] "r"(NTT_FR_MOD), NTT_MEM4(a->l), NTT_MEM4(b->l),
        NTT_MEM4(NTT_FR_MOD)
      : "cc");
  r->l[0] = s0;
  r->l[1] = s1;
  r->l[2] = s2;
  r->l[3] = s3;
}

/* r = a - b mod r_Fr: the difference, plus the modulus masked by the borrow. */
static inline __attribute__((always_inline)) void ntt_fr_sub(cz_fr *r, const cz_fr *a,
                                                             const cz_fr *b) {
  uint64_t d0, d1, d2, d3, k, t0, t1, t2;
  __asm__(
      "movq 0(%[a]), %[d0]\n\t subq 0(%[b]), %[d0]\n\t"
      "movq 8(%[a]), %[d1]\n\t sbbq 8(%[b]), %[d1]\n\t"
      "movq 16(%[a]), %[d2]\n\t sbbq 16(%[b]), %[d2]\n\t"
      "movq 24(%[a]), %[d3]\n\t sbbq 24(%[b]), %[d3]\n\t"
      "sbbq %[k], %[k]\n\t" /* all ones on a borrow */
      "movq 0(%[m]), %[t0]\n\t andq %[k], %[t0]\n\t"
      "movq 8(%[m]), %[t1]\n\t andq %[k], %[t1]\n\t"
      "movq 16(%[m]), %[t2]\n\t andq %[k], %[t2]\n\t"
      "andq 24(%[m]), %[k]\n\t" /* the masks first: and clears the carry */
      "addq %[t0], %[d0]\n\t adcq %[t1], %[d1]\n\t"
      "adcq %[t2], %[d2]\n\t adcq %[k], %[d3]\n\t"
      : [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3), [k] "=&r"(k),
        [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2)
      : [a] "r"(a->l), [b] "r"(b->l), [m] "r"(NTT_FR_MOD), NTT_MEM4(a->l), NTT_MEM4(b->l),
        NTT_MEM4(NTT_FR_MOD)
      : "cc");
  r->l[0] = d0;
  r->l[1] = d1;
  r->l[2] = d2;
  r->l[3] = d3;
}

/* r = a - b + r_Fr, in (0, 2 r_Fr): no reduction. Only for the second
 * operand of ntt_fr_mul_lazy. */
static inline __attribute__((always_inline)) void ntt_fr_sub_lazy(cz_fr *r, const cz_fr *a,
                                                                  const cz_fr *b) {
  uint64_t d0, d1, d2, d3;
  __asm__(
      "movq 0(%[a]), %[d0]\n\t addq 0(%[m]), %[d0]\n\t"
      "movq 8(%[a]), %[d1]\n\t adcq 8(%[m]), %[d1]\n\t"
      "movq 16(%[a]), %[d2]\n\t adcq 16(%[m]), %[d2]\n\t"
      "movq 24(%[a]), %[d3]\n\t adcq 24(%[m]), %[d3]\n\t"
      "subq 0(%[b]), %[d0]\n\t sbbq 8(%[b]), %[d1]\n\t"
      "sbbq 16(%[b]), %[d2]\n\t sbbq 24(%[b]), %[d3]\n\t"
      : [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3)
      : [a] "r"(a->l), [b] "r"(b->l), [m] "r"(NTT_FR_MOD), NTT_MEM4(a->l), NTT_MEM4(b->l),
        NTT_MEM4(NTT_FR_MOD)
      : "cc");
  r->l[0] = d0;
  r->l[1] = d1;
  r->l[2] = d2;
  r->l[3] = d3;
}
#undef NTT_MEM4
#else
static inline void ntt_fr_add(cz_fr *r, const cz_fr *a, const cz_fr *b) {
  mont_add(r->l, a->l, b->l, CZ_FR_MODULUS, CZ_FR_LIMBS);
}
static inline void ntt_fr_sub(cz_fr *r, const cz_fr *a, const cz_fr *b) {
  mont_sub(r->l, a->l, b->l, CZ_FR_MODULUS, CZ_FR_LIMBS);
}
#endif

/* Fr product for the butterflies: the ADX product inline (no dispatcher and
 * backend calls, no spills around them), the same value cz_fr_mul gives. */
static inline __attribute__((always_inline)) void ntt_fr_mul(cz_fr *r, const cz_fr *a,
                                                             const cz_fr *b) {
#ifdef CZ_MONT_ADX
  if (cz_mont_use_adx) {
    mont_adx_fr_mul(r->l, a->l, b->l);
    return;
  }
#endif
  cz_fr_mul(r, a, b);
}

/* d = u - v for the second operand of ntt_fr_mul: on the ADX path left
 * unreduced in (0, 2 r_Fr), which the ADX product's bound allows (its
 * accumulator stays below t + r_Fr, and the result below t d / 2^256 + r_Fr
 * < 2 r_Fr before its final subtraction, for a reduced first operand t and
 * any d < 2 r_Fr); reduced on the others. */
static inline __attribute__((always_inline)) void ntt_fr_diff_for_mul(cz_fr *d, const cz_fr *u,
                                                                      const cz_fr *v) {
#if defined(CZ_MONT_ADX) && defined(__x86_64__)
  if (cz_mont_use_adx) {
    ntt_fr_sub_lazy(d, u, v);
    return;
  }
#endif
  ntt_fr_sub(d, u, v);
}

/* i with its low k bits reversed (k = 0: 0). */
static inline size_t ntt_rev_bits(size_t i, unsigned k) {
  if (k == 0) return 0;
  uint64_t v = i;
  v = ((v >> 1) & 0x5555555555555555ULL) | ((v & 0x5555555555555555ULL) << 1);
  v = ((v >> 2) & 0x3333333333333333ULL) | ((v & 0x3333333333333333ULL) << 2);
  v = ((v >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((v & 0x0f0f0f0f0f0f0f0fULL) << 4);
  v = __builtin_bswap64(v);
  return (size_t)(v >> (64 - k));
}

/* tw has half+1 entries omega_(2 half)^i; the twiddle for exponent e, or
 * for -e with the sign folded into the butterfly: omega^-e = -tw[half - e]
 * (tw[half] = -1), and the butterflies swap add and sub for the minus. */
static inline const cz_fr *ntt_twid(const cz_fr *tw, size_t half, size_t e, int inv) {
  return inv ? &tw[half - e] : &tw[e];
}

/* omega^e (e <= half) from whichever table d keeps: a pointer into tw, or
 * *tmp set to the split tables' product. */
static inline const cz_fr *ntt_tw_at(const cz_ntt_domain *d, size_t e, cz_fr *tmp) {
  if (d->tw) return &d->tw[e];
  ntt_fr_mul(tmp, &d->tw_lo[e & d->tw_lo_mask], &d->tw_hi[e >> d->tw_lo_log]);
  return tmp;
}

/* The coset step's factor for the block at position p0 (a multiple of
 * bsize <= B): c base^rev(p) = rev_lo[p % B] * ntt_coset_block(..., p0). */
static inline void ntt_coset_block(cz_fr *f, const cz_ntt_domain *d, const ntt_job *job,
                                   size_t p0) {
  ntt_fr_mul(f, &job->coset_c, &d->rev_hi[job->coset][p0 >> d->blk_log]);
}

#endif
