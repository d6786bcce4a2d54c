/* MSMs over a mapped key (g16_msm_seg.key): the points stay encoded in
 * the file, and each segment is cut into slices of at most SLICE_BYTES
 * of decoded points, each decoded on the MSM's workers into one pool
 * block and summed by the plain MSM. A slice of 2.7 M G1 points costs its
 * bucket reduction once more (about 1% of its additions at c = 16) and its
 * decoding (a conversion to Montgomery form per point), in exchange for a
 * key that needs no process memory.
 *
 * Decoding for a proof checks the encodings (flags, canonical
 * coordinates), not the curve equation, which is more than half of its
 * cost: the key was vouched for before (an official file by its digest, a
 * test key by our own setup, and each mapped key's first and last points
 * on the curve), every proof is verified before it is returned, and an
 * off-curve point can make the sum wrong but not the MSM fail.
 *
 * A key file's pages are brought into the page cache by a reader thread,
 * one slice ahead of the decoder, so the disk reads while the CPU adds;
 * the time the decoder waits for it is the disk wait (cz_g16_key_wait_ns).
 * Then, for a key the page cache can keep (at most half the memory) each
 * worker copies its part of a slice from the file's descriptor (key->fd;
 * pread, CHUNK_BYTES at a time) and decodes the copy: re-reading a cached
 * key through the mapping cost more (8 MiB, warm: 1.07 of a decoded key's
 * time, against 1.04 copied). A larger key, which streams from disk at
 * every proof, is read in place and each slice's pages are dropped from
 * the process after it: copying 47 GB a partition churned the page cache
 * (32 GiB partition 0: 53 s of system time, against 3-7 s). Without a
 * descriptor (a key in a caller's buffer) the encodings are read in
 * place. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "cuzk/clock.h"
#include "cuzk/msm.h"
#include "cuzk/parallel.h"
#include "groth16/g16_internal.h"
#include "util/bigbuf.h"

/* Decoded bytes per slice (tests lower it to cross many slice edges). */
static size_t slice_bytes = (size_t)256 << 20;
static _Atomic uint64_t key_wait_ns;

void cz_g16_set_slice_bytes(size_t bytes) { slice_bytes = bytes ? bytes : (size_t)256 << 20; }

/* Keys up to this size are copied (tests set it; 0: half the memory). */
static size_t key_copy_limit;
void cz_g16_set_key_copy_limit(size_t bytes) { key_copy_limit = bytes; }
static size_t copy_limit(void) {
  if (key_copy_limit) return key_copy_limit;
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? (size_t)pages * (size_t)page / 2 : 0;
}
uint64_t cz_g16_key_wait_ns(void) { return atomic_load(&key_wait_ns); }

/* Scalars [i0, i1) of segment seg, whose bases are [b0, b0 + nb). */
typedef struct {
  size_t seg, i0, i1, b0, nb;
} slice;

typedef struct {
  const g16_msm_seg *segs;
  const cz_params_mapping *key;
  bool copy;  /* slices copied from key->fd, else read in place */
  size_t enc; /* bytes per encoded point */
  slice *sl;
  size_t n_sl;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  size_t read, used; /* slices in the page cache; slices the decoder has taken */
  bool stop;
} key_reader;

/* Bases of scalars [64 w, 64 w + 64) of s (bits past n_scalars do not
 * count, as in cz_msm). */
static size_t word_bases(const g16_msm_seg *s, size_t w) {
  size_t left = s->n_scalars - 64 * w;
  if (!s->density) return left < 64 ? left : 64;
  uint64_t bits = s->density[w];
  if (left < 64) bits &= ((uint64_t)1 << left) - 1;
  return (size_t)__builtin_popcountll(bits);
}

/* Cuts segment k into slices of at most max_pts bases (whole 64-scalar
 * words, so that densities and packed values are cut at word
 * boundaries; a slice without bases is left out), appending to r->sl.
 * CZ_ERR_INVALID_ARG when the segment's bases do not match its scalars
 * (the slices would read past its vector), CZ_ERR_NOMEM. */
static cz_err plan_segment(key_reader *r, size_t k, size_t max_pts, size_t *cap) {
  const g16_msm_seg *s = &r->segs[k];
  size_t i = 0, b = 0, words = (s->n_scalars + 63) / 64;
  for (size_t w = 0; w < words;) {
    size_t i0 = i, b0 = b;
    do {
      size_t nb = word_bases(s, w);
      if (b - b0 + nb > max_pts && b > b0) break;
      b += nb, i = 64 * ++w;
    } while (w < words);
    if (i > s->n_scalars) i = s->n_scalars;
    if (b == b0) continue;
    if (r->n_sl == *cap) {
      slice *g = realloc(r->sl, (*cap = *cap * 2 + 16) * sizeof *g);
      if (!g) return CZ_ERR_NOMEM;
      r->sl = g;
    }
    r->sl[r->n_sl++] = (slice){k, i0, i, b0, b - b0};
  }
  return b == s->n_bases ? CZ_OK : CZ_ERR_INVALID_ARG;
}

/* Slice s's pages in the mapping. */
static void page_range(const key_reader *r, const slice *s, uintptr_t *lo, size_t *len) {
  const uint8_t *p = (const uint8_t *)r->segs[s->seg].bases + s->b0 * r->enc;
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  *lo = (uintptr_t)p & ~(page - 1);
  *len = (uintptr_t)(p + s->nb * r->enc) - *lo;
}

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

/* Brings [lo, lo + len) of the mapping into the page cache and waits for
 * it: read from disk where the page cache lacks it (one call where the
 * kernel has MADV_POPULATE_READ, 5.14, else a touch per page), the pages
 * left mapped for a decoder that reads in place, else unmapped again (the
 * page cache keeps them). Reading with posix_fadvise(WILLNEED) instead was
 * slower from disk (32 GiB partition 0: the MSMs of l, a and b waited
 * 18.5 s for it, against 2.1 s). */
static void prefetch(uintptr_t lo, size_t len, bool unmap) {
  madvise((void *)lo, len, MADV_WILLNEED);
  /* EINVAL: a kernel without it. Not EFAULT (pages past the end of a
   * file cut short), which a touch would turn into SIGBUS: the decoder's
   * reads report that file. */
  if (madvise((void *)lo, len, MADV_POPULATE_READ) != 0 && errno == EINVAL) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    volatile uint8_t sink = 0;
    for (size_t o = 0; o < len; o += page) sink ^= *(const volatile uint8_t *)(lo + o);
    (void)sink;
  }
  if (unmap) madvise((void *)lo, len, MADV_DONTNEED);
}

static void *reader_main(void *v) {
  key_reader *r = v;
  for (size_t k = 0; k < r->n_sl; k++) {
    pthread_mutex_lock(&r->mu);
    while (!r->stop && k > r->used + 1) pthread_cond_wait(&r->cv, &r->mu);
    bool stop = r->stop;
    pthread_mutex_unlock(&r->mu);
    if (stop) break;
    uintptr_t lo;
    size_t len;
    page_range(r, &r->sl[k], &lo, &len);
    prefetch(lo, len, r->copy);
    pthread_mutex_lock(&r->mu);
    r->read = k + 1;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
  }
  return NULL;
}

/* The decoder takes slice k: waits until the reader has it in. */
static void take_slice(key_reader *r, size_t k) {
  uint64_t t0 = cz_now_ns();
  pthread_mutex_lock(&r->mu);
  r->used = k;
  pthread_cond_broadcast(&r->cv);
  while (r->read <= k) pthread_cond_wait(&r->cv, &r->mu);
  pthread_mutex_unlock(&r->mu);
  atomic_fetch_add(&key_wait_ns, cz_now_ns() - t0);
}

/* Bytes a worker copies from the file at a time (within L2/L3, where
 * the decoder finds them); less with small test slices, so that their
 * chunks cross too. */
#define CHUNK_BYTES ((size_t)1 << 20)
static size_t chunk_bytes(void) {
  return slice_bytes / 4 < CHUNK_BYTES ? slice_bytes / 4 : CHUNK_BYTES;
}

/* len bytes at off of fd into buf; CZ_ERR_IO on an error or a short file. */
static cz_err read_all(int fd, uint8_t *buf, size_t len, off_t off) {
  for (size_t got = 0; got < len;) {
    ssize_t k = pread(fd, buf + got, len - got, off + (off_t)got);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return CZ_ERR_IO;
    got += (size_t)k;
  }
  return CZ_OK;
}

/* A worker's view of a slice's encodings: read in place, or copied from
 * the key's file a chunk at a time into buf (encodings [lo, hi)). */
typedef struct {
  const key_reader *r;
  const uint8_t *base; /* the slice's first encoding, in the mapping */
  uint8_t *buf;
  size_t lo, hi;
} enc_window;

/* Room for a chunk and one word's 64 encodings past it. */
static bool window_open(enc_window *w, const key_reader *r, const uint8_t *base) {
  *w = (enc_window){r, base, NULL, 0, 0};
  return !r->copy || (w->buf = malloc(CHUNK_BYTES + 64 * CZ_G2_UNCOMPRESSED_BYTES));
}

/* Encodings [i, i + n) of the slice (n at most a chunk's or a word's),
 * copying a chunk's worth from i but not past limit; NULL with *err set
 * when the read fails. */
static const uint8_t *window_at(enc_window *w, size_t i, size_t n, size_t limit, cz_err *err) {
  const size_t enc = w->r->enc;
  if (!w->buf) return w->base + i * enc;
  if (i < w->lo || i + n > w->hi) {
    size_t hi = i + chunk_bytes() / enc;
    if (hi > limit) hi = limit;
    if (hi < i + n) hi = i + n;
    off_t off = (off_t)(w->base + i * enc - w->r->key->file);
    if ((*err = read_all(w->r->key->fd, w->buf, (hi - i) * enc, off)) != CZ_OK) return NULL;
    w->lo = i, w->hi = hi;
  }
  return w->buf + (i - w->lo) * enc;
}

typedef struct {
  const key_reader *r;
  void *dst;
  const uint8_t *src;
  bool g2;
  size_t mem;
  cz_err err[CZ_PARALLEL_MAX_THREADS];
} decode_job;

static void decode_part(void *v, size_t begin, size_t end, unsigned worker) {
  decode_job *j = v;
  enc_window w;
  cz_err e = window_open(&w, j->r, j->src) ? CZ_OK : CZ_ERR_NOMEM;
  const size_t per = chunk_bytes() / j->r->enc ? chunk_bytes() / j->r->enc : 1;
  for (size_t i = begin; i < end && e == CZ_OK; i += per) {
    size_t n = end - i < per ? end - i : per, bad = 0;
    const uint8_t *src = window_at(&w, i, n, end, &e);
    if (src)
      e = cz_g16_decode_points((uint8_t *)j->dst + i * j->mem, src, n, j->g2, CZ_POINT_ENCODING,
                               &bad);
  }
  free(w.buf);
  j->err[worker] = e;
}

/* Segment s cut to slice sl, its bases the decoded ones. */
static g16_msm_seg sub_segment(const g16_msm_seg *s, const slice *sl, const void *bases,
                               cz_fr_packed *view) {
  size_t w0 = sl->i0 / 64;
  g16_msm_seg t = {bases,
                   sl->nb,
                   s->frs ? s->frs + sl->i0 : NULL,
                   sl->i1 - sl->i0,
                   s->density ? s->density + w0 : NULL,
                   NULL,
                   NULL};
  if (s->packed) {
    /* rank[] counts from the vector's start, so others stays as it is */
    *view = (cz_fr_packed){sl->i1 - sl->i0,       s->packed->n_other,   s->packed->one + w0,
                           s->packed->other + w0, s->packed->rank + w0, s->packed->others};
    t.packed = view;
  }
  return t;
}

/* Decodes n encodings from src into dst on th workers. */
static cz_err decode_run(const key_reader *r, const uint8_t *src, size_t n, bool g2, void *dst,
                         unsigned th) {
  decode_job j = {.r = r, .dst = dst, .src = src, .g2 = g2};
  j.mem = g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine);
  unsigned workers = cz_parallel_workers(n, th);
  cz_parallel_for(n, th, decode_part, &j);
  for (unsigned w = 0; w < workers; w++)
    if (j.err[w] != CZ_OK) return j.err[w];
  return CZ_OK;
}

/* Working memory of one MSM's slices: the decoded bases, and for packed
 * segments the density of the bases kept (scalar not 0) and, per word,
 * how many live and kept bases come before it. */
typedef struct {
  void *pts;
  uint64_t *dens;
  size_t *live_before, *kept_before;
} slice_bufs;

/* A packed segment's slice keeps only the bases whose scalar is not 0: a
 * witness is mostly bits, and the MSM drops its zeros unread, so decoding
 * them would be wasted. One pass over the slice's words sets b->dens and
 * the two prefix counts; returns the kept count. */
static size_t count_slice(const key_reader *r, const slice *s, slice_bufs *b) {
  const g16_msm_seg *g = &r->segs[s->seg];
  size_t live = 0, kept = 0, w0 = s->i0 / 64, nw = (s->i1 - s->i0 + 63) / 64;
  for (size_t w = 0; w < nw; w++) {
    uint64_t l = g->density ? g->density[w0 + w] : ~(uint64_t)0;
    size_t left = s->i1 - s->i0 - 64 * w;
    if (left < 64) l &= ((uint64_t)1 << left) - 1;
    b->dens[w] = (g->packed->one[w0 + w] | g->packed->other[w0 + w]) & l;
    b->live_before[w] = live, b->kept_before[w] = kept;
    live += (size_t)__builtin_popcountll(l);
    kept += (size_t)__builtin_popcountll(b->dens[w]);
  }
  b->live_before[nw] = live, b->kept_before[nw] = kept;
  return kept;
}

/* The kept bases of words [begin, end) of a packed slice, decoded into
 * their places in pts: copied together a run at a time on the stack and
 * each run decoded in one call, on every worker (no serial copy, and no
 * buffer of the slice's encodings). */
#define KEPT_RUN 256
typedef struct {
  const key_reader *r;
  const slice *s;
  const slice_bufs *b;
  bool g2;
  cz_err err[CZ_PARALLEL_MAX_THREADS];
} kept_job;

static cz_err flush_run(const kept_job *j, const uint8_t *run, size_t n, size_t at) {
  size_t bad = 0, mem = j->g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine);
  return n ? cz_g16_decode_points((uint8_t *)j->b->pts + at * mem, run, n, j->g2, CZ_POINT_ENCODING,
                                  &bad)
           : CZ_OK;
}

static void decode_kept(void *v, size_t begin, size_t end, unsigned worker) {
  const kept_job *j = v;
  const key_reader *r = j->r;
  const g16_msm_seg *g = &r->segs[j->s->seg];
  const size_t *live = j->b->live_before;
  enc_window win;
  uint8_t run[KEPT_RUN * CZ_G2_UNCOMPRESSED_BYTES];
  size_t n = 0, at = j->b->kept_before[begin], w0 = j->s->i0 / 64;
  cz_err e =
      window_open(&win, r, (const uint8_t *)g->bases + j->s->b0 * r->enc) ? CZ_OK : CZ_ERR_NOMEM;
  for (size_t w = begin; w < end && e == CZ_OK; w++) {
    uint64_t l = g->density ? g->density[w0 + w] : ~(uint64_t)0, nz = j->b->dens[w];
    const uint8_t *src = window_at(&win, live[w], live[w + 1] - live[w], live[end], &e);
    for (uint64_t m = l; src && m && e == CZ_OK; m &= m - 1, src += r->enc) {
      if (!(nz & m & -m)) continue;
      memcpy(run + n++ * r->enc, src, r->enc);
      if (n < KEPT_RUN) continue;
      e = flush_run(j, run, n, at);
      at += n, n = 0;
    }
  }
  if (e == CZ_OK) e = flush_run(j, run, n, at);
  free(win.buf);
  ((kept_job *)v)->err[worker] = e;
}

/* Slice s decoded (its kept bases, for a packed segment) into b->pts, as
 * the segment *t to sum. */
static cz_err prepare_slice(const key_reader *r, const slice *s, bool g2, slice_bufs *b,
                            g16_msm_seg *t, cz_fr_packed *view, unsigned th) {
  const g16_msm_seg *g = &r->segs[s->seg];
  *t = sub_segment(g, s, b->pts, view);
  if (!g->packed)
    return decode_run(r, (const uint8_t *)g->bases + s->b0 * r->enc, s->nb, g2, b->pts, th);
  t->n_bases = count_slice(r, s, b);
  t->density = b->dens;
  size_t nw = (s->i1 - s->i0 + 63) / 64;
  kept_job j = {.r = r, .s = s, .b = b, .g2 = g2};
  unsigned workers = cz_parallel_workers(nw, th);
  cz_parallel_for(nw, th, decode_kept, &j);
  for (unsigned w = 0; w < workers; w++)
    if (j.err[w] != CZ_OK) return j.err[w];
  return CZ_OK;
}

static void bufs_free(slice_bufs *b) {
  if (b->pts) cz_pool_give(b->pts);
  free(b->dens);
  free(b->live_before);
  free(b->kept_before);
}

/* Room for slices of up to max_nb bases of max_ns scalars. */
static bool bufs_take(slice_bufs *b, const key_reader *r, bool g2) {
  size_t mem = g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine), max_nb = 0, max_ns = 0;
  bool packed = false;
  for (size_t k = 0; k < r->n_sl; k++) {
    const slice *s = &r->sl[k];
    if (s->nb > max_nb) max_nb = s->nb;
    if (s->i1 - s->i0 > max_ns) max_ns = s->i1 - s->i0;
    packed |= r->segs[s->seg].packed != NULL;
  }
  *b = (slice_bufs){max_nb ? cz_pool_take(max_nb * mem) : NULL, NULL, NULL, NULL};
  if (packed) {
    size_t words = max_ns / 64 + 2;
    b->dens = calloc(words, sizeof *b->dens);
    b->live_before = malloc(words * sizeof *b->live_before);
    b->kept_before = malloc(words * sizeof *b->kept_before);
  }
  return (!max_nb || b->pts) && (!packed || (b->dens && b->live_before && b->kept_before));
}

/* Each slice decoded, summed by msm into acc. */
static cz_err run_slices(key_reader *r, bool g2, g16_slice_msm msm, void *acc, unsigned th) {
  slice_bufs b;
  if (!bufs_take(&b, r, g2)) {
    bufs_free(&b);
    return CZ_ERR_NOMEM;
  }
  cz_err e = CZ_OK;
  for (size_t k = 0; k < r->n_sl && e == CZ_OK; k++) {
    const slice *s = &r->sl[k];
    take_slice(r, k);
    cz_fr_packed view;
    g16_msm_seg t;
    e = prepare_slice(r, s, g2, &b, &t, &view, th);
    if (r->key->fd >= 0 && !r->copy) {
      /* a file mapping read in place: its pages leave the process (the
       * page cache keeps them), so the key never counts in its resident
       * set for more than two slices */
      uintptr_t lo;
      size_t len;
      page_range(r, s, &lo, &len);
      madvise((void *)lo, len, MADV_DONTNEED);
    }
    if (e == CZ_OK) e = msm(acc, &t, th);
  }
  bufs_free(&b);
  return e;
}

cz_err cz_g16_msm_mapped(const g16_msm_seg *segs, size_t n_segs, bool g2, g16_slice_msm msm,
                         void *acc, unsigned th) {
  key_reader r = {.segs = segs,
                  .key = segs[0].key,
                  .copy = segs[0].key->fd >= 0 && segs[0].key->len <= copy_limit(),
                  .enc = g2 ? CZ_G2_UNCOMPRESSED_BYTES : CZ_G1_UNCOMPRESSED_BYTES};
  size_t mem = g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine), cap = 0;
  size_t max_pts = slice_bytes / mem ? slice_bytes / mem : 1;
  for (size_t k = 0; k < n_segs; k++) {
    cz_err e = plan_segment(&r, k, max_pts, &cap);
    if (e != CZ_OK) {
      free(r.sl);
      return e;
    }
  }
  /* The copies do not mark the key's pages accessed (kernel 6.3; a no-op
   * before): the reader's fault already did, and a second access would
   * move every page to the active list, whose churn cost a 32 GiB
   * partition, which streams its 47 GB key through the page cache, 30 s
   * of system time. */
  if (r.copy) (void)posix_fadvise(r.key->fd, 0, 0, POSIX_FADV_NOREUSE);
  pthread_mutex_init(&r.mu, NULL);
  pthread_cond_init(&r.cv, NULL);
  pthread_t t;
  bool started = r.n_sl && r.key->fd >= 0 && pthread_create(&t, NULL, reader_main, &r) == 0;
  if (!started) r.read = r.n_sl; /* no reader: the decoder's reads bring the pages in */
  cz_err e = run_slices(&r, g2, msm, acc, th);
  pthread_mutex_lock(&r.mu);
  r.stop = true;
  pthread_cond_broadcast(&r.cv);
  pthread_mutex_unlock(&r.mu);
  if (started) pthread_join(t, NULL);
  pthread_mutex_destroy(&r.mu);
  pthread_cond_destroy(&r.cv);
  free(r.sl);
  return e;
}
