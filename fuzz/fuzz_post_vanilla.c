/* libFuzzer: bincode FallbackPoStSectorProof parsing (cz_post_vanilla_parse).
 * Inputs starting with '!' are an edit script applied to a valid vanilla
 * proof built here over a small 8-8-2 Poseidon tree (all three path kinds'
 * code is reached once the variant byte mutates): each 3-byte group
 * (pos_hi, pos_lo, byte) overwrites one byte at (pos % len). Invariants:
 * an error owns nothing and says why; whatever parses writes back to
 * exactly the input bytes (the format has one encoding per value). */
#include <stdlib.h>
#include <string.h>
#include "cuzk/post.h"

static uint8_t *base;
static size_t base_len;

static bool zero(const void *p, size_t n) {
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++)
    if (b[i]) return false;
  return true;
}

static void check(const uint8_t *in, size_t len) {
  cz_post_vanilla v;
  char msg[256];
  cz_err e = cz_post_vanilla_parse(&v, in, len, 0, msg, sizeof msg);
  if (e != CZ_OK) {
    if (!zero(&v, sizeof v) || !msg[0]) abort();
    return;
  }
  size_t n = cz_post_vanilla_write(NULL, &v);
  if (n != len) abort();
  uint8_t *out = malloc(n ? n : 1);
  if (!out) abort();
  if (cz_post_vanilla_write(out, &v) != n || memcmp(out, in, n)) abort();
  free(out);
  cz_post_vanilla_free(&v);
}

/* One SectorProof with 4 inclusions over a 128-leaf 8-8-2 tree. */
static void make_base(void) {
  static const cz_merkle_shape s = {CZ_MERKLE_POSEIDON, 8, 8, 2};
  cz_fr leaves[128];
  for (int i = 0; i < 128; i++) cz_fr_from_u64(&leaves[i], 3 * (uint64_t)i + 1);
  cz_merkle_tree t;
  if (cz_merkle_tree_build(&t, &s, leaves, 128) != CZ_OK) abort();
  static cz_post_inclusion inc[4];
  static cz_post_sector_proof sp;
  cz_post_vanilla v = {.sector_id = 7, .sectors = &sp, .n_sectors = 1};
  cz_fr_from_u64(&v.comm_r, 5);
  cz_fr_from_u64(&sp.comm_c, 6);
  sp.comm_r_last = t.root;
  sp.inclusions = inc;
  sp.n_inclusions = 4;
  for (size_t i = 0; i < 4; i++) {
    if (cz_merkle_prove(&t, 37 * i, &inc[i].proof) != CZ_OK) abort();
    inc[i].variant = 2;
    inc[i].n_base = 1;
    inc[i].n_sub = 1;
    inc[i].n_top = 1;
  }
  cz_merkle_tree_free(&t);
  base_len = cz_post_vanilla_write(NULL, &v);
  base = malloc(base_len);
  if (!base || cz_post_vanilla_write(base, &v) != base_len) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 0 && data[0] == '!') {
    if (!base) make_base();
    uint8_t *t = malloc(base_len);
    if (!t) return 0;
    memcpy(t, base, base_len);
    for (size_t i = 1; i + 3 <= size; i += 3)
      t[((size_t)data[i] << 8 | data[i + 1]) % base_len] = data[i + 2];
    check(t, base_len);
    free(t);
    return 0;
  }
  check(data, size);
  return 0;
}
