/* A minimal test harness: CHECK records failures without stopping, and
 * TEST_MAIN_END prints "N passed, N failed" and sets the exit status. */
#ifndef CUZK_TESTS_CHECK_H
#define CUZK_TESTS_CHECK_H
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>

/* Atomic: several tests CHECK from worker threads (test_parallel,
 * test_engine, the PoSt prover), where a plain ++ can lose a failure. */
static _Atomic int check_passed, check_failed;

#define CHECK(cond) \
  do { \
    if (cond) check_passed++; \
    else { \
      check_failed++; \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    } \
  } while (0)

#define CHECK_EQ_INT(a, b) \
  do { \
    long long check_a_ = (long long)(a), check_b_ = (long long)(b); \
    if (check_a_ == check_b_) check_passed++; \
    else { \
      check_failed++; \
      fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%lld vs %lld)\n", __FILE__, __LINE__, #a, \
              #b, check_a_, check_b_); \
    } \
  } while (0)

#define CHECK_MEM(a, b, n) CHECK(memcmp((a), (b), (n)) == 0)

static inline int check_report(const char *name) {
  int passed = atomic_load(&check_passed), failed = atomic_load(&check_failed);
  printf("%s: %d passed, %d failed\n", name, passed, failed);
  return failed ? 1 : 0;
}

/* The exit status ctest counts as skipped (SKIP_RETURN_CODE, CMakeLists.txt). */
#define CHECK_SKIPPED 77

/* check_report for a test whose point is a path this host may not run (the
 * AVX-512 IFMA code on a CPU without it). missing: NULL when the path ran,
 * else why not. A failure in the parts that did run still fails; with none,
 * the run ends SKIPPED (77) rather than Passed, so the ctest summary shows
 * what this host did not cover. */
static inline int check_report_unless(const char *name, const char *missing) {
  int rc = check_report(name);
  if (rc || !missing) return rc;
  printf("%s: SKIPPED: %s\n", name, missing);
  return CHECK_SKIPPED;
}

/* Deterministic pseudo-random bytes (splitmix64) so failures reproduce. */
static unsigned long long check_rng_state = 0x9e3779b97f4a7c15ULL;
static inline unsigned long long check_rand64(void) {
  unsigned long long z = (check_rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static inline void check_rand_bytes(unsigned char *out, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = (unsigned char)check_rand64();
}

/* Parse hex (optionally 0x-prefixed) into out; returns bytes written or -1. */
static inline long check_hex(unsigned char *out, size_t cap, const char *hex) {
  if (hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) hex += 2;
  size_t len = strlen(hex);
  if (len % 2 || len / 2 > cap) return -1;
  for (size_t i = 0; i < len / 2; i++) {
    unsigned v;
    if (sscanf(hex + 2 * i, "%2x", &v) != 1) return -1;
    out[i] = (unsigned char)v;
  }
  return (long)(len / 2);
}

#endif
