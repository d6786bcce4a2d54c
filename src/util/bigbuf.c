/* Big buffers on transparent huge pages: see bigbuf.h. */
#include "util/bigbuf.h"
#include <stdint.h>
#include <malloc.h>
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
  if (bytes >= 2 * HUGE_PAGE || cz_pool_owns(*p)) {
    if (!(q = cz_huge_alloc(bytes))) return false;
    if (*cap) memcpy(q, *p, *cap * elem);
    cz_pool_give(*p);
  } else if (!(q = realloc(*p, bytes ? bytes : 1))) {
    return false;
  }
  *p = q;
  *cap = ncap;
  return true;
}

/* from, doubled until it holds need elements of elem bytes; false when
 * that overflows. */
static bool doubled(size_t from, size_t need, size_t elem, size_t *out) {
  size_t n = from;
  while (n < need) {
    if (n > SIZE_MAX / 2 / elem) return false;
    n *= 2;
  }
  *out = n;
  return true;
}

bool cz_grow(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return true;
  size_t ncap;
  if (!doubled(*cap ? *cap : 16, need, elem, &ncap)) return false;
  return grow_to(p, cap, ncap, elem);
}

bool cz_reserve(void **p, size_t *cap, size_t n, size_t elem) {
  if (n <= *cap) return true;
  if (n > SIZE_MAX / elem) return false;
  return grow_to(p, cap, n, elem);
}

/* ---- the pool ----------------------------------------------------------- */

#define POOL_MIN ((size_t)256 << 10)
#define POOL_SLOTS 512

/* Every block the pool mapped, taken or idle: give() finds a block here (an
 * unknown pointer is malloc's and freed), and idle blocks are reused. */
static struct {
  pthread_mutex_t lock;
  size_t n, idle_bytes, taken_bytes, limit;
  uint64_t clock;
  struct {
    void *p;
    size_t cap;
    bool idle;
    uint64_t stamp; /* when it went idle: the oldest is dropped first */
  } slot[POOL_SLOTS];
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Capacity of a block asked for bytes: rounded up (to 64 KiB, or 2 MiB from
 * where blocks go on huge pages) so that requests a little apart share. */
static size_t pool_cap(size_t bytes) {
  size_t g = bytes < 2 * HUGE_PAGE ? (size_t)64 << 10 : HUGE_PAGE;
  return (bytes + g - 1) / g * g;
}

static size_t phys_bytes(void) {
  long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
  return pages > 0 && psz > 0 ? (size_t)pages * (size_t)psz : 0;
}

/* A fresh mapping of cap bytes, 2 MiB-aligned and advised onto huge pages
 * from 4 MiB (the unaligned head and tail of a larger mapping are cut).
 * Measured (cuzk-bench pool --gib 2 --rounds 4, 2-core AMD EPYC VM, THP
 * enabled = madvise, load ~10): writing a fresh mapping costs, per GiB,
 * 2.8 s (0.6 s system) advised and touched by both threads, 6.0 s (1.1 s)
 * advised and touched by one, 3.7 s (0.9 s) without advice on both; with
 * defrag = defer instead of madvise no better (3.8 s on both threads).
 * Rewriting a block the pool kept: 0.23 to 0.44 s, no system time. So:
 * huge pages, first touched by the threads that fill the block (synthesis
 * writes each slot's rows from its own worker), and then never given back
 * while the pool may keep them. */
static void *map_block(size_t cap) {
  size_t align = cap >= 2 * HUGE_PAGE ? HUGE_PAGE : 0;
  uint8_t *m = mmap(NULL, cap + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return NULL;
  if (!align) return m;
  uint8_t *p = (uint8_t *)(((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
  if (p > m) munmap(m, (size_t)(p - m));
  if (m + cap + align > p + cap) munmap(p + cap, (size_t)(m + cap + align - (p + cap)));
  cz_advise_huge(p, cap);
  return p;
}

/* Unmaps idle blocks, oldest first, until `want` bytes went or none is left
 * idle. Lock held. */
static size_t drop_idle(size_t want) {
  size_t freed = 0;
  while (freed < want) {
    size_t old = POOL_SLOTS;
    for (size_t i = 0; i < pool.n; i++)
      if (pool.slot[i].idle && (old == POOL_SLOTS || pool.slot[i].stamp < pool.slot[old].stamp))
        old = i;
    if (old == POOL_SLOTS) break;
    munmap(pool.slot[old].p, pool.slot[old].cap);
    freed += pool.slot[old].cap;
    pool.idle_bytes -= pool.slot[old].cap;
    pool.slot[old] = pool.slot[--pool.n];
  }
  return freed;
}

static void limit_init(void) {
  /* Three quarters of memory: a process proving one 32 GiB partition after
   * another keeps its ~10 GiB of buffers. The engine sets its own. */
  if (!pool.limit) pool.limit = phys_bytes() / 4 * 3;
}

/* The smallest idle block that fits cap and is at most twice it. */
static void *reuse(size_t cap) {
  size_t best = POOL_SLOTS;
  for (size_t i = 0; i < pool.n; i++) {
    size_t c = pool.slot[i].cap;
    if (pool.slot[i].idle && c >= cap && c / 2 <= cap &&
        (best == POOL_SLOTS || c < pool.slot[best].cap))
      best = i;
  }
  if (best == POOL_SLOTS) return NULL;
  pool.slot[best].idle = false;
  pool.idle_bytes -= pool.slot[best].cap;
  pool.taken_bytes += pool.slot[best].cap;
  return pool.slot[best].p;
}

void *cz_pool_take(size_t bytes) {
  if (bytes < POOL_MIN) return malloc(bytes ? bytes : 1);
  if (bytes > SIZE_MAX - 2 * HUGE_PAGE) return NULL;
  size_t cap = pool_cap(bytes);
  pthread_mutex_lock(&pool.lock);
  limit_init();
  void *p = reuse(cap);
  /* Room in the table: an idle block goes, else the block is malloc's. */
  if (!p && pool.n == POOL_SLOTS) drop_idle(1);
  bool track = !p && pool.n < POOL_SLOTS;
  pthread_mutex_unlock(&pool.lock);
  if (p) return p;
  if (!track) return cz_huge_alloc(bytes);
  if (!(p = map_block(cap))) return NULL;
  pthread_mutex_lock(&pool.lock);
  if (pool.n < POOL_SLOTS) {
    pool.slot[pool.n++] = (typeof(pool.slot[0])){p, cap, false, 0};
    pool.taken_bytes += cap;
  } else { /* the table filled meanwhile: not pooled after all */
    pthread_mutex_unlock(&pool.lock);
    munmap(p, cap);
    return cz_huge_alloc(bytes);
  }
  pthread_mutex_unlock(&pool.lock);
  return p;
}

/* The slot of p, or pool.n when the pool did not map p. Lock held. */
static size_t slot_of(const void *p) {
  size_t i = 0;
  while (i < pool.n && pool.slot[i].p != p) i++;
  return i;
}

/* The capacity of p if the pool mapped it, else 0. */
static size_t pool_cap_of(const void *p) {
  pthread_mutex_lock(&pool.lock);
  size_t i = slot_of(p);
  size_t cap = i < pool.n ? pool.slot[i].cap : 0;
  pthread_mutex_unlock(&pool.lock);
  return p ? cap : 0;
}

bool cz_pool_owns(const void *p) { return pool_cap_of(p) != 0; }

size_t cz_buf_usable(void *p) {
  size_t cap = pool_cap_of(p);
  return cap ? cap : p ? malloc_usable_size(p) : 0;
}

/* Taken slot i goes idle (dropping the oldest idle blocks over the
 * limit), or is unmapped at once. Lock held. */
static void release_locked(size_t i, bool unmap) {
  if (unmap) {
    munmap(pool.slot[i].p, pool.slot[i].cap);
    pool.taken_bytes -= pool.slot[i].cap;
    pool.slot[i] = pool.slot[--pool.n];
    return;
  }
  limit_init();
  pool.slot[i].idle = true;
  pool.slot[i].stamp = ++pool.clock;
  pool.idle_bytes += pool.slot[i].cap;
  pool.taken_bytes -= pool.slot[i].cap;
  if (pool.idle_bytes > pool.limit) drop_idle(pool.idle_bytes - pool.limit);
}

/* cz_pool_give, and (transient) cz_pool_give_transient's rule. */
static void give(void *p, bool transient) {
  if (!p) return;
  pthread_mutex_lock(&pool.lock);
  size_t i = slot_of(p);
  if (i == pool.n) {
    pthread_mutex_unlock(&pool.lock);
    free(p);
    return;
  }
  release_locked(i, transient && pool.slot[i].cap >= phys_bytes() / 8);
  pthread_mutex_unlock(&pool.lock);
}

void cz_pool_give(void *p) { give(p, false); }

void cz_pool_give_transient(void *p) { give(p, true); }

size_t cz_pool_trim(size_t want) {
  pthread_mutex_lock(&pool.lock);
  size_t freed = drop_idle(want);
  pthread_mutex_unlock(&pool.lock);
  return freed;
}

void cz_pool_set_limit(size_t bytes) {
  pthread_mutex_lock(&pool.lock);
  pool.limit = bytes ? bytes : 1;
  if (pool.idle_bytes > pool.limit) drop_idle(pool.idle_bytes - pool.limit);
  pthread_mutex_unlock(&pool.lock);
}

void cz_pool_stats(cz_pool_usage *out) {
  pthread_mutex_lock(&pool.lock);
  limit_init();
  out->idle_bytes = pool.idle_bytes;
  out->taken_bytes = pool.taken_bytes;
  out->limit = pool.limit;
  pthread_mutex_unlock(&pool.lock);
}
