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
 * doubling. Big buffers move to a cz_huge_alloc block and their contents
 * are copied in (realloc would copy into 4 KiB pages, or mremap a huge-page
 * region to an address that splits it). False: out of memory (*p and *cap
 * unchanged). */
bool cz_grow(void **p, size_t *cap, size_t need, size_t elem);

/* The same to exactly n elements (a size hint), when *cap < n. */
bool cz_reserve(void **p, size_t *cap, size_t n, size_t elem);

/* Scratch blocks kept between calls. Returning big blocks to the kernel and
 * faulting fresh ones in again is slow on these VMs and does not run in
 * parallel: it was 200 of the 250 ms that a 2^20-point MSM spent on its
 * plan, on one thread or two. So a scratch block goes back to a
 * process-wide cache, which keeps up to 1/16 of physical memory (at most
 * 4 GiB) in at most 32 blocks, dropping the oldest first; take() reuses the
 * smallest cached block that fits and is at most twice the request.
 * Thread-safe. Blocks under 256 KiB are plain malloc. */

/* At least bytes of uninitialised memory, huge-page advised from 4 MiB.
 * NULL: out of memory. Return it with cz_scratch_give and the same bytes. */
void *cz_scratch_take(size_t bytes);

/* Gives back a block from cz_scratch_take(bytes) (NULL is a no-op): cached,
 * or freed when it does not fit the cache. */
void cz_scratch_give(void *p, size_t bytes);

/* Frees every cached block (tests, and callers done with big work). */
void cz_scratch_trim(void);

#endif
