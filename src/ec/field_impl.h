/* One source for the operations Fp and Fr share. Include after defining:
 *   F        the element type (cz_fp, cz_fr)
 *   FN(x)    name builder (cz_fp_##x)
 *   NL       limb count
 *   MOD      modulus limbs, MINV = -MOD^(-1) mod 2^64, R2 = R^2 mod MOD
 *   ONE_C    the Montgomery one (R mod MOD)
 * and the two ADX entry points FN(mul_adx), FN(sqr_adx) declared. */
#include <stdlib.h>
#include "ec/mont_x86.h"

__attribute__((noinline)) void FN(mul_portable)(F *r, const F *a, const F *b) {
  mont_mul(r->l, a->l, b->l, MOD, MINV, NL);
}
__attribute__((noinline)) void FN(sqr_portable)(F *r, const F *a) {
  mont_mul(r->l, a->l, a->l, MOD, MINV, NL);
}

/* The dispatchers only branch and tail-call: with the portable body inlined
 * here, GCC saved six registers and set up a 400-byte frame before even
 * testing the flag, which the ADX path then paid on every call. */
void FN(mul)(F *r, const F *a, const F *b) {
#ifdef CZ_MONT_ADX
  if (cz_mont_use_adx) {
    FN(mul_adx)(r, a, b);
    return;
  }
#endif
  FN(mul_portable)(r, a, b);
}
void FN(sqr)(F *r, const F *a) {
#ifdef CZ_MONT_ADX
  if (cz_mont_use_adx) {
    FN(sqr_adx)(r, a);
    return;
  }
#endif
  FN(sqr_portable)(r, a);
}

/* Addition and subtraction: ADC/SBB chains on x86-64, portable C elsewhere. */
static inline void FN(add_limbs)(uint64_t *r, const uint64_t *a, const uint64_t *b) {
#ifdef CZ_MONT_X86
  if (NL == 6) {
    mont_add6_x86(r, a, b, MOD);
    return;
  }
  if (NL == 4) {
    mont_add4_x86(r, a, b, MOD);
    return;
  }
#endif
  mont_add(r, a, b, MOD, NL);
}
static inline void FN(sub_limbs)(uint64_t *r, const uint64_t *a, const uint64_t *b) {
#ifdef CZ_MONT_X86
  if (NL == 6) {
    mont_sub6_x86(r, a, b, MOD);
    return;
  }
  if (NL == 4) {
    mont_sub4_x86(r, a, b, MOD);
    return;
  }
#endif
  mont_sub(r, a, b, MOD, NL);
}

void FN(add)(F *r, const F *a, const F *b) { FN(add_limbs)(r->l, a->l, b->l); }
void FN(sub)(F *r, const F *a, const F *b) { FN(sub_limbs)(r->l, a->l, b->l); }
void FN(dbl)(F *r, const F *a) { FN(add_limbs)(r->l, a->l, a->l); }
void FN(neg)(F *r, const F *a) {
  static const uint64_t zero[NL];
  FN(sub_limbs)(r->l, zero, a->l);
}

bool FN(is_zero)(const F *a) { return limbs_is_zero(a->l, NL); }
bool FN(eq)(const F *a, const F *b) { return memcmp(a->l, b->l, sizeof a->l) == 0; }
bool FN(is_one)(const F *a) { return memcmp(a->l, ONE_C.l, sizeof a->l) == 0; }

void FN(from_canonical)(F *r, const uint64_t a[NL]) {
  uint64_t t[NL];
  memcpy(t, a, sizeof t);
  FN(mul)(r, (const F *)t, (const F *)R2);
}
void FN(to_canonical)(uint64_t r[NL], const F *a) {
  static const uint64_t one[NL] = {1};
  F t;
  FN(mul)(&t, a, (const F *)one);
  memcpy(r, t.l, sizeof t.l);
}
void FN(from_u64)(F *r, uint64_t v) {
  uint64_t t[NL] = {v}; /* v < 2^64 < MOD */
  FN(from_canonical)(r, t);
}

/* Canonical limbs to Montgomery form, refused when not below the modulus. */
static cz_err FN(from_limbs_checked)(F *r, const uint64_t t[NL]) {
  if (!limbs_lt(t, MOD, NL)) return CZ_ERR_NONCANONICAL;
  FN(from_canonical)(r, t);
  return CZ_OK;
}
cz_err FN(from_bytes_le)(F *r, const uint8_t in[8 * NL]) {
  uint64_t t[NL];
  limbs_from_bytes_le(t, in, NL);
  return FN(from_limbs_checked)(r, t);
}
cz_err FN(from_bytes_be)(F *r, const uint8_t in[8 * NL]) {
  uint64_t t[NL];
  limbs_from_bytes_be(t, in, NL);
  return FN(from_limbs_checked)(r, t);
}
void FN(to_bytes_le)(uint8_t out[8 * NL], const F *a) {
  uint64_t t[NL];
  FN(to_canonical)(t, a);
  limbs_to_bytes_le(out, t, NL);
}
void FN(to_bytes_be)(uint8_t out[8 * NL], const F *a) {
  uint64_t t[NL];
  FN(to_canonical)(t, a);
  limbs_to_bytes_be(out, t, NL);
}

/* Sliding window of up to 5 bits over odd powers: for a 381-bit exponent
 * about 380 squarings and 64 multiplications plus 16 for the table, against
 * about 190 multiplications bit by bit (this is most of a square root, hence
 * of decompression). Leading zero bits are skipped. */
#define POW_WIN 5
static inline bool FN(exp_bit)(const uint64_t *e, int i) { return (e[i / 64] >> (i % 64)) & 1; }
void FN(pow)(F *r, const F *a, const uint64_t *e, size_t n) {
  F tab[1 << (POW_WIN - 1)], a2, acc = ONE_C; /* tab[k] = a^(2k+1) */
  tab[0] = *a;
  FN(sqr)(&a2, a);
  for (int k = 1; k < (1 << (POW_WIN - 1)); k++) FN(mul)(&tab[k], &tab[k - 1], &a2);
  bool started = false;
  for (int i = (int)(64 * n) - 1; i >= 0;) {
    if (!FN(exp_bit)(e, i)) {
      if (started) FN(sqr)(&acc, &acc);
      i--;
      continue;
    }
    int low = i - POW_WIN + 1 < 0 ? 0 : i - POW_WIN + 1; /* window e[i..low], low bit set */
    while (!FN(exp_bit)(e, low)) low++;
    unsigned d = 0;
    for (int k = i; k >= low; k--) {
      d = 2 * d + FN(exp_bit)(e, k);
      if (started) FN(sqr)(&acc, &acc);
    }
    if (started) FN(mul)(&acc, &acc, &tab[d / 2]);
    else acc = tab[d / 2];
    started = true;
    i = low - 1;
  }
  *r = acc;
}

/* MOD - k for small k, as exponent limbs (for Fermat inversion and Euler). */
static void FN(mod_minus)(uint64_t out[NL], uint64_t k) {
  uint64_t borrow = k;
  for (int i = 0; i < NL; i++) {
    out[i] = MOD[i] - borrow;
    borrow = MOD[i] < borrow;
  }
}

bool FN(inv_fermat)(F *r, const F *a) {
  if (FN(is_zero)(a)) {
    *r = (F){{0}};
    return false;
  }
  uint64_t e[NL];
  FN(mod_minus)(e, 2);
  FN(pow)(r, a, e, NL);
  return true;
}

#include "ec/field_inv.h"

bool FN(inv)(F *r, const F *a) {
  if (FN(is_zero)(a)) {
    *r = (F){{0}};
    return false;
  }
  F t, r3;
  FN(inv_limbs)(t.l, a->l);                   /* (aR)^-1 */
  FN(mul)(&r3, (const F *)R2, (const F *)R2); /* R^3 */
  FN(mul)(r, &t, &r3);                        /* a^-1 R */
  return true;
}

void FN(batch_inv)(F *out, const F *in, size_t n) {
  if (n == 0) return;
  F *prefix = malloc(n * sizeof *prefix);
  if (!prefix) { /* degrade to one inversion per element */
    for (size_t i = 0; i < n; i++) FN(inv)(&out[i], &in[i]);
    return;
  }
  F acc = ONE_C;
  for (size_t i = 0; i < n; i++) {
    prefix[i] = acc;
    if (!FN(is_zero)(&in[i])) FN(mul)(&acc, &acc, &in[i]);
  }
  FN(inv)(&acc, &acc);
  for (size_t i = n; i-- > 0;) {
    if (FN(is_zero)(&in[i])) {
      out[i] = in[i];
      continue;
    }
    F x = in[i];
    FN(mul)(&out[i], &acc, &prefix[i]);
    FN(mul)(&acc, &acc, &x);
  }
  free(prefix);
}

bool FN(is_square)(const F *a) {
  if (FN(is_zero)(a)) return true;
  uint64_t e[NL];
  FN(mod_minus)(e, 1);
  for (int i = 0; i < NL; i++) e[i] = (e[i] >> 1) | (i + 1 < NL ? e[i + 1] << 63 : 0);
  F t;
  FN(pow)(&t, a, e, NL);
  return FN(is_one)(&t);
}
