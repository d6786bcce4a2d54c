/* One source for the group law of G1 and G2: short Weierstrass curves
 * y^2 = x^3 + b (a = 0) over a coordinate field F. Include after defining:
 *   F          the coordinate field type (cz_fp, cz_fp2)
 *   FF(x)      field function name builder (cz_fp_##x): needs add, sub, dbl,
 *              neg, mul, sqr, inv, is_zero, eq
 *   F_ZERO     F_ONE   the field's zero and Montgomery one
 *   CURVE_B    a const F holding b
 *   AFF, JAC, XYZZ   the point types ({x, y}, {x, y, z}, {x, y, zz, zzz})
 *   GN(x)      group function name builder (cz_g1_##x)
 *
 * Formulas are from the Explicit-Formulas Database (hyperelliptic.org/EFD,
 * "g1p/auto-shortw-jacobian-0" and "g1p/auto-shortw-xyzz"); the EFD formulas
 * are incomplete, so each caller-visible function handles the identity,
 * P + P and P + (-P) before using them. Every function reads all of its inputs
 * before it writes an output coordinate that could alias one of them. */
#include <stdint.h>
#include <string.h>

/* ---- identity and conversions ------------------------------------------ */

static inline bool GN(jac_is_id)(const JAC *p) { return FF(is_zero)(&p->z); }
static inline bool GN(aff_is_id)(const AFF *p) { return FF(is_zero)(&p->x) && FF(is_zero)(&p->y); }
static inline bool GN(xyzz_is_id)(const XYZZ *p) { return FF(is_zero)(&p->zz); }

void GN(set_identity)(JAC *r) {
  r->x = F_ONE;
  r->y = F_ONE;
  r->z = F_ZERO;
}
bool GN(is_identity)(const JAC *p) { return GN(jac_is_id)(p); }
bool GN(affine_is_identity)(const AFF *p) { return GN(aff_is_id)(p); }

bool GN(affine_eq)(const AFF *a, const AFF *b) {
  return FF(eq)(&a->x, &b->x) && FF(eq)(&a->y, &b->y);
}

/* Cross-multiplied: X1 Z2^2 = X2 Z1^2 and Y1 Z2^3 = Y2 Z1^3. */
bool GN(eq)(const JAC *a, const JAC *b) {
  bool ia = GN(jac_is_id)(a), ib = GN(jac_is_id)(b);
  if (ia || ib) return ia && ib;
  F z1z1, z2z2, l, r;
  FF(sqr)(&z1z1, &a->z);
  FF(sqr)(&z2z2, &b->z);
  FF(mul)(&l, &a->x, &z2z2);
  FF(mul)(&r, &b->x, &z1z1);
  if (!FF(eq)(&l, &r)) return false;
  FF(mul)(&z1z1, &z1z1, &a->z);
  FF(mul)(&z2z2, &z2z2, &b->z);
  FF(mul)(&l, &a->y, &z2z2);
  FF(mul)(&r, &b->y, &z1z1);
  return FF(eq)(&l, &r);
}

void GN(from_affine)(JAC *r, const AFF *a) {
  if (GN(aff_is_id)(a)) {
    GN(set_identity)(r);
    return;
  }
  r->x = a->x;
  r->y = a->y;
  r->z = F_ONE;
}

void GN(to_affine)(AFF *r, const JAC *p) {
  if (GN(jac_is_id)(p)) {
    r->x = F_ZERO;
    r->y = F_ZERO;
    return;
  }
  F zi, zi2;
  FF(inv)(&zi, &p->z);
  FF(sqr)(&zi2, &zi);
  FF(mul)(&r->x, &p->x, &zi2);
  FF(mul)(&zi2, &zi2, &zi);
  FF(mul)(&r->y, &p->y, &zi2);
}

/* Montgomery's trick; out[i].x holds the prefix product of the earlier
 * non-zero Z's until it is overwritten, so no allocation is needed. */
void GN(batch_to_affine)(AFF *out, const JAC *in, size_t n) {
  F acc = F_ONE;
  for (size_t i = 0; i < n; i++) {
    if (GN(jac_is_id)(&in[i])) continue;
    out[i].x = acc;
    FF(mul)(&acc, &acc, &in[i].z);
  }
  FF(inv)(&acc, &acc); /* acc = 1/(product of all non-zero Z) */
  for (size_t i = n; i-- > 0;) {
    if (GN(jac_is_id)(&in[i])) {
      out[i].x = F_ZERO;
      out[i].y = F_ZERO;
      continue;
    }
    F zi, zi2;
    FF(mul)(&zi, &acc, &out[i].x); /* 1/Z_i */
    FF(mul)(&acc, &acc, &in[i].z); /* drop Z_i from the running inverse */
    FF(sqr)(&zi2, &zi);
    FF(mul)(&out[i].x, &in[i].x, &zi2);
    FF(mul)(&zi2, &zi2, &zi);
    FF(mul)(&out[i].y, &in[i].y, &zi2);
  }
}

void GN(neg)(JAC *r, const JAC *a) {
  r->x = a->x;
  FF(neg)(&r->y, &a->y);
  r->z = a->z;
}
/* -(0, 0) = (0, 0), so the identity needs no special case. */
void GN(affine_neg)(AFF *r, const AFF *a) {
  r->x = a->x;
  FF(neg)(&r->y, &a->y);
}

/* ---- Jacobian ---------------------------------------------------------- */

/* dbl-2009-l: 2M + 5S. Z = 0 stays 0 and Y = 0 gives Z = 0, so it is complete. */
static inline void GN(dbl_core)(JAC *r, const JAC *p) {
  F a, b, c, d, e, f;
  FF(sqr)(&a, &p->x);
  FF(sqr)(&b, &p->y);
  FF(sqr)(&c, &b);
  FF(add)(&d, &p->x, &b);
  FF(sqr)(&d, &d);
  FF(sub)(&d, &d, &a);
  FF(sub)(&d, &d, &c);
  FF(dbl)(&d, &d); /* D = 2((X + B)^2 - A - C) */
  FF(dbl)(&e, &a);
  FF(add)(&e, &e, &a); /* E = 3A */
  FF(sqr)(&f, &e);
  FF(mul)(&r->z, &p->y, &p->z);
  FF(dbl)(&r->z, &r->z); /* Z3 = 2 Y Z: last read of p */
  FF(sub)(&r->x, &f, &d);
  FF(sub)(&r->x, &r->x, &d); /* X3 = F - 2D */
  FF(sub)(&d, &d, &r->x);
  FF(mul)(&d, &e, &d);
  FF(dbl)(&c, &c);
  FF(dbl)(&c, &c);
  FF(dbl)(&c, &c);
  FF(sub)(&r->y, &d, &c); /* Y3 = E (D - X3) - 8C */
}
void GN(dbl)(JAC *r, const JAC *a) { GN(dbl_core)(r, a); }

/* add-2007-bl: 11M + 5S. */
static inline void GN(add_core)(JAC *r, const JAC *a, const JAC *b) {
  if (GN(jac_is_id)(a)) {
    *r = *b;
    return;
  }
  if (GN(jac_is_id)(b)) {
    *r = *a;
    return;
  }
  F z1z1, z2z2, u1, u2, s1, s2, h, rr, i, j, v;
  FF(sqr)(&z1z1, &a->z);
  FF(sqr)(&z2z2, &b->z);
  FF(mul)(&u1, &a->x, &z2z2);
  FF(mul)(&u2, &b->x, &z1z1);
  FF(mul)(&s1, &a->y, &b->z);
  FF(mul)(&s1, &s1, &z2z2);
  FF(mul)(&s2, &b->y, &a->z);
  FF(mul)(&s2, &s2, &z1z1);
  FF(sub)(&h, &u2, &u1);
  FF(sub)(&rr, &s2, &s1);
  if (FF(is_zero)(&h)) { /* same x: a = b or a = -b */
    if (FF(is_zero)(&rr)) GN(dbl_core)(r, a);
    else GN(set_identity)(r);
    return;
  }
  FF(dbl)(&rr, &rr);
  FF(dbl)(&i, &h);
  FF(sqr)(&i, &i); /* I = (2H)^2 */
  FF(mul)(&j, &h, &i);
  FF(mul)(&v, &u1, &i);
  FF(add)(&u2, &a->z, &b->z);
  FF(sqr)(&u2, &u2);
  FF(sub)(&u2, &u2, &z1z1);
  FF(sub)(&u2, &u2, &z2z2);
  FF(mul)(&r->z, &u2, &h); /* Z3: last read of a and b */
  FF(sqr)(&r->x, &rr);
  FF(sub)(&r->x, &r->x, &j);
  FF(sub)(&r->x, &r->x, &v);
  FF(sub)(&r->x, &r->x, &v);
  FF(sub)(&v, &v, &r->x);
  FF(mul)(&v, &rr, &v);
  FF(mul)(&s1, &s1, &j);
  FF(dbl)(&s1, &s1);
  FF(sub)(&r->y, &v, &s1);
}
void GN(add)(JAC *r, const JAC *a, const JAC *b) { GN(add_core)(r, a, b); }

/* madd-2007-bl: 7M + 4S. */
static inline void GN(madd_core)(JAC *r, const JAC *a, const AFF *b) {
  if (GN(aff_is_id)(b)) {
    *r = *a;
    return;
  }
  if (GN(jac_is_id)(a)) {
    GN(from_affine)(r, b);
    return;
  }
  F z1z1, u2, s2, h, hh, rr, i, j, v, y1j;
  FF(sqr)(&z1z1, &a->z);
  FF(mul)(&u2, &b->x, &z1z1);
  FF(mul)(&s2, &b->y, &a->z);
  FF(mul)(&s2, &s2, &z1z1);
  FF(sub)(&h, &u2, &a->x);
  FF(sub)(&rr, &s2, &a->y);
  if (FF(is_zero)(&h)) {
    if (FF(is_zero)(&rr)) GN(dbl_core)(r, a);
    else GN(set_identity)(r);
    return;
  }
  FF(sqr)(&hh, &h);
  FF(dbl)(&i, &hh);
  FF(dbl)(&i, &i);
  FF(mul)(&j, &h, &i);
  FF(dbl)(&rr, &rr);
  FF(mul)(&v, &a->x, &i);
  FF(mul)(&y1j, &a->y, &j);
  FF(add)(&u2, &a->z, &h);
  FF(sqr)(&u2, &u2);
  FF(sub)(&u2, &u2, &z1z1);
  FF(sub)(&r->z, &u2, &hh); /* Z3 = (Z1 + H)^2 - Z1Z1 - HH: last read of a */
  FF(sqr)(&r->x, &rr);
  FF(sub)(&r->x, &r->x, &j);
  FF(sub)(&r->x, &r->x, &v);
  FF(sub)(&r->x, &r->x, &v);
  FF(sub)(&v, &v, &r->x);
  FF(mul)(&v, &rr, &v);
  FF(dbl)(&y1j, &y1j);
  FF(sub)(&r->y, &v, &y1j);
}
void GN(add_affine)(JAC *r, const JAC *a, const AFF *b) { GN(madd_core)(r, a, b); }

/* ---- XYZZ -------------------------------------------------------------- */

void GN(xyzz_set_identity)(XYZZ *r) {
  r->x = F_ONE;
  r->y = F_ONE;
  r->zz = F_ZERO;
  r->zzz = F_ZERO;
}

/* dbl-2008-s-1: 6M + 3S. Y = 0 or ZZ = 0 give ZZ3 = ZZZ3 = 0: complete. */
static inline void GN(xyzz_dbl_core)(XYZZ *r, const XYZZ *p) {
  F u, v, w, s, m, t;
  FF(dbl)(&u, &p->y);
  FF(sqr)(&v, &u);
  FF(mul)(&w, &u, &v);
  FF(mul)(&s, &p->x, &v);
  FF(sqr)(&m, &p->x);
  FF(dbl)(&t, &m);
  FF(add)(&m, &m, &t);    /* M = 3 X^2 */
  FF(mul)(&t, &w, &p->y); /* W Y */
  FF(mul)(&r->zz, &v, &p->zz);
  FF(mul)(&r->zzz, &w, &p->zzz);
  FF(sqr)(&r->x, &m);
  FF(sub)(&r->x, &r->x, &s);
  FF(sub)(&r->x, &r->x, &s);
  FF(sub)(&s, &s, &r->x);
  FF(mul)(&s, &m, &s);
  FF(sub)(&r->y, &s, &t);
}
void GN(xyzz_dbl)(XYZZ *r, const XYZZ *a) { GN(xyzz_dbl_core)(r, a); }

/* madd-2008-s (8M + 2S) for a + b, or a - b when negate. For the subtraction
 * R' = S2 + Y1 = -R, which only flips the sign of the (Q - X3) factor. */
static inline void GN(xyzz_madd_core)(XYZZ *r, const XYZZ *a, const AFF *b, const bool negate) {
  if (GN(aff_is_id)(b)) {
    *r = *a;
    return;
  }
  if (GN(xyzz_is_id)(a)) {
    r->x = b->x;
    if (negate) FF(neg)(&r->y, &b->y);
    else r->y = b->y;
    r->zz = F_ONE;
    r->zzz = F_ONE;
    return;
  }
  F u2, s2, p, rr, pp, ppp, q, t;
  FF(mul)(&u2, &b->x, &a->zz);
  FF(mul)(&s2, &b->y, &a->zzz);
  FF(sub)(&p, &u2, &a->x);
  if (negate) FF(add)(&rr, &s2, &a->y);
  else FF(sub)(&rr, &s2, &a->y);
  if (FF(is_zero)(&p)) { /* same x: a = +-b */
    if (FF(is_zero)(&rr)) GN(xyzz_dbl_core)(r, a);
    else GN(xyzz_set_identity)(r);
    return;
  }
  FF(sqr)(&pp, &p);
  FF(mul)(&ppp, &p, &pp);
  FF(mul)(&q, &a->x, &pp);
  FF(mul)(&t, &a->y, &ppp);
  FF(mul)(&r->zz, &a->zz, &pp);
  FF(mul)(&r->zzz, &a->zzz, &ppp);
  FF(sqr)(&r->x, &rr);
  FF(sub)(&r->x, &r->x, &ppp);
  FF(sub)(&r->x, &r->x, &q);
  FF(sub)(&r->x, &r->x, &q);
  if (negate) FF(sub)(&q, &r->x, &q);
  else FF(sub)(&q, &q, &r->x);
  FF(mul)(&q, &rr, &q);
  FF(sub)(&r->y, &q, &t);
}
void GN(xyzz_add_affine)(XYZZ *r, const XYZZ *a, const AFF *b) {
  GN(xyzz_madd_core)(r, a, b, false);
}
void GN(xyzz_sub_affine)(XYZZ *r, const XYZZ *a, const AFF *b) {
  GN(xyzz_madd_core)(r, a, b, true);
}

/* add-2008-s: 12M + 2S. */
void GN(xyzz_add)(XYZZ *r, const XYZZ *a, const XYZZ *b) {
  if (GN(xyzz_is_id)(a)) {
    *r = *b;
    return;
  }
  if (GN(xyzz_is_id)(b)) {
    *r = *a;
    return;
  }
  F u1, u2, s1, s2, p, rr, pp, ppp, zz, zzz;
  FF(mul)(&u1, &a->x, &b->zz);
  FF(mul)(&u2, &b->x, &a->zz);
  FF(mul)(&s1, &a->y, &b->zzz);
  FF(mul)(&s2, &b->y, &a->zzz);
  FF(sub)(&p, &u2, &u1);
  FF(sub)(&rr, &s2, &s1);
  if (FF(is_zero)(&p)) {
    if (FF(is_zero)(&rr)) GN(xyzz_dbl_core)(r, a);
    else GN(xyzz_set_identity)(r);
    return;
  }
  FF(sqr)(&pp, &p);
  FF(mul)(&ppp, &p, &pp);
  FF(mul)(&zz, &a->zz, &b->zz);
  FF(mul)(&zzz, &a->zzz, &b->zzz);
  FF(mul)(&r->zz, &zz, &pp);
  FF(mul)(&r->zzz, &zzz, &ppp);
  FF(mul)(&u1, &u1, &pp); /* Q = U1 PP */
  FF(mul)(&s1, &s1, &ppp);
  FF(sqr)(&r->x, &rr);
  FF(sub)(&r->x, &r->x, &ppp);
  FF(sub)(&r->x, &r->x, &u1);
  FF(sub)(&r->x, &r->x, &u1);
  FF(sub)(&u1, &u1, &r->x);
  FF(mul)(&u1, &rr, &u1);
  FF(sub)(&r->y, &u1, &s1);
}

/* (X/ZZ, Y/ZZZ) = (X ZZ / ZZ^2, Y ZZZ / ZZ^3) since ZZ^3 = ZZZ^2: Jacobian
 * (X ZZ, Y ZZZ, ZZ), 2M. */
void GN(xyzz_to_jacobian)(JAC *r, const XYZZ *a) {
  if (GN(xyzz_is_id)(a)) {
    GN(set_identity)(r);
    return;
  }
  FF(mul)(&r->x, &a->x, &a->zz);
  FF(mul)(&r->y, &a->y, &a->zzz);
  r->z = a->zz;
}

/* ---- curve equation ---------------------------------------------------- */

/* y^2 = x^3 + b, with no identity convention. */
static bool GN(satisfies_equation)(const F *x, const F *y) {
  F l, r;
  FF(sqr)(&l, y);
  FF(sqr)(&r, x);
  FF(mul)(&r, &r, x);
  FF(add)(&r, &r, &CURVE_B);
  return FF(eq)(&l, &r);
}
bool GN(affine_is_on_curve)(const AFF *p) {
  return GN(aff_is_id)(p) || GN(satisfies_equation)(&p->x, &p->y);
}

/* ---- scalar multiplication --------------------------------------------- */

/* Window width of the wNAF recoding (digits odd, |d| < 2^(W-1)); chosen by
 * measurement per group, see g1.c / g2.c. */
#define WNAF_MAX_W 6
#define WNAF_TABLE_MAX (1 << (WNAF_MAX_W - 2))

/* wNAF of the n-limb non-negative integer k with width w: digits[i] is 0 or
 * odd with |digits[i]| < 2^(w-1), k = sum digits[i] 2^i. digits needs
 * 64 n + 1 entries. Returns the number of digits. */
static int GN(wnaf_recode)(int8_t *digits, const uint64_t *k_in, int n, int w) {
  uint64_t k[5] = {0};
  memcpy(k, k_in, (size_t)n * sizeof *k);
  const int64_t full = (int64_t)1 << w, half = full >> 1;
  int len = 0;
  for (;;) {
    bool nonzero = false;
    for (int i = 0; i <= n; i++) nonzero |= k[i] != 0;
    if (!nonzero) break;
    int8_t d = 0;
    if (k[0] & 1) {
      int64_t v = (int64_t)(k[0] & (uint64_t)(full - 1));
      if (v >= half) v -= full;
      d = (int8_t)v;
      if (v > 0) {
        k[0] -= (uint64_t)v; /* only clears low bits: no borrow */
      } else {
        uint64_t add = (uint64_t)(-v);
        for (int i = 0; i <= n && add; i++) {
          k[i] += add;
          add = k[i] < add;
        }
      }
    }
    digits[len++] = d;
    for (int i = 0; i < n; i++) k[i] = (k[i] >> 1) | (k[i + 1] << 63);
    k[n] >>= 1;
  }
  return len;
}

/* table[j] = (2j + 1) p for j < 2^(w-2). */
static void GN(odd_multiples)(JAC *table, const JAC *p, int w) {
  JAC p2;
  GN(dbl_core)(&p2, p);
  table[0] = *p;
  for (int j = 1; j < (1 << (w - 2)); j++) GN(add_core)(&table[j], &table[j - 1], &p2);
}

/* Straus (interleaved) evaluation: r = sum over dims i of
 * sum_pos digits[i][pos] 2^pos base_i, where tables[i] holds the odd
 * multiples of base_i. Leading doublings of the identity are skipped. */
static void GN(wnaf_straus)(JAC *r, JAC tables[][WNAF_TABLE_MAX], int dims, int8_t (*digits)[257],
                            const int *lens) {
  int len = 0;
  for (int i = 0; i < dims; i++)
    if (lens[i] > len) len = lens[i];
  JAC acc;
  GN(set_identity)(&acc);
  bool started = false;
  for (int pos = len - 1; pos >= 0; pos--) {
    if (started) GN(dbl_core)(&acc, &acc);
    for (int i = 0; i < dims; i++) {
      if (pos >= lens[i]) continue;
      int d = digits[i][pos];
      if (d > 0) {
        GN(add_core)(&acc, &acc, &tables[i][(d - 1) >> 1]);
      } else if (d < 0) {
        JAC t;
        GN(neg)(&t, &tables[i][(-d - 1) >> 1]);
        GN(add_core)(&acc, &acc, &t);
      } else {
        continue;
      }
      started = true;
    }
  }
  *r = acc;
}

/* k p by wNAF over all 256 bits of k, with no endomorphism and no reduction:
 * exact for every point on the curve, in the subgroup or not. */
static void GN(mul_wnaf_plain)(JAC *r, const JAC *p, const uint64_t k[4], int w) {
  JAC table[1][WNAF_TABLE_MAX];
  int8_t digits[1][257];
  int len = GN(wnaf_recode)(digits[0], k, 4, w);
  GN(odd_multiples)(table[0], p, w);
  GN(wnaf_straus)(r, table, 1, digits, &len);
}

/* r = c p for a public 64-bit constant c, by plain double-and-add (the
 * subgroup checks multiply by |z|, which has only six set bits). */
static void GN(mul_u64)(JAC *r, const JAC *p, uint64_t c) {
  JAC acc, base = *p;
  GN(set_identity)(&acc);
  bool started = false;
  for (int bit = 63; bit >= 0; bit--) {
    if (started) GN(dbl_core)(&acc, &acc);
    if ((c >> bit) & 1) {
      GN(add_core)(&acc, &acc, &base);
      started = true;
    }
  }
  *r = acc;
}

/* k mod r for a 256-bit k (k < 2^256 < 3r, so at most two subtractions). */
static void GN(scalar_reduce)(uint64_t out[4], const uint64_t k[4]) {
  memcpy(out, k, 4 * sizeof *out);
  while (!limbs_lt(out, CZ_FR_MODULUS, 4)) {
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
      cz_u128 t = (cz_u128)out[i] - CZ_FR_MODULUS[i] - borrow;
      out[i] = (uint64_t)t;
      borrow = (uint64_t)(t >> 64) & 1;
    }
  }
}
