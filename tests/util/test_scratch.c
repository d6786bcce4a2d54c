/* cz_scratch_take/give: blocks come back for requests that fit them (and
 * at most twice as big), are usable over their whole size, are not handed
 * out twice, and survive concurrent use from several threads. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "util/bigbuf.h"

#define MIB ((size_t)1 << 20)

static void *churn(void *arg) {
  uintptr_t id = (uintptr_t)arg;
  for (int i = 0; i < 200; i++) {
    size_t bytes = (size_t)(1 + (i + id) % 5) * MIB;
    unsigned char *p = cz_scratch_take(bytes);
    if (!p) return (void *)1;
    memset(p, (int)id, bytes);
    /* Another thread holding the same block would overwrite it. */
    for (size_t j = 0; j < bytes; j += 4096)
      if (p[j] != (unsigned char)id) return (void *)1;
    cz_scratch_give(p, bytes);
  }
  return NULL;
}

int main(void) {
  cz_scratch_trim();
  /* Reuse: the same request gets the block it gave back. */
  unsigned char *a = cz_scratch_take(6 * MIB);
  CHECK(a != NULL);
  memset(a, 0xab, 6 * MIB); /* every byte usable */
  cz_scratch_give(a, 6 * MIB);
  unsigned char *b = cz_scratch_take(6 * MIB - 100);
  CHECK(b == a);
  /* Taken blocks are not handed out again. */
  unsigned char *c = cz_scratch_take(6 * MIB);
  CHECK(c != NULL && c != b);
  cz_scratch_give(b, 6 * MIB - 100);
  cz_scratch_give(c, 6 * MIB);
  /* A request under half a cached block does not take it. */
  unsigned char *d = cz_scratch_take(2 * MIB);
  CHECK(d != a && d != c);
  memset(d, 1, 2 * MIB);
  cz_scratch_give(d, 2 * MIB);
  /* Small blocks are plain malloc, NULL is a no-op. */
  void *s = cz_scratch_take(100);
  CHECK(s != NULL);
  cz_scratch_give(s, 100);
  cz_scratch_give(NULL, 8 * MIB);
  /* Blocks past the cache's limit are freed on give (no crash, no leak
   * checked here beyond ASan's). */
  for (int i = 0; i < 40; i++) {
    void *p = cz_scratch_take((size_t)(i % 7 + 1) * MIB);
    CHECK(p != NULL);
    cz_scratch_give(p, (size_t)(i % 7 + 1) * MIB);
  }
  pthread_t t[4];
  for (uintptr_t i = 0; i < 4; i++) pthread_create(&t[i], NULL, churn, (void *)(i + 1));
  for (int i = 0; i < 4; i++) {
    void *r;
    pthread_join(t[i], &r);
    CHECK(r == NULL);
  }
  cz_scratch_trim();
  return check_report("test_scratch");
}
