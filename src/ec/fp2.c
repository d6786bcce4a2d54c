/* Fp2 = Fp[u]/(u^2 + 1). */
#include "cuzk/fp2.h"
#include "ec/fp_inline.h"

const cz_fp2 CZ_FP2_ZERO = {{{0}}, {{0}}};
const cz_fp2 CZ_FP2_ONE = {{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                             0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
                           {{0}}};

void cz_fp2_add(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b) {
  fpi_add(&r->c0, &a->c0, &b->c0);
  fpi_add(&r->c1, &a->c1, &b->c1);
}
void cz_fp2_sub(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b) {
  fpi_sub(&r->c0, &a->c0, &b->c0);
  fpi_sub(&r->c1, &a->c1, &b->c1);
}
void cz_fp2_neg(cz_fp2 *r, const cz_fp2 *a) {
  fpi_neg(&r->c0, &a->c0);
  fpi_neg(&r->c1, &a->c1);
}
void cz_fp2_dbl(cz_fp2 *r, const cz_fp2 *a) {
  fpi_dbl(&r->c0, &a->c0);
  fpi_dbl(&r->c1, &a->c1);
}
void cz_fp2_conj(cz_fp2 *r, const cz_fp2 *a) {
  r->c0 = a->c0;
  fpi_neg(&r->c1, &a->c1);
}

/* Karatsuba: 3 Fp multiplications. The ADX path reduces lazily. */
void cz_fp2_mul(cz_fp2 *r, const cz_fp2 *a, const cz_fp2 *b) {
#ifdef CZ_MONT_ADX
  if (cz_mont_use_adx) {
    cz_fp2_mul_adx(r, a, b);
    return;
  }
#endif
  cz_fp t0, t1, s0, s1;
  fpi_mul(&t0, &a->c0, &b->c0);
  fpi_mul(&t1, &a->c1, &b->c1);
  fpi_add(&s0, &a->c0, &a->c1);
  fpi_add(&s1, &b->c0, &b->c1);
  fpi_mul(&s0, &s0, &s1);
  fpi_sub(&r->c0, &t0, &t1);
  fpi_sub(&s0, &s0, &t0);
  fpi_sub(&r->c1, &s0, &t1);
}

/* (c0 + c1 u)^2 = (c0 + c1)(c0 - c1) + 2 c0 c1 u: 2 multiplications. */
void cz_fp2_sqr(cz_fp2 *r, const cz_fp2 *a) {
#ifdef CZ_MONT_ADX
  if (cz_mont_use_adx) {
    cz_fp2_sqr_adx(r, a);
    return;
  }
#endif
  cz_fp s, d, m;
  fpi_add(&s, &a->c0, &a->c1);
  fpi_sub(&d, &a->c0, &a->c1);
  fpi_mul(&m, &a->c0, &a->c1);
  fpi_mul(&r->c0, &s, &d);
  fpi_dbl(&r->c1, &m);
}

void cz_fp2_mul_fp(cz_fp2 *r, const cz_fp2 *a, const cz_fp *b) {
  fpi_mul(&r->c0, &a->c0, b);
  fpi_mul(&r->c1, &a->c1, b);
}

/* (c0 + c1 u)(1 + u) = (c0 - c1) + (c0 + c1) u. */
void cz_fp2_mul_by_nonresidue(cz_fp2 *r, const cz_fp2 *a) {
  cz_fp t;
  fpi_sub(&t, &a->c0, &a->c1);
  fpi_add(&r->c1, &a->c0, &a->c1);
  r->c0 = t;
}

/* 1/(c0 + c1 u) = (c0 - c1 u) / (c0^2 + c1^2). */
bool cz_fp2_inv(cz_fp2 *r, const cz_fp2 *a) {
  cz_fp n, t;
  fpi_sqr(&n, &a->c0);
  fpi_sqr(&t, &a->c1);
  fpi_add(&n, &n, &t);
  if (!cz_fp_inv(&n, &n)) {
    *r = CZ_FP2_ZERO;
    return false;
  }
  fpi_mul(&r->c0, &a->c0, &n);
  fpi_mul(&r->c1, &a->c1, &n);
  fpi_neg(&r->c1, &r->c1);
  return true;
}

/* Sliding window of up to 5 bits over odd powers, as cz_fp_pow. */
static inline bool exp_bit(const uint64_t *e, int i) { return (e[i / 64] >> (i % 64)) & 1; }
void cz_fp2_pow(cz_fp2 *r, const cz_fp2 *a, const uint64_t *e, size_t n) {
  cz_fp2 tab[16], a2, acc = CZ_FP2_ONE; /* tab[k] = a^(2k+1) */
  tab[0] = *a;
  fp2i_sqr(&a2, a);
  for (int k = 1; k < 16; k++) fp2i_mul(&tab[k], &tab[k - 1], &a2);
  bool started = false;
  for (int i = (int)(64 * n) - 1; i >= 0;) {
    if (!exp_bit(e, i)) {
      if (started) fp2i_sqr(&acc, &acc);
      i--;
      continue;
    }
    int low = i - 4 < 0 ? 0 : i - 4; /* window e[i..low], low bit set */
    while (!exp_bit(e, low)) low++;
    unsigned d = 0;
    for (int k = i; k >= low; k--) {
      d = 2 * d + exp_bit(e, k);
      if (started) fp2i_sqr(&acc, &acc);
    }
    if (started) fp2i_mul(&acc, &acc, &tab[d / 2]);
    else acc = tab[d / 2];
    started = true;
    i = low - 1;
  }
  *r = acc;
}

/* a is a square in Fp2 exactly when its norm c0^2 + c1^2 is a square in Fp. */
bool cz_fp2_is_square(const cz_fp2 *a) {
  cz_fp n, t;
  fpi_sqr(&n, &a->c0);
  fpi_sqr(&t, &a->c1);
  fpi_add(&n, &n, &t);
  return cz_fp_is_square(&n);
}

/* (p - k) >> shift as exponent limbs, for small k. */
static void p_minus_shift(uint64_t e[CZ_FP_LIMBS], uint64_t k, unsigned shift) {
  uint64_t borrow = k;
  for (int i = 0; i < CZ_FP_LIMBS; i++) {
    e[i] = CZ_FP_MODULUS[i] - borrow;
    borrow = CZ_FP_MODULUS[i] < borrow;
  }
  for (int i = 0; i < CZ_FP_LIMBS; i++)
    e[i] = (e[i] >> shift) | (i + 1 < CZ_FP_LIMBS ? e[i + 1] << (64 - shift) : 0);
}

/* Algorithm 9 of Adj and Rodriguez-Henriquez, "Square root computation over
 * even extension fields", for p = 3 mod 4. */
bool cz_fp2_sqrt(cz_fp2 *r, const cz_fp2 *a) {
  if (cz_fp2_is_zero(a)) {
    *r = *a;
    return true;
  }
  uint64_t e34[CZ_FP_LIMBS], e12[CZ_FP_LIMBS];
  p_minus_shift(e34, 3, 2); /* (p - 3) / 4 */
  p_minus_shift(e12, 1, 1); /* (p - 1) / 2 */
  cz_fp2 a1, alpha, x0, x, minus_one;
  cz_fp2_pow(&a1, a, e34, CZ_FP_LIMBS);
  cz_fp2_sqr(&alpha, &a1);
  cz_fp2_mul(&alpha, &alpha, a);
  cz_fp2_mul(&x0, &a1, a);
  cz_fp2_neg(&minus_one, &CZ_FP2_ONE);
  if (cz_fp2_eq(&alpha, &minus_one)) {
    fpi_neg(&x.c0, &x0.c1); /* x = u x0 = -c1 + c0 u */
    x.c1 = x0.c0;
  } else {
    cz_fp2 b;
    cz_fp2_add(&b, &CZ_FP2_ONE, &alpha);
    cz_fp2_pow(&b, &b, e12, CZ_FP_LIMBS);
    cz_fp2_mul(&x, &b, &x0);
  }
  cz_fp2 check;
  cz_fp2_sqr(&check, &x);
  if (!cz_fp2_eq(&check, a)) return false;
  *r = x;
  return true;
}

/* r = a / 2: a even -> a >> 1, else (a + p) >> 1 (a + p < 2^382: no carry). */
static void fp_half(cz_fp *r, const cz_fp *a) {
  uint64_t t[CZ_FP_LIMBS], mask = 0 - (a->l[0] & 1), c = 0;
  for (int i = 0; i < CZ_FP_LIMBS; i++) {
    cz_u128 s = (cz_u128)a->l[i] + (CZ_FP_MODULUS[i] & mask) + c;
    t[i] = (uint64_t)s;
    c = (uint64_t)(s >> 64);
  }
  for (int i = 0; i < CZ_FP_LIMBS; i++)
    r->l[i] = (t[i] >> 1) | (i + 1 < CZ_FP_LIMBS ? t[i + 1] << 63 : 0);
}

/* Via the norm (p = 3 mod 4, u^2 = -1): for a1 != 0, with gamma a square
 * root of N = a0^2 + a1^2 (a is a square iff N is), exactly one of
 * d+ = (a0 + gamma)/2 and d- = (a0 - gamma)/2 is a square, since
 * d+ d- = -a1^2/4. x0 = d+^((p+1)/4) satisfies x0^2 = d+ or -d+; with
 * x1 = a1 / (2 x0), the root is x0 + x1 u in the first case and x1 + x0 u
 * in the second (then x1^2 = d-). Two Fp exponentiations and one inversion,
 * against two Fp2 exponentiations for cz_fp2_sqrt. */
bool cz_fp2_sqrt_any(cz_fp2 *r, const cz_fp2 *a) {
  uint64_t e[CZ_FP_LIMBS], carry = 1; /* e = (p + 1) / 4 */
  for (int i = 0; i < CZ_FP_LIMBS; i++) {
    e[i] = CZ_FP_MODULUS[i] + carry;
    carry = e[i] < carry;
  }
  for (int i = 0; i < CZ_FP_LIMBS; i++)
    e[i] = (e[i] >> 2) | (i + 1 < CZ_FP_LIMBS ? e[i + 1] << 62 : 0);
  cz_fp n, t, gamma, d, x0, x1;
  if (fpi_is_zero(&a->c1)) { /* a0 or -a0 is a square in Fp (-1 is not) */
    if (cz_fp_sqrt(&t, &a->c0)) {
      r->c0 = t;
      r->c1 = CZ_FP_ZERO;
      return true;
    }
    fpi_neg(&n, &a->c0);
    if (!cz_fp_sqrt(&t, &n)) return false; /* unreachable */
    r->c0 = CZ_FP_ZERO;
    r->c1 = t;
    return true;
  }
  fpi_sqr(&n, &a->c0);
  fpi_sqr(&t, &a->c1);
  fpi_add(&n, &n, &t);
  if (!cz_fp_sqrt(&gamma, &n)) return false;
  fpi_add(&d, &a->c0, &gamma);
  fp_half(&d, &d);
  cz_fp_pow(&x0, &d, e, CZ_FP_LIMBS);
  fpi_dbl(&t, &x0); /* x0 != 0: d+ d- = -a1^2/4 != 0 */
  cz_fp_inv(&t, &t);
  fpi_mul(&x1, &a->c1, &t);
  fpi_sqr(&t, &x0);
  cz_fp2 x;
  if (fpi_eq(&t, &d)) {
    x.c0 = x0;
    x.c1 = x1;
  } else {
    x.c0 = x1;
    x.c1 = x0;
  }
  cz_fp2 check;
  fp2i_sqr(&check, &x);
  if (!cz_fp2_eq(&check, a)) return false; /* unreachable for a square */
  *r = x;
  return true;
}

bool cz_fp2_is_zero(const cz_fp2 *a) { return cz_fp_is_zero(&a->c0) && cz_fp_is_zero(&a->c1); }
bool cz_fp2_is_one(const cz_fp2 *a) { return cz_fp_is_one(&a->c0) && cz_fp_is_zero(&a->c1); }
bool cz_fp2_eq(const cz_fp2 *a, const cz_fp2 *b) {
  return cz_fp_eq(&a->c0, &b->c0) && cz_fp_eq(&a->c1, &b->c1);
}
bool cz_fp2_is_lexicographically_largest(const cz_fp2 *a) {
  if (!cz_fp_is_zero(&a->c1)) return cz_fp_is_lexicographically_largest(&a->c1);
  return cz_fp_is_lexicographically_largest(&a->c0);
}
