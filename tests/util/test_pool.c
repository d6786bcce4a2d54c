/* The pool (util/bigbuf.h): blocks come back for requests that fit them
 * (and at most twice as big), are usable over their whole size, are not
 * handed out twice, survive concurrent use from several threads, are kept
 * idle up to the limit and trimmed on demand; a reused block faults in no
 * new pages (minor faults from /proc/self/stat); a pointer the pool did not
 * map is freed by give. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "util/bigbuf.h"

#define MIB ((size_t)1 << 20)

static void *churn(void *arg) {
  uintptr_t id = (uintptr_t)arg;
  for (int i = 0; i < 200; i++) {
    size_t bytes = (size_t)(1 + (i + id) % 5) * MIB;
    unsigned char *p = cz_pool_take(bytes);
    if (!p) return (void *)1;
    memset(p, (int)id, bytes);
    /* Another thread holding the same block would overwrite it. */
    for (size_t j = 0; j < bytes; j += 4096)
      if (p[j] != (unsigned char)id) return (void *)1;
    cz_pool_give(p);
  }
  return NULL;
}

/* Minor page faults of this process so far (field 10 of /proc/self/stat). */
static unsigned long minflt(void) {
  FILE *f = fopen("/proc/self/stat", "r");
  unsigned long v = 0;
  if (!f) return 0;
  char buf[1024];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  char *p = strrchr(buf, ')'); /* the command name may hold spaces */
  if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %lu", &v) != 1) v = 0;
  return v;
}

static void reuse_faults_nothing(void) {
  const size_t bytes = 64 * MIB;
  unsigned char *p = cz_pool_take(bytes);
  CHECK(p != NULL);
  memset(p, 1, bytes); /* faulted in now */
  cz_pool_give(p);
  unsigned long f0 = minflt();
  unsigned char *q = cz_pool_take(bytes);
  memset(q, 2, bytes);
  unsigned long f1 = minflt();
  CHECK(q == p);
  printf("reused 64 MiB block: %lu minor faults (first use faulted it in)\n", f1 - f0);
  CHECK(f1 - f0 < 16); /* a few for the stack and stdio, never one per page */
  cz_pool_give(q);
}

static void limit_and_trim(void) {
  cz_pool_trim(SIZE_MAX);
  cz_pool_set_limit(10 * MIB);
  void *x = cz_pool_take(8 * MIB), *y = cz_pool_take(8 * MIB);
  cz_pool_give(x);
  cz_pool_give(y); /* 16 MiB idle > 10: the older (x) is unmapped */
  cz_pool_usage u;
  cz_pool_stats(&u);
  CHECK_EQ_INT(u.idle_bytes, 8 * MIB);
  CHECK_EQ_INT(u.taken_bytes, 0);
  CHECK(cz_pool_take(8 * MIB) == y);
  cz_pool_give(y);
  CHECK_EQ_INT(cz_pool_trim(SIZE_MAX), 8 * MIB);
  cz_pool_stats(&u);
  CHECK_EQ_INT(u.idle_bytes, 0);
  cz_pool_set_limit((size_t)1 << 40);
}

/* A one-step block: kept idle when small, unmapped when an eighth of the
 * machine (mapped, never touched: no memory is used). */
static void transient_blocks(void) {
  cz_pool_usage u0, u;
  cz_pool_trim(SIZE_MAX);
  void *small = cz_pool_take(8 * MIB);
  CHECK(small != NULL);
  cz_pool_give_transient(small);
  cz_pool_stats(&u);
  CHECK(u.idle_bytes >= 8 * MIB);
  CHECK(cz_pool_take(8 * MIB) == small); /* kept, and reused */
  cz_pool_give(small);
  size_t big = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE) / 8;
  cz_pool_stats(&u0);
  void *p = cz_pool_take(big);
  CHECK(p != NULL && cz_pool_owns(p));
  cz_pool_give_transient(p);
  cz_pool_stats(&u);
  CHECK(!cz_pool_owns(p));
  CHECK(u.idle_bytes == u0.idle_bytes && u.taken_bytes == u0.taken_bytes);
  cz_pool_give_transient(NULL);
  cz_pool_give_transient(malloc(100)); /* not the pool's: freed */
}

int main(void) {
  cz_pool_trim(SIZE_MAX);
  /* Reuse: the same request gets the block it gave back. */
  unsigned char *a = cz_pool_take(6 * MIB);
  CHECK(a != NULL);
  memset(a, 0xab, 6 * MIB); /* every byte usable */
  cz_pool_give(a);
  unsigned char *b = cz_pool_take(6 * MIB - 100);
  CHECK(b == a);
  /* Taken blocks are not handed out again. */
  unsigned char *c = cz_pool_take(6 * MIB);
  CHECK(c != NULL && c != b);
  cz_pool_give(b);
  cz_pool_give(c);
  /* A request under half an idle block does not take it. */
  unsigned char *d = cz_pool_take(2 * MIB);
  CHECK(d != a && d != c);
  memset(d, 1, 2 * MIB);
  cz_pool_give(d);
  /* Small blocks are plain malloc, NULL is a no-op, malloc's are freed. */
  void *s = cz_pool_take(100);
  CHECK(s != NULL);
  cz_pool_give(s);
  cz_pool_give(NULL);
  cz_pool_give(malloc(8 * MIB));
  for (int i = 0; i < 40; i++) {
    void *p = cz_pool_take((size_t)(i % 7 + 1) * MIB);
    CHECK(p != NULL);
    cz_pool_give(p);
  }
  pthread_t t[4];
  for (uintptr_t i = 0; i < 4; i++) pthread_create(&t[i], NULL, churn, (void *)(i + 1));
  for (int i = 0; i < 4; i++) {
    void *r;
    pthread_join(t[i], &r);
    CHECK(r == NULL);
  }
  reuse_faults_nothing();
  limit_and_trim();
  transient_blocks();
  return check_report("test_pool");
}
