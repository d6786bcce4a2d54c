/* The circom test circuits of tests/data/circom (made by tests/circom/gen.sh
 * with circom2 and snarkjs), read for the tests. */
#ifndef CUZK_TESTS_CIRCOM_FIXTURE_H
#define CUZK_TESTS_CIRCOM_FIXTURE_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/circom.h"

#define FIXTURE_DIR "tests/data/circom/"

/* The r and s that tests/circom/prove_fixed.mjs gives snarkjs. */
#define FIXED_R 12345678901234567890ULL

/* A file of a fixture as bytes (NUL after them); NULL (and a message)
 * when it is missing. */
static inline char *fixture_file(const char *circuit, const char *name, size_t *len) {
  char path[256], msg[256];
  snprintf(path, sizeof path, FIXTURE_DIR "%s/%s", circuit, name);
  char *text = NULL;
  if (cz_read_file(path, &text, len, msg, sizeof msg) != CZ_OK) {
    fprintf(stderr, "fixture: %s\n", msg);
    return NULL;
  }
  return text;
}

static inline void fixture_path(char *out, size_t cap, const char *circuit, const char *name) {
  snprintf(out, cap, FIXTURE_DIR "%s/%s", circuit, name);
}

/* fixed r and s as field elements. */
static inline void fixture_rs(cz_fr *r, cz_fr *s) {
  cz_fr_from_u64(r, FIXED_R);
  /* 98765432109876543210 = 9876543210 * 10^10 + 9876543210 */
  cz_fr a, b;
  cz_fr_from_u64(&a, 9876543210ULL);
  cz_fr_from_u64(&b, 10000000000ULL);
  cz_fr_mul(s, &a, &b);
  cz_fr_add(s, s, &a);
}

#endif
