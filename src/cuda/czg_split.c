/* prep_msm (the 0 / 1 / other split), batch sizing and the pinned staging
 * pool of the GPU prover: host-side C, tested without a GPU. */
#include <stdlib.h>
#include <string.h>
#include "cuda/czg_host.h"

void cz_gpu_split_free(czg_split *s) {
  free(s->one);
  free(s->other);
  free(s->k);
  memset(s, 0, sizeof *s);
}

static bool density_bit(const uint64_t *d, size_t i) { return (d[i / 64] >> (i % 64)) & 1; }

static size_t density_count(const uint64_t *d, size_t n) {
  size_t c = 0;
  for (size_t w = 0; w < n / 64; w++) c += (size_t)__builtin_popcountll(d[w]);
  if (n % 64) c += (size_t)__builtin_popcountll(d[n / 64] & ((1ULL << (n % 64)) - 1));
  return c;
}

static bool seg_ok(const cz_msm_g1_segment *s) {
  if (!s->n_scalars) return s->n_bases == 0;
  if (!!s->scalars + !!s->frs + !!s->packed != 1) return false;
  if (s->packed && s->packed->n < s->n_scalars) return false;
  if (s->n_bases && !s->bases) return false;
  size_t want = s->density ? density_count(s->density, s->n_scalars) : s->n_scalars;
  return s->n_bases == want;
}

static int scalar_class(const cz_scalar *k) { /* 0, 1, or 2 for any other */
  if (k->l[1] | k->l[2] | k->l[3]) return 2;
  return k->l[0] < 2 ? (int)k->l[0] : 2;
}

/* Scalars are reduced mod r as cz_msm does (k < 2^256 < 6 r). */
static void reduce_scalar(cz_scalar *k) {
  for (;;) {
    bool geq = true;
    for (int i = CZ_FR_LIMBS - 1; i >= 0; i--) {
      if (k->l[i] != CZ_FR_MODULUS[i]) {
        geq = k->l[i] > CZ_FR_MODULUS[i];
        break;
      }
    }
    if (!geq) return;
    unsigned __int128 borrow = 0;
    for (int i = 0; i < CZ_FR_LIMBS; i++) {
      unsigned __int128 d = (unsigned __int128)k->l[i] - CZ_FR_MODULUS[i] - borrow;
      k->l[i] = (uint64_t)d;
      borrow = (d >> 64) & 1;
    }
  }
}

cz_err cz_gpu_split_g1(czg_split *out, const cz_msm_g1_segment *segs, size_t n_segs) {
  memset(out, 0, sizeof *out);
  size_t total = 0;
  for (size_t s = 0; s < n_segs; s++) {
    if (!seg_ok(&segs[s])) return CZ_ERR_INVALID_ARG;
    total += segs[s].n_bases;
  }
  /* Worst case every base in one class; shrink afterwards is not worth it. */
  out->one = malloc((total ? total : 1) * sizeof *out->one);
  out->other = malloc((total ? total : 1) * sizeof *out->other);
  out->k = malloc((total ? total : 1) * sizeof *out->k);
  if (!out->one || !out->other || !out->k) {
    cz_gpu_split_free(out);
    return CZ_ERR_NOMEM;
  }
  for (size_t s = 0; s < n_segs; s++) {
    const cz_msm_g1_segment *g = &segs[s];
    size_t b = 0;
    for (size_t i = 0; i < g->n_scalars; i++) {
      if (g->density && !density_bit(g->density, i)) continue;
      cz_scalar k;
      if (g->packed) {
        cz_fr x;
        cz_fr_packed_get(g->packed, i, &x);
        cz_fr_to_scalar(&k, &x);
      } else if (g->frs) {
        cz_fr_to_scalar(&k, &g->frs[i]);
      } else {
        k = g->scalars[i];
        reduce_scalar(&k);
      }
      const cz_g1_affine *base = &g->bases[b++];
      switch (scalar_class(&k)) {
        case 0: out->n_zero++; break;
        case 1: out->one[out->n_one++] = base; break;
        default: out->other[out->n_other] = base; out->k[out->n_other++] = k;
      }
    }
  }
  return CZ_OK;
}

size_t cz_gpu_plan_batch(size_t n, size_t free_bytes, size_t reserve_bytes, size_t bytes_per_point,
                         size_t max_batch) {
  if (!bytes_per_point || free_bytes <= reserve_bytes) return 0;
  size_t fit = (free_bytes - reserve_bytes) / bytes_per_point;
  if (max_batch && fit > max_batch) fit = max_batch;
  return fit < n ? fit : n;
}

void cz_gpu_pool_init(czg_pool *p, unsigned n_bufs, void *(*alloc)(void *, size_t),
                      void (*free_fn)(void *, void *), void *ctx) {
  memset(p, 0, sizeof *p);
  p->alloc = alloc;
  p->free = free_fn;
  p->ctx = ctx;
  p->n_bufs = n_bufs < 1 ? 1 : n_bufs > 4 ? 4 : n_bufs;
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv, NULL);
}

void *cz_gpu_pool_acquire(czg_pool *p, size_t n, unsigned *slot) {
  pthread_mutex_lock(&p->mu);
  for (;;) {
    /* Prefer a free buffer that is already big enough: no new pinning. */
    int pick = -1;
    for (unsigned i = 0; i < p->n_bufs; i++) {
      if (p->busy[i]) continue;
      if (p->size[i] >= n) {
        pick = (int)i;
        break;
      }
      if (pick < 0) pick = (int)i;
    }
    if (pick >= 0) {
      unsigned i = (unsigned)pick;
      if (p->size[i] < n) {
        if (p->buf[i]) p->free(p->ctx, p->buf[i]);
        p->buf[i] = p->alloc(p->ctx, n);
        p->size[i] = p->buf[i] ? n : 0;
        if (!p->buf[i]) {
          pthread_mutex_unlock(&p->mu);
          return NULL;
        }
        p->n_allocs++;
      }
      p->busy[i] = true;
      *slot = i;
      pthread_mutex_unlock(&p->mu);
      return p->buf[i];
    }
    pthread_cond_wait(&p->cv, &p->mu);
  }
}

void cz_gpu_pool_release(czg_pool *p, unsigned slot) {
  pthread_mutex_lock(&p->mu);
  if (slot < p->n_bufs) p->busy[slot] = false;
  pthread_cond_signal(&p->cv);
  pthread_mutex_unlock(&p->mu);
}

void cz_gpu_pool_destroy(czg_pool *p) {
  for (unsigned i = 0; i < p->n_bufs; i++)
    if (p->buf[i]) p->free(p->ctx, p->buf[i]);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->cv);
  memset(p, 0, sizeof *p);
}

/* ---- host finishing of device results ------------------------------------ */

void cz_gpu_sum_xyzz(void *out, const void *xyzz, size_t n) {
  const cz_g1_xyzz *p = xyzz;
  cz_g1_xyzz acc;
  cz_g1_xyzz_set_identity(&acc);
  for (size_t i = 0; i < n; i++) cz_g1_xyzz_add(&acc, &acc, &p[i]);
  cz_g1_xyzz_to_jacobian(out, &acc);
}

void cz_gpu_finish_windows(void *out, const void *seg_sums, unsigned nw, unsigned segs,
                           unsigned c) {
  const cz_g1_xyzz *s = seg_sums;
  cz_g1 acc, w;
  cz_g1_set_identity(&acc);
  for (unsigned i = nw; i-- > 0;) {
    for (unsigned d = 0; d < c; d++) cz_g1_dbl(&acc, &acc);
    cz_gpu_sum_xyzz(&w, s + (size_t)i * segs, segs);
    cz_g1_add(&acc, &acc, &w);
  }
  *(cz_g1 *)out = acc;
}
