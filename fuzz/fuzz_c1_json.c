/* libFuzzer: C1 JSON parsing (cz_porep_c1_parse), plain or in Curio's
 * wrapper. Inputs starting with '!' are an edit script applied to a real
 * synthetic 2 KiB C1 (so that mutations reach deep fields): each 3-byte
 * group (pos_hi, pos_lo, byte) overwrites one byte of the C1's text at
 * (pos % len). Invariant: whatever parses must write back (to_json) to
 * text that parses to the identical model and writes the same text. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/porep.h"

static char *base_json;
static size_t base_len;

static bool same(const cz_porep_c1 *a, const cz_porep_c1 *b) {
  size_t n = (size_t)a->n_partitions * a->n_challenges;
  return a->registered == b->registered && a->n_partitions == b->n_partitions &&
         a->n_challenges == b->n_challenges && !memcmp(a->comm_r, b->comm_r, 32) &&
         !memcmp(a->comm_d, b->comm_d, 32) && !memcmp(a->replica_id, b->replica_id, 32) &&
         !memcmp(a->seed, b->seed, 32) && !memcmp(a->ticket, b->ticket, 32) &&
         !memcmp(a->proofs, b->proofs, n * sizeof *a->proofs);
}

static void check(const char *in, size_t len) {
  cz_porep_c1 a, b;
  char msg[256];
  cz_err e = cz_porep_c1_parse(&a, in, len, msg, sizeof msg);
  if (e != CZ_OK) {
    if (a.proofs || a.registered || !msg[0]) abort(); /* errors own nothing and say why */
    return;
  }
  char *j1, *j2;
  size_t n1, n2;
  if (cz_porep_c1_to_json(&a, &j1, &n1) != CZ_OK) abort();
  if (cz_porep_c1_parse(&b, j1, n1, msg, sizeof msg) != CZ_OK || !same(&a, &b)) abort();
  if (cz_porep_c1_to_json(&b, &j2, &n2) != CZ_OK || n1 != n2 || memcmp(j1, j2, n1)) abort();
  free(j1);
  free(j2);
  cz_porep_c1_free(&a);
  cz_porep_c1_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 0 && data[0] == '!') {
    if (!base_json) {
      cz_porep_c1 c1;
      if (cz_porep_c1_synthetic(&c1, cz_registered_porep_by_id(5), 1) != CZ_OK) abort();
      if (cz_porep_c1_to_json(&c1, &base_json, &base_len) != CZ_OK) abort();
      cz_porep_c1_free(&c1);
    }
    char *t = malloc(base_len);
    if (!t) return 0;
    memcpy(t, base_json, base_len);
    for (size_t i = 1; i + 3 <= size; i += 3)
      t[((size_t)data[i] << 8 | data[i + 1]) % base_len] = (char)data[i + 2];
    check(t, base_len);
    free(t);
    return 0;
  }
  check((const char *)data, size);
  return 0;
}
