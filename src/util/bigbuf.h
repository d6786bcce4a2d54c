/* Big buffers on transparent huge pages (internal).
 *
 * Where the kernel leaves THP to madvise, the first touch of a big buffer
 * costs one page fault per 4 KiB (20-35 us each on these VMs) and its
 * strided reads one TLB miss per page: 258 MB of a/b/c took 1.2 s of faults
 * against 0.03 s on huge pages, and the H transforms run twice as long on
 * 4 KiB pages. Every buffer here stays malloc's: free() releases it. */
#ifndef CUZK_UTIL_BIGBUF_H
#define CUZK_UTIL_BIGBUF_H
#include <stdbool.h>
#include <stddef.h>

/* Ask for huge pages over the 2 MiB-aligned part of [p, p + bytes) (no-op
 * under 4 MiB or without MADV_HUGEPAGE; the advice may fail harmlessly). */
void cz_advise_huge(void *p, size_t bytes);

/* bytes of uninitialised memory: from 4 MiB on, a 2 MiB-aligned block
 * advised onto huge pages before anything touches it. NULL: out of memory. */
void *cz_huge_alloc(size_t bytes);

/* Grow *p (elements of size elem, capacity *cap) to hold at least need,
 * doubling. *p may be malloc's, a cz_huge_alloc block or a pool block (see
 * below). Big buffers move to a cz_huge_alloc block and their contents
 * are copied in (realloc would copy into 4 KiB pages, or mremap a huge-page
 * region to an address that splits it). False: out of memory (*p and *cap
 * unchanged). */
bool cz_grow(void **p, size_t *cap, size_t need, size_t elem);

/* The same to exactly n elements (a size hint), when *cap < n. */
bool cz_reserve(void **p, size_t *cap, size_t n, size_t elem);

/* The pool: big blocks kept between uses. Returning big blocks to the
 * kernel and faulting fresh ones in again is slow on these VMs and does not
 * run in parallel: it was 200 of the 250 ms that a 2^20-point MSM spent on
 * its plan, and more than half the CPU time of a 32 GiB PoRep partition's
 * synthesis (16.5 GB faulted in per partition, at 1 to 4 GB/s of system
 * time, against 10 to 20 GB/s to rewrite a block in place). So big blocks
 * (a proof's a/b/c and witness, MSM plans and buckets) go back to a
 * process-wide pool, which keeps idle blocks up to a limit (default three
 * quarters of physical memory; the engine sets its own and trims the pool
 * before anything waits for memory), dropping the oldest first; take()
 * reuses the smallest idle block that fits and is at most twice the
 * request. Thread-safe. Blocks under 256 KiB are plain malloc. */

/* At least bytes of uninitialised memory (a reused block holds old data),
 * 2 MiB-aligned and huge-page advised from 4 MiB. NULL: out of memory.
 * Return it with cz_pool_give. */
void *cz_pool_take(size_t bytes);

/* Gives back a block from cz_pool_take: kept idle, or unmapped when the
 * idle blocks would pass the limit. Any other pointer (malloc's, or a
 * cz_huge_alloc block) is freed, and NULL is a no-op, so that buffers of
 * either origin may be released here. Never a pointer into a block. */
void cz_pool_give(void *p);

/* The same for a block made for one step that its owner may not want
 * again for a while (the prover's c, made for H): a block of at least an
 * eighth of physical memory is unmapped now, a smaller one kept idle as
 * cz_pool_give keeps it. Kept idle through a 32 GiB partition's MSMs, c
 * (4.3 GB) would be a third of the partition's peak on a 24 GB machine;
 * on a large one, or for a small proof, faulting a fresh block in again
 * (0.3-1 s per GB here) would cost more than the memory. */
void cz_pool_give_transient(void *p);

/* Whether p is a block of the pool (taken or idle). */
bool cz_pool_owns(const void *p);

/* Bytes usable at p: a pool block's capacity, else malloc_usable_size (p
 * from malloc, aligned_alloc or cz_huge_alloc); 0 for NULL. */
size_t cz_buf_usable(void *p);

/* Unmaps idle blocks, oldest first, until at least `want` bytes went or
 * none is idle (SIZE_MAX: all of them). Returns the bytes unmapped. */
size_t cz_pool_trim(size_t want);

/* The most bytes kept idle (0 is taken as 1: nothing is kept); idle blocks
 * over it are unmapped now. */
void cz_pool_set_limit(size_t bytes);

typedef struct {
  size_t idle_bytes, taken_bytes, limit;
} cz_pool_usage;
void cz_pool_stats(cz_pool_usage *out);

#endif
