/* The SHA-256 gadget, as bellpepper's gadgets/sha256.rs: message schedule
 * with xor/rotr/shr and 4-operand addmany, rounds whose new a and e stay
 * deferred (operand lists) until used, so that each becomes one addmany of
 * 6 or 7 operands, all additions sharing MultiEq constraints. */
#include <string.h>
#include "gadgets/gadget_util.h"

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static const uint32_t IV[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

void cz_sha256_iv(cz_u32 out[8]) {
  for (int i = 0; i < 8; i++) cz_u32_const(&out[i], IV[i]);
}

/* bellpepper's Maybe: a concrete word, or the operands of a sum not yet
 * computed. */
typedef struct {
  bool deferred;
  size_t n;
  cz_u32 v[8]; /* concrete: v[0] */
} maybe_u32;

/* Maybe::compute in namespace name: a concrete word is returned as is
 * (`others` ignored, as bellpepper does), a deferred one becomes one
 * addmany of its operands followed by `others`. */
static void maybe_compute(cz_multieq *m, cz_u32 *out, maybe_u32 *x, const cz_u32 *others,
                          size_t n_others, const char *name) {
  cz_cs *cs = m->cs;
  CZ_PUSH_NS(cs, "%s", name);
  if (!x->deferred) {
    *out = x->v[0];
  } else {
    for (size_t i = 0; i < n_others; i++) x->v[x->n++] = others[i];
    /* x->n <= 8 (the size of v): within addmany's 2..10, only sticky errors */
    cz_cs_sticky(cz_u32_addmany(m, out, x->v, x->n));
  }
  CZ_POP_NS(cs);
}

/* out = x.rotr(r0) ^ x.rotr(r1) ^ (shift ? x.shr(r2) : x.rotr(r2)) with
 * bellpepper's namespaces "first xor for sN" / "second xor for sN". */
static void sigma(cz_cs *cs, cz_u32 *out, const cz_u32 *x, unsigned r0, unsigned r1, unsigned r2,
                  bool shift, const char *sname) {
  cz_u32 s, t;
  cz_u32_rotr(&s, x, r0);
  cz_u32_rotr(&t, x, r1);
  CZ_PUSH_NS(cs, "first xor for %s", sname);
  cz_cs_sticky(cz_u32_xor(cs, &s, &s, &t));
  CZ_POP_NS(cs);
  if (shift) cz_u32_shr(&t, x, r2);
  else cz_u32_rotr(&t, x, r2);
  CZ_PUSH_NS(cs, "second xor for %s", sname);
  cz_cs_sticky(cz_u32_xor(cs, out, &s, &t));
  CZ_POP_NS(cs);
}

static void add2(cz_multieq *m, cz_u32 *out, const cz_u32 *x, const cz_u32 *y, const char *name) {
  cz_u32 ops[2] = {*x, *y};
  CZ_PUSH_NS(m->cs, "%s", name);
  cz_cs_sticky(cz_u32_addmany(m, out, ops, 2)); /* 2 operands: only sticky errors */
  CZ_POP_NS(m->cs);
}

cz_err cz_sha256_compression(cz_cs *cs, cz_u32 out[8], const cz_bool in[512], const cz_u32 cur[8]) {
  cz_u32 w[64];
  for (int i = 0; i < 16; i++) cz_u32_from_bits_be(&w[i], in + 32 * i);
  cz_multieq m;
  cz_multieq_init(&m, cs);

  for (int i = 16; i < 64; i++) {
    CZ_PUSH_NS(cs, "w extension %d", i);
    cz_u32 ops[4];
    ops[0] = w[i - 16];
    sigma(cs, &ops[1], &w[i - 15], 7, 18, 3, true, "s0");
    ops[2] = w[i - 7];
    sigma(cs, &ops[3], &w[i - 2], 17, 19, 10, true, "s1");
    CZ_PUSH_NS(cs, "computation of w[i]");
    cz_cs_sticky(cz_u32_addmany(&m, &w[i], ops, 4)); /* 4 operands: only sticky errors */
    CZ_POP_NS(cs);
    CZ_POP_NS(cs);
  }

  maybe_u32 a = {false, 1, {cur[0]}}, e = {false, 1, {cur[4]}};
  cz_u32 b = cur[1], c = cur[2], d = cur[3], f = cur[5], g = cur[6], h = cur[7];
  for (int i = 0; i < 64; i++) {
    CZ_PUSH_NS(cs, "compression round %d", i);
    cz_u32 new_e, new_a, s1, ch, s0, maj;
    maybe_compute(&m, &new_e, &e, NULL, 0, "deferred e computation");
    sigma(cs, &s1, &new_e, 6, 11, 25, false, "s1");
    CZ_PUSH_NS(cs, "ch");
    cz_cs_sticky(cz_u32_sha256_ch(cs, &ch, &new_e, &f, &g));
    CZ_POP_NS(cs);
    /* temp1 = h, s1, ch, K[i], w[i] */
    cz_u32 temp1[5];
    temp1[0] = h;
    temp1[1] = s1;
    temp1[2] = ch;
    cz_u32_const(&temp1[3], K[i]);
    temp1[4] = w[i];

    maybe_compute(&m, &new_a, &a, NULL, 0, "deferred a computation");
    sigma(cs, &s0, &new_a, 2, 13, 22, false, "s0");
    CZ_PUSH_NS(cs, "maj");
    cz_cs_sticky(cz_u32_sha256_maj(cs, &maj, &new_a, &b, &c));
    CZ_POP_NS(cs);

    h = g;
    g = f;
    f = new_e;
    e.deferred = true;
    e.n = 6;
    memcpy(e.v, temp1, sizeof temp1);
    e.v[5] = d;
    d = c;
    c = b;
    b = new_a;
    a.deferred = true;
    a.n = 7;
    memcpy(a.v, temp1, sizeof temp1);
    a.v[5] = s0;
    a.v[6] = maj;
    CZ_POP_NS(cs);
  }

  maybe_compute(&m, &out[0], &a, &cur[0], 1, "deferred h0 computation");
  add2(&m, &out[1], &cur[1], &b, "new h1");
  add2(&m, &out[2], &cur[2], &c, "new h2");
  add2(&m, &out[3], &cur[3], &d, "new h3");
  maybe_compute(&m, &out[4], &e, &cur[4], 1, "deferred h4 computation");
  add2(&m, &out[5], &cur[5], &f, "new h5");
  add2(&m, &out[6], &cur[6], &g, "new h6");
  add2(&m, &out[7], &cur[7], &h, "new h7");
  return cz_multieq_finish(&m);
}

static void state_bits_be(cz_bool out[256], const cz_u32 st[8]) {
  for (int i = 0; i < 8; i++) cz_u32_into_bits_be(&st[i], out + 32 * i);
}

cz_err cz_sha256_block_no_padding(cz_cs *cs, cz_bool out[256], const cz_bool in[512]) {
  cz_u32 iv[8], st[8];
  cz_sha256_iv(iv);
  cz_cs_sticky(cz_sha256_compression(cs, st, in, iv));
  state_bits_be(out, st);
  return cz_cs_error(cs);
}

cz_err cz_sha256(cz_cs *cs, cz_bool out[256], const cz_bool *in, size_t nbits) {
  if (nbits % 8) return CZ_ERR_INVALID_ARG;
  /* Padded length: message, a one, zeros, the 64-bit length. */
  size_t total = nbits + 1;
  while ((total + 64) % 512) total++;
  total += 64;
  cz_u32 st[8];
  cz_sha256_iv(st);
  cz_bool block[512];
  for (size_t blk = 0; blk < total / 512; blk++) {
    for (size_t j = 0; j < 512; j++) {
      size_t p = blk * 512 + j;
      if (p < nbits) block[j] = in[p];
      else if (p == nbits) block[j] = cz_bool_const(true);
      else if (p < total - 64) block[j] = cz_bool_const(false);
      else block[j] = cz_bool_const(((uint64_t)nbits >> (total - 1 - p)) & 1);
    }
    CZ_PUSH_NS(cs, "block %zu", blk);
    cz_u32 prev[8];
    memcpy(prev, st, sizeof prev);
    cz_cs_sticky(cz_sha256_compression(cs, st, block, prev));
    CZ_POP_NS(cs);
  }
  state_bits_be(out, st);
  return cz_cs_error(cs);
}
