/* cz_parallel_for covers every item exactly once, in contiguous per-worker
 * ranges, for any budget (including more threads than items). */
#include "check.h"
#include "cuzk/parallel.h"
#include <stdint.h>

typedef struct {
  unsigned char *hits;
  unsigned *owner;
} ctx_t;

static void mark(void *p, size_t begin, size_t end, unsigned worker) {
  ctx_t *c = p;
  for (size_t i = begin; i < end; i++) {
    c->hits[i]++;
    c->owner[i] = worker;
  }
}

int main(void) {
  CHECK(cz_parallel_threads(0) >= 1);
  CHECK_EQ_INT(cz_parallel_threads(3), 3);
  CHECK_EQ_INT(cz_parallel_threads(100000), CZ_PARALLEL_MAX_THREADS);
  CHECK_EQ_INT(cz_parallel_workers(0, 4), 0);
  CHECK_EQ_INT(cz_parallel_workers(2, 4), 2);
  CHECK_EQ_INT(cz_parallel_workers(100, 4), 4);
  static const size_t sizes[] = {0, 1, 2, 3, 7, 64, 1000, 12345};
  static const unsigned budgets[] = {1, 2, 3, 4, 8, 0};
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
    for (size_t bi = 0; bi < sizeof budgets / sizeof *budgets; bi++) {
      size_t n = sizes[si];
      unsigned char hits[12345] = {0};
      unsigned owner[12345];
      ctx_t c = {hits, owner};
      cz_parallel_for(n, budgets[bi], mark, &c);
      int all_once = 1, ordered = 1;
      unsigned workers = cz_parallel_workers(n, budgets[bi]);
      for (size_t i = 0; i < n; i++) {
        if (hits[i] != 1) all_once = 0;
        if (owner[i] >= workers || (i > 0 && owner[i] < owner[i - 1])) ordered = 0;
      }
      CHECK(all_once);
      CHECK(ordered);
      if (n >= workers && workers > 0) CHECK_EQ_INT(owner[n - 1], workers - 1);
    }
  return check_report("test_parallel");
}
