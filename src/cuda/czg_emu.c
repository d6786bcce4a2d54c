/* The emulated device: the kernels of czg_cuda.cu as plain loops over their
 * bodies (czg_arith.h), on the CPU, one thread. It makes every step of the
 * GPU algorithms (pass structure of the NTT, coset scaling by bit-reversed
 * position, signed digits, sorted buckets, window segments, strided batch
 * addition) testable against the CPU library without a GPU. Slow: tests
 * only. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cuda/czg_arith.h"
#include "cuda/czg_host.h"
#include "cuzk/msm.h"
#include "cuzk/ntt.h"

_Static_assert(sizeof(czg_fp) == sizeof(cz_fp), "Fp layout");
_Static_assert(sizeof(czg_fr) == sizeof(cz_fr), "Fr layout");
_Static_assert(sizeof(czg_affine) == sizeof(cz_g1_affine), "affine layout");
_Static_assert(sizeof(czg_xyzz) == sizeof(cz_g1_xyzz), "XYZZ layout");

/* Twiddle tables of w: lo[i] = w^i (i < min(n, 2^16)), hi[i] = w^(i 2^16). */
typedef struct {
  czg_fr *lo, *hi;
} tw_tables;

static bool tw_build(tw_tables *t, const cz_fr *w, unsigned log_n) {
  size_t n = (size_t)1 << log_n, nlo = n < (1u << CZG_TW_BITS) ? n : (1u << CZG_TW_BITS);
  size_t nhi = (n >> CZG_TW_BITS) ? (n >> CZG_TW_BITS) : 1;
  cz_fr *lo = malloc(nlo * sizeof *lo), *hi = malloc(nhi * sizeof *hi);
  if (!lo || !hi) {
    free(lo);
    free(hi);
    return false;
  }
  lo[0] = CZ_FR_ONE;
  for (size_t i = 1; i < nlo; i++) cz_fr_mul(&lo[i], &lo[i - 1], w);
  cz_fr step = *w;
  for (unsigned i = 0; i < CZG_TW_BITS; i++) cz_fr_mul(&step, &step, &step);
  hi[0] = CZ_FR_ONE;
  for (size_t i = 1; i < nhi; i++) cz_fr_mul(&hi[i], &hi[i - 1], &step);
  t->lo = (czg_fr *)lo;
  t->hi = (czg_fr *)hi;
  return true;
}

static void tw_free(tw_tables *t) {
  free(t->lo);
  free(t->hi);
}

/* The kernel czg_ntt_pass_kernel: per group, load, k levels, store. */
static void cz_ntt_run(czg_fr *a, unsigned log_n, const tw_tables *tw, bool dif, unsigned max_k) {
  czg_ntt_pass passes[32];
  unsigned np = czg_ntt_plan(passes, log_n, max_k, dif);
  czg_fr sh[1u << 10];
  for (unsigned p = 0; p < np; p++) {
    const czg_ntt_pass *ps = &passes[p];
    size_t groups = ((size_t)1 << log_n) >> ps->k;
    uint32_t size = 1u << ps->k;
    for (size_t g = 0; g < groups; g++) {
      for (uint32_t j = 0; j < size; j++) sh[j] = a[czg_ntt_index(ps, g, j)];
      for (unsigned lv = 0; lv < ps->k; lv++)
        for (uint32_t t = 0; t < size / 2; t++) czg_ntt_butterfly(ps, sh, g, lv, t, tw->lo, tw->hi);
      for (uint32_t j = 0; j < size; j++) a[czg_ntt_index(ps, g, j)] = sh[j];
    }
  }
}

void cz_gpu_emu_ntt(cz_fr *a, unsigned log_n, const cz_fr *w, bool dif, unsigned max_k) {
  tw_tables t;
  if (max_k > 10) max_k = 10;
  if (!tw_build(&t, w, log_n)) abort(); /* test helper: tiny tables */
  cz_ntt_run((czg_fr *)a, log_n, &t, dif, max_k);
  tw_free(&t);
}

/* ---- MSM ------------------------------------------------------------------ */

typedef struct {
  uint32_t key, val;
} kv;

static int kv_cmp(const void *x, const void *y) {
  const kv *a = x, *b = y;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  return a->val < b->val ? -1 : a->val > b->val;
}

/* The kernels' MSM: digits -> sort -> bucket bounds -> bucket sums ->
 * window segments -> host finish. segs: segments per window. */
static bool emu_msm(cz_g1 *out, const cz_g1_affine *pts, const czg_fr *k, size_t n, unsigned c,
                    unsigned segs) {
  unsigned nw = czg_msm_windows(c);
  uint32_t half = 1u << (c - 1), nb = nw * half;
  size_t nk = n * nw;
  uint32_t *keys = malloc((nk ? nk : 1) * sizeof *keys),
           *vals = malloc((nk ? nk : 1) * sizeof *vals);
  kv *pairs = malloc((nk ? nk : 1) * sizeof *pairs);
  uint32_t *start = calloc(nb, sizeof *start), *end = calloc(nb, sizeof *end);
  czg_xyzz *buckets = malloc(nb * sizeof *buckets), *seg = malloc((size_t)nw * segs * sizeof *seg);
  bool ok = keys && vals && pairs && start && end && buckets && seg;
  if (ok) {
    for (size_t i = 0; i < n; i++) czg_msm_digits(&k[i], (uint32_t)i, c, keys + i, vals + i, n);
    for (size_t i = 0; i < nk; i++) pairs[i] = (kv){keys[i], vals[i]};
    qsort(pairs, nk, sizeof *pairs, kv_cmp);
    for (size_t i = 0; i < nk; i++) {
      keys[i] = pairs[i].key;
      vals[i] = pairs[i].val;
    }
    /* the bucket-bounds kernel: a run starts where the key changes */
    for (size_t i = 0; i < nk; i++) {
      uint32_t key = keys[i];
      if (key == CZG_KEY_NONE) continue;
      if (i == 0 || keys[i - 1] != key) start[key] = (uint32_t)i;
      if (i + 1 == nk || keys[i + 1] != key) end[key] = (uint32_t)(i + 1);
    }
    for (uint32_t b = 0; b < nb; b++)
      czg_bucket_sum(&buckets[b], (const czg_affine *)pts, vals, start[b], end[b]);
    uint32_t per = (half + segs - 1) / segs;
    for (unsigned w = 0; w < nw; w++)
      for (unsigned s = 0; s < segs; s++) {
        uint32_t lo = s * per, hi = lo + per;
        if (lo > half) lo = half;
        if (hi > half) hi = half;
        czg_window_segment(&seg[w * segs + s], buckets + (size_t)w * half, lo, hi);
      }
    cz_gpu_finish_windows(out, seg, nw, segs, c);
  }
  free(keys);
  free(vals);
  free(pairs);
  free(start);
  free(end);
  free(buckets);
  free(seg);
  return ok;
}

void cz_gpu_emu_msm(cz_g1 *out, const cz_g1_affine *pts, const cz_scalar *k, size_t n, unsigned c) {
  if (!emu_msm(out, pts, (const czg_fr *)k, n, c, 3)) abort(); /* test helper */
}

/* ---- the emulated device's ops --------------------------------------------- */

typedef struct {
  char name[48];
  size_t free_bytes;
  czg_fr *h; /* H coefficients, position p holds coefficient rev(p), Montgomery */
  unsigned log_n;
  pthread_mutex_t mu; /* guards faults and step */
  czg_emu_faults faults;
  unsigned long step; /* device steps run since the faults were set */
  bool library;       /* H and the MSMs by the CPU library (cz_gpu_emu_use_library) */
} emu_dev;

/* One device step begins: the injected delay, then CZ_OK or the injected
 * failure; *corrupt says whether this step's result must be wrong. */
static cz_err emu_step(emu_dev *d, size_t points, bool *corrupt) {
  pthread_mutex_lock(&d->mu);
  czg_emu_faults f = d->faults;
  unsigned long k = ++d->step;
  pthread_mutex_unlock(&d->mu);
  if (f.delay_ms) {
    struct timespec ts = {f.delay_ms / 1000, (long)(f.delay_ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
  }
  *corrupt = f.corrupt_all || (f.corrupt_step && k == f.corrupt_step);
  unsigned long span = f.fail_steps ? f.fail_steps : 1;
  if (f.fail_step && k >= f.fail_step && k - f.fail_step < span)
    return f.fail_err != CZ_OK ? f.fail_err : CZ_ERR_NOMEM;
  if (f.max_points && points > f.max_points) return CZ_ERR_NOMEM;
  return CZ_OK;
}

/* A wrong result that still decodes: the generator added to it. */
static void emu_spoil(cz_g1 *out) {
  cz_g1 g;
  cz_g1_from_affine(&g, &CZ_G1_GENERATOR);
  cz_g1_add(out, out, &g);
}

static cz_err emu_mem_free(void *ctx, size_t *f) {
  *f = ((emu_dev *)ctx)->free_bytes;
  return CZ_OK;
}
static void *emu_alloc(void *ctx, size_t n) {
  (void)ctx;
  return malloc(n);
}
static void emu_free(void *ctx, void *p) {
  (void)ctx;
  free(p);
}

/* The three vectors of H on the device: copies of a, b, c zero-padded to
 * n, c = a b when c is NULL (as the CUDA device makes it). */
static bool h_inputs(czg_fr *v[3], const cz_fr *a, const cz_fr *b, const cz_fr *c, size_t m,
                     size_t n) {
  const cz_fr *src[3] = {a, b, c};
  for (int i = 0; i < 3; i++) {
    v[i] = calloc(n, sizeof(czg_fr));
    if (v[i] && src[i]) memcpy(v[i], src[i], m * sizeof(cz_fr));
  }
  if (!v[0] || !v[1] || !v[2]) return false;
  if (!c)
    for (size_t p = 0; p < m; p++) {
      memcpy(&v[2][p], &v[0][p], sizeof v[2][p]);
      czg_h_product(&v[2][p], &v[1][p]);
    }
  return true;
}

/* H by the CPU library (cz_ntt_h_poly), kept in the device's order. */
static cz_err library_h(emu_dev *d, czg_fr *v[3], unsigned log_n) {
  size_t n = (size_t)1 << log_n;
  cz_ntt_domain *dom;
  cz_err e = cz_ntt_domain_new(&dom, log_n);
  if (e != CZ_OK) return e;
  cz_ntt_h_poly(dom, (cz_fr *)v[0], (cz_fr *)v[1], (cz_fr *)v[2], 0);
  cz_ntt_domain_free(dom);
  for (size_t i = 0; i < n; i++) v[1][czg_rev((uint32_t)i, log_n)] = v[0][i];
  d->h = v[1];
  d->log_n = log_n;
  v[1] = NULL;
  return CZ_OK;
}

/* The device's H: the same steps as the CUDA path (czg_cuda.cu ntt_h). */
static cz_err emu_ntt_h(void *ctx, const cz_fr *a, const cz_fr *b, const cz_fr *c, size_t m,
                        unsigned log_n) {
  emu_dev *d = ctx;
  bool corrupt;
  cz_err fault = emu_step(d, 0, &corrupt);
  if (fault != CZ_OK) return fault;
  size_t n = (size_t)1 << log_n;
  free(d->h);
  d->h = NULL;
  czg_fr *v[3];
  if (d->library) {
    cz_err e = h_inputs(v, a, b, c, m, n) ? library_h(d, v, log_n) : CZ_ERR_NOMEM;
    if (e == CZ_OK && corrupt) ((uint8_t *)d->h)[0] ^= 1; /* one wrong bit */
    for (int i = 0; i < 3; i++) free(v[i]);
    return e;
  }
  cz_fr w, winv, g, ginv, ninv, zinv;
  cz_fr_root_of_unity(&w, log_n);
  cz_fr_inv(&winv, &w);
  cz_fr_from_u64(&g, CZ_FR_GENERATOR);
  cz_fr_inv(&ginv, &g);
  cz_fr_from_u64(&ninv, (uint64_t)n);
  cz_fr_inv(&ninv, &ninv);
  uint64_t e = n;
  cz_fr_pow(&zinv, &g, &e, 1); /* Z(g) = g^n - 1 on the whole coset */
  cz_fr_sub(&zinv, &zinv, &CZ_FR_ONE);
  cz_fr_inv(&zinv, &zinv);
  tw_tables tw = {0}, twi = {0}, tg = {0}, tgi = {0};
  bool ok = h_inputs(v, a, b, c, m, n) && tw_build(&tw, &w, log_n) &&
            tw_build(&twi, &winv, log_n) && tw_build(&tg, &g, log_n) &&
            tw_build(&tgi, &ginv, log_n);
  if (ok) {
    cz_fr nzinv;
    cz_fr_mul(&nzinv, &ninv, &zinv);
    for (int i = 0; i < 3; i++) {
      cz_ntt_run(v[i], log_n, &twi, true, 9); /* interpolate: natural -> bit-reversed */
      if (i == 2) break;                      /* C: coefficients only */
      const czg_fr *s = (const czg_fr *)(i ? &nzinv : &ninv);
      for (size_t p = 0; p < n; p++) czg_coset_scale(&v[i][p], (uint32_t)p, log_n, s, tg.lo, tg.hi);
      cz_ntt_run(v[i], log_n, &tw, false, 9); /* evaluate on the coset: natural order */
    }
    for (size_t p = 0; p < n; p++) czg_h_product(&v[0][p], &v[1][p]);
    cz_ntt_run(v[0], log_n, &twi, true, 9);
    for (size_t p = 0; p < n; p++) {
      czg_coset_scale(&v[0][p], (uint32_t)p, log_n, (const czg_fr *)&ninv, tgi.lo, tgi.hi);
      czg_h_subtract(&v[0][p], &v[2][p], (const czg_fr *)&nzinv);
    }
    if (corrupt) czg_h_product(&v[0][0], &v[1][0]); /* one wrong coefficient */
    d->h = v[0];
    d->log_n = log_n;
    v[0] = NULL;
  }
  tw_free(&tw);
  tw_free(&twi);
  tw_free(&tg);
  tw_free(&tgi);
  for (int i = 0; i < 3; i++) free(v[i]);
  return ok ? CZ_OK : CZ_ERR_NOMEM;
}

static cz_err emu_h_read(void *ctx, cz_fr *out) {
  emu_dev *d = ctx;
  if (!d->h) return CZ_ERR_INVALID_ARG;
  size_t n = (size_t)1 << d->log_n;
  for (size_t i = 0; i < n; i++)
    memcpy(&out[i], &d->h[czg_rev((uint32_t)i, d->log_n)], sizeof *out);
  return CZ_OK;
}

static unsigned emu_window(size_t n) { return n < 64 ? 3 : n < 4096 ? 5 : 8; }

static cz_err emu_msm_h(void *ctx, const cz_g1_affine *bases, size_t first, size_t n, cz_g1 *out) {
  emu_dev *d = ctx;
  bool corrupt;
  cz_err fault = emu_step(d, n, &corrupt);
  if (fault != CZ_OK) return fault;
  if (!d->h || first + n > ((size_t)1 << d->log_n)) return CZ_ERR_INVALID_ARG;
  czg_fr *k = malloc((n ? n : 1) * sizeof *k);
  if (!k) return CZ_ERR_NOMEM;
  for (size_t i = 0; i < n; i++)
    czg_fr_from_mont(&k[i], &d->h[czg_rev((uint32_t)(first + i), d->log_n)]);
  bool ok = d->library ? cz_msm_g1(out, bases, (const cz_scalar *)k, n, 0) == CZ_OK
                       : emu_msm(out, bases, k, n, emu_window(n), 4);
  free(k);
  if (ok && corrupt) emu_spoil(out);
  return ok ? CZ_OK : CZ_ERR_NOMEM;
}

/* The batch-add kernel: T threads sum strided points, the host sums those. */
static cz_err emu_batch_add(void *ctx, const cz_g1_affine *pts, size_t n, cz_g1 *out) {
  enum { T = 5 };
  bool corrupt;
  cz_err fault = emu_step(ctx, n, &corrupt);
  if (fault != CZ_OK) return fault;
  czg_xyzz part[T];
  for (unsigned t = 0; t < T; t++) {
    czg_xyzz_set_identity(&part[t]);
    for (size_t i = t; i < n; i += T)
      czg_xyzz_add_affine(&part[t], (const czg_affine *)&pts[i], false);
  }
  cz_gpu_sum_xyzz(out, part, T);
  if (corrupt) emu_spoil(out);
  return CZ_OK;
}

static cz_err emu_msm_ops(void *ctx, const cz_g1_affine *pts, const cz_scalar *k, size_t n,
                          cz_g1 *out) {
  bool corrupt;
  cz_err fault = emu_step(ctx, n, &corrupt);
  if (fault != CZ_OK) return fault;
  if (((emu_dev *)ctx)->library) {
    if (cz_msm_g1(out, pts, k, n, 0) != CZ_OK) return CZ_ERR_NOMEM;
  } else if (!emu_msm(out, pts, (const czg_fr *)k, n, emu_window(n), 2)) {
    return CZ_ERR_NOMEM;
  }
  if (corrupt) emu_spoil(out);
  return CZ_OK;
}

static void emu_close(void *ctx) {
  emu_dev *d = ctx;
  free(d->h);
  pthread_mutex_destroy(&d->mu);
  free(d);
}

cz_err cz_gpu_emu_open(czg_ops *ops, const char *name, size_t free_bytes) {
  emu_dev *d = calloc(1, sizeof *d);
  if (!d) return CZ_ERR_NOMEM;
  snprintf(d->name, sizeof d->name, "%s", name && name[0] ? name : "cuda-emulated");
  d->free_bytes = free_bytes;
  pthread_mutex_init(&d->mu, NULL);
  *ops = (czg_ops){
      .name = d->name,
      .model = "emulated (CPU)",
      .ctx = d,
      .mem_free = emu_mem_free,
      .mem_total = free_bytes,
      .msm_bytes_per_point = sizeof(cz_g1_affine) + sizeof(cz_scalar) + 2 * 8 * 32,
      .add_bytes_per_point = sizeof(cz_g1_affine),
      .msm_reserve_bytes = 0,
      .host_alloc = emu_alloc,
      .host_free = emu_free,
      .ntt_h = emu_ntt_h,
      .h_read = emu_h_read,
      .msm_h = emu_msm_h,
      .batch_add = emu_batch_add,
      .msm = emu_msm_ops,
      .close = emu_close,
  };
  return CZ_OK;
}

void cz_gpu_emu_ops(czg_ops *ops, size_t free_bytes) {
  if (cz_gpu_emu_open(ops, NULL, free_bytes) != CZ_OK) abort(); /* test helper: a few bytes */
}

void cz_gpu_emu_set_faults(const czg_ops *ops, const czg_emu_faults *f) {
  emu_dev *d = ops->ctx;
  pthread_mutex_lock(&d->mu);
  d->faults = f ? *f : (czg_emu_faults){0};
  d->step = 0;
  pthread_mutex_unlock(&d->mu);
}

bool cz_gpu_emu_is(const czg_ops *ops) { return ops->mem_free == emu_mem_free; }

void cz_gpu_emu_use_library(const czg_ops *ops, bool on) {
  emu_dev *d = ops->ctx;
  pthread_mutex_lock(&d->mu);
  d->library = on;
  pthread_mutex_unlock(&d->mu);
}

unsigned long cz_gpu_emu_steps(const czg_ops *ops) {
  emu_dev *d = ops->ctx;
  pthread_mutex_lock(&d->mu);
  unsigned long k = d->step;
  pthread_mutex_unlock(&d->mu);
  return k;
}
