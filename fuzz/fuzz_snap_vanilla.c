/* libFuzzer: bincode PartitionProof parsing (cz_snap_vanilla_parse).
 * Inputs starting with '!' are an edit script applied to a valid partition
 * proof built here (8 apex leaves, 4 challenges; tree R 8-8-2 Poseidon so
 * that the Sub and Top paths are reached once a variant byte mutates, tree
 * D binary SHA-256): each 3-byte group (pos_hi, pos_lo, byte) overwrites
 * one byte at (pos % len). Invariants: an error owns nothing and says why;
 * whatever parses writes back to exactly the input bytes (the format has
 * one encoding per value). */
#include <stdlib.h>
#include <string.h>
#include "cuzk/snap.h"

static uint8_t *base;
static size_t base_len;

static bool zero(const void *p, size_t n) {
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++)
    if (b[i]) return false;
  return true;
}

static void check(const uint8_t *in, size_t len) {
  cz_snap_partition_proof v;
  char msg[256];
  cz_err e = cz_snap_vanilla_parse(&v, in, len, 0, msg, sizeof msg);
  if (e != CZ_OK) {
    if (!zero(&v, sizeof v) || !msg[0]) abort();
    return;
  }
  size_t n = cz_snap_vanilla_write(NULL, &v);
  if (n != len) abort();
  uint8_t *out = malloc(n ? n : 1);
  if (!out) abort();
  if (cz_snap_vanilla_write(out, &v) != n || memcmp(out, in, n)) abort();
  free(out);
  cz_snap_vanilla_free(&v);
}

static void prove(const cz_merkle_tree *t, size_t c, uint32_t variant, cz_vanilla_merkle *m) {
  memset(m, 0, sizeof *m);
  if (cz_merkle_prove(t, c, &m->proof) != CZ_OK) abort();
  m->variant = variant;
  m->n_base = (uint32_t)m->proof.n_levels - (variant >= 1) - (variant == 2);
  m->n_sub = variant >= 1;
  m->n_top = variant == 2;
}

static void make_base(void) {
  static const cz_merkle_shape sr = {CZ_MERKLE_POSEIDON, 8, 8, 2}, sd = {CZ_MERKLE_SHA256, 2, 0, 0};
  cz_fr leaves[128];
  for (int i = 0; i < 128; i++) cz_fr_from_u64(&leaves[i], 3 * (uint64_t)i + 1);
  cz_merkle_tree tr, td;
  if (cz_merkle_tree_build(&tr, &sr, leaves, 128) != CZ_OK) abort();
  if (cz_merkle_tree_build(&td, &sd, leaves, 128) != CZ_OK) abort();
  static cz_fr apex[8];
  static cz_snap_challenge_proof ch[4];
  for (int i = 0; i < 8; i++) cz_fr_from_u64(&apex[i], 40 + (uint64_t)i);
  for (size_t i = 0; i < 4; i++) {
    prove(&tr, 37 * i, 2, &ch[i].proof_r_old);
    prove(&td, 37 * i, 0, &ch[i].proof_d_new);
    prove(&tr, 37 * i + 1, 2, &ch[i].proof_r_new);
  }
  cz_merkle_tree_free(&tr);
  cz_merkle_tree_free(&td);
  cz_snap_partition_proof v = {.apex_leaves = apex, .n_apex = 8, .challenges = ch,
                               .n_challenges = 4};
  cz_fr_from_u64(&v.comm_c, 6);
  base_len = cz_snap_vanilla_write(NULL, &v);
  base = malloc(base_len);
  if (!base || cz_snap_vanilla_write(base, &v) != base_len) abort();
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
