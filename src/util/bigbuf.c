/* Big buffers on transparent huge pages: see bigbuf.h. */
#include "util/bigbuf.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE_PAGE ((size_t)2 << 20)

void cz_advise_huge(void *p, size_t bytes) {
#if defined(MADV_HUGEPAGE)
  if (bytes < 2 * HUGE_PAGE) return;
  uintptr_t b = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
  uintptr_t e = ((uintptr_t)p + bytes) & ~(uintptr_t)(HUGE_PAGE - 1);
  if (e > b) madvise((void *)b, e - b, MADV_HUGEPAGE); /* advice: failure is harmless */
#else
  (void)p;
  (void)bytes;
#endif
}

void *cz_huge_alloc(size_t bytes) {
  if (bytes < 2 * HUGE_PAGE) return malloc(bytes ? bytes : 1);
  if (bytes > SIZE_MAX - HUGE_PAGE) return NULL;
  size_t len = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
  void *p = aligned_alloc(HUGE_PAGE, len);
  if (p) cz_advise_huge(p, len);
  return p;
}

/* Measured on the 2 KiB PoRep circuit (cuzk-bench synth-only, plain path,
 * process CPU time): 0.66 M constraints per core-second with realloc +
 * late advice, 1.2 M with realloc alone, 2.5 M with the advised move. */
static bool grow_to(void **p, size_t *cap, size_t ncap, size_t elem) {
  size_t bytes = ncap * elem;
  void *q;
  if (bytes >= 2 * HUGE_PAGE) {
    if (!(q = cz_huge_alloc(bytes))) return false;
    if (*cap) memcpy(q, *p, *cap * elem);
    free(*p);
  } else if (!(q = realloc(*p, bytes ? bytes : 1))) {
    return false;
  }
  *p = q;
  *cap = ncap;
  return true;
}

bool cz_grow(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return true;
  size_t ncap = *cap ? *cap : 16;
  while (ncap < need) {
    if (ncap > SIZE_MAX / 2 / elem) return false;
    ncap *= 2;
  }
  return grow_to(p, cap, ncap, elem);
}

bool cz_reserve(void **p, size_t *cap, size_t n, size_t elem) {
  if (n <= *cap) return true;
  if (n > SIZE_MAX / elem) return false;
  return grow_to(p, cap, n, elem);
}

/* ---- scratch cache ------------------------------------------------------ */

#define SCRATCH_MIN ((size_t)256 << 10)
#define SCRATCH_SLOTS 32

static struct {
  pthread_mutex_t lock;
  size_t n, bytes, limit;
  struct {
    void *p;
    size_t cap;
  } slot[SCRATCH_SLOTS];
} scratch = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Capacity of a block asked for bytes: rounded up (to 64 KiB, or 2 MiB from
 * where blocks go on huge pages) so that requests a little apart share. */
static size_t scratch_cap(size_t bytes) {
  size_t g = bytes < 2 * HUGE_PAGE ? (size_t)64 << 10 : HUGE_PAGE;
  return (bytes + g - 1) / g * g;
}

static size_t scratch_limit(void) {
  long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
  size_t phys = pages > 0 && psz > 0 ? (size_t)pages * (size_t)psz : 0;
  size_t lim = phys / 16, max = (size_t)4 << 30;
  return lim > max ? max : lim;
}

void *cz_scratch_take(size_t bytes) {
  if (bytes < SCRATCH_MIN) return malloc(bytes ? bytes : 1);
  if (bytes > SIZE_MAX - HUGE_PAGE) return NULL;
  size_t cap = scratch_cap(bytes);
  void *p = NULL;
  pthread_mutex_lock(&scratch.lock);
  size_t best = SCRATCH_SLOTS;
  for (size_t i = 0; i < scratch.n; i++) {
    size_t c = scratch.slot[i].cap;
    if (c >= cap && c / 2 <= cap && (best == SCRATCH_SLOTS || c < scratch.slot[best].cap))
      best = i;
  }
  if (best != SCRATCH_SLOTS) {
    p = scratch.slot[best].p;
    scratch.bytes -= scratch.slot[best].cap;
    scratch.slot[best] = scratch.slot[--scratch.n];
  }
  pthread_mutex_unlock(&scratch.lock);
  return p ? p : cz_huge_alloc(cap);
}

void cz_scratch_give(void *p, size_t bytes) {
  if (!p) return;
  if (bytes < SCRATCH_MIN) {
    free(p);
    return;
  }
  size_t cap = scratch_cap(bytes);
  pthread_mutex_lock(&scratch.lock);
  if (!scratch.limit) scratch.limit = scratch_limit();
  /* Make room by dropping the oldest blocks (slot order is give order but
   * for the swaps of take). */
  while (scratch.n && (scratch.n == SCRATCH_SLOTS || scratch.bytes + cap > scratch.limit) &&
         cap <= scratch.limit) {
    free(scratch.slot[0].p);
    scratch.bytes -= scratch.slot[0].cap;
    memmove(&scratch.slot[0], &scratch.slot[1], --scratch.n * sizeof scratch.slot[0]);
  }
  bool keep = cap <= scratch.limit && scratch.n < SCRATCH_SLOTS;
  if (keep) {
    scratch.slot[scratch.n].p = p;
    scratch.slot[scratch.n].cap = cap;
    scratch.n++;
    scratch.bytes += cap;
  }
  pthread_mutex_unlock(&scratch.lock);
  if (!keep) free(p);
}

void cz_scratch_trim(void) {
  pthread_mutex_lock(&scratch.lock);
  for (size_t i = 0; i < scratch.n; i++) free(scratch.slot[i].p);
  scratch.n = scratch.bytes = 0;
  pthread_mutex_unlock(&scratch.lock);
}
