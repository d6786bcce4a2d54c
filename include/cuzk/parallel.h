/* Layer: util */
/* A minimal data-parallel loop on pthreads (src/util/parallel.c), shared by
 * the NTT, MSM and other kernels. Every parallel kernel takes a thread
 * budget (n_threads) so that synthesis and proving can share the machine
 * without oversubscription; n_threads = 0 means "all online cores". No
 * state is shared between calls: any thread may call any function,
 * concurrently. */
#ifndef CUZK_PARALLEL_H
#define CUZK_PARALLEL_H
#include <stddef.h>

/* Upper bound on the workers one call uses, whatever the budget says. */
#define CZ_PARALLEL_MAX_THREADS 256

/* One worker's share: items [begin, end). worker is in [0, workers) where
 * workers = cz_parallel_workers(n_items, n_threads), so callers may index
 * per-worker scratch with it. */
typedef void (*cz_parallel_fn)(void *ctx, size_t begin, size_t end, unsigned worker);

/* The budget n_threads resolved: 0 -> number of online cores (at least 1),
 * capped at CZ_PARALLEL_MAX_THREADS. */
unsigned cz_parallel_threads(unsigned n_threads);

/* Workers cz_parallel_for will use for n_items: min(threads, n_items), and 0
 * when n_items is 0. */
unsigned cz_parallel_workers(size_t n_items, unsigned n_threads);

/* Split [0, n_items) into cz_parallel_workers() contiguous ranges of nearly
 * equal size (in worker order) and run fn on each, the caller's thread taking
 * worker 0; returns when all are done. A worker that cannot be started runs
 * on the caller's thread instead, so fn always covers every item exactly once.
 * Threads are created per call (no pool), and fn's calls run concurrently:
 * fn must not write shared data without its own synchronisation, and must
 * not call cz_parallel_for with a budget that would oversubscribe. */
void cz_parallel_for(size_t n_items, unsigned n_threads, cz_parallel_fn fn, void *ctx);

#endif
