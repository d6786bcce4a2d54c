/* Field inversion by Bernstein-Yang "safegcd" divsteps, variable-time form,
 * included by field_impl.h (same macros: F, FN, NL, MOD, MINV, R2).
 *
 * VARIABLE TIME: the number of steps and the branches taken depend on the
 * input. cz_*_inv is meant for public values (affine conversion, batch
 * inversion of public data, verification); secrets go through
 * cz_*_inv_fermat, whose sequence of operations is fixed.
 *
 * Method (Bernstein and Yang, "Fast constant-time gcd computation and
 * modular inversion", 2019; the variable-time batching follows the
 * libsecp256k1 write-up of the same algorithm):
 *   f = M, g = A, d = 0, e = 1, with d*A = f and e*A = g (mod M).
 *   Each batch runs 62 divsteps on the low 64 bits of f and g only, giving
 *   a 2x2 matrix T scaled by 2^62; then (f, g) = T (f, g) / 2^62 exactly and
 *   (d, e) = T (d, e) / 2^62 mod M (dividing by adding a multiple of M that
 *   clears the low 62 bits). When g reaches 0, f = +-1 and d = +-1/A.
 * Numbers are kept in signed 62-bit limbs so that limb products and their
 * sums fit a signed 128-bit accumulator.
 *
 * The input is the Montgomery form A = a*R; 1/A = a^-1 * R^-1, and one
 * Montgomery multiplication by R^3 turns it into a^-1 * R. */

#define INV_S (NL + 1) /* 62-bit limbs: 7 for Fp (434 bits), 5 for Fr */
#define INV_M62 (((uint64_t)1 << 62) - 1)

typedef __int128 cz_i128;
typedef struct {
  int64_t l[INV_S];
} FN(s62);

static void FN(to_s62)(FN(s62) * r, const uint64_t a[NL]) {
  for (int i = 0; i < INV_S; i++) {
    int bit = 62 * i, w = bit / 64, s = bit % 64;
    uint64_t v = w < NL ? a[w] >> s : 0;
    if (s > 2 && w + 1 < NL) v |= a[w + 1] << (64 - s);
    r->l[i] = (int64_t)(v & INV_M62);
  }
}

/* a must be in [0, 2^(64 NL)). */
static void FN(from_s62)(uint64_t r[NL], const FN(s62) * a) {
  for (int w = 0; w < NL; w++) r[w] = 0;
  for (int i = 0; i < INV_S; i++) {
    uint64_t v = (uint64_t)a->l[i];
    int bit = 62 * i, w = bit / 64, s = bit % 64;
    if (w < NL) r[w] |= v << s;
    if (s > 2 && w + 1 < NL) r[w + 1] |= v >> (64 - s);
  }
}

/* 62 divsteps on the low bits of f and g starting from delta; returns the
 * new delta and the matrix (u v; q r) scaled by 2^62. Runs of even g are
 * skipped at once, and up to 6 odd steps without a swap are done with one
 * multiply: g + w*f with w = -g/f mod 2^limit. */
static int64_t FN(divsteps62)(int64_t delta, uint64_t f, uint64_t g, int64_t t[4]) {
  uint64_t u = 1, v = 0, q = 0, r = 1;
  int i = 62;
  for (;;) {
    int zeros = __builtin_ctzll(g | ((uint64_t)1 << i));
    g >>= zeros;
    u <<= zeros;
    v <<= zeros;
    delta += zeros;
    i -= zeros;
    if (i == 0) break;
    /* g is odd. With delta > 0 the divstep swaps: (f, g) = (g, -f). */
    if (delta > 0) {
      uint64_t x;
      delta = -delta;
      x = f;
      f = g;
      g = -x;
      x = u;
      u = q;
      q = -x;
      x = v;
      v = r;
      r = -x;
    }
    /* Now delta <= 0: the next min(1 - delta, i) steps add f when g is odd. */
    int limit = (int)(1 - delta) < i ? (int)(1 - delta) : i;
    if (limit > 6) limit = 6;
    uint64_t mask = ((uint64_t)1 << limit) - 1;
    uint64_t finv = f * (2 - f * f); /* 1/f mod 2^6 (f odd) */
    uint64_t w = (0 - g * finv) & mask;
    g += f * w;
    q += u * w;
    r += v * w;
  }
  t[0] = (int64_t)u;
  t[1] = (int64_t)v;
  t[2] = (int64_t)q;
  t[3] = (int64_t)r;
  return delta;
}

/* (f, g) = T (f, g) / 2^62, exactly, on their low len limbs. */
static void FN(update_fg)(FN(s62) * f, FN(s62) * g, const int64_t t[4], int len) {
  cz_i128 cf = (cz_i128)t[0] * f->l[0] + (cz_i128)t[1] * g->l[0];
  cz_i128 cg = (cz_i128)t[2] * f->l[0] + (cz_i128)t[3] * g->l[0];
  cf >>= 62;
  cg >>= 62; /* the low 62 bits are zero by construction */
  for (int i = 1; i < len; i++) {
    cf += (cz_i128)t[0] * f->l[i] + (cz_i128)t[1] * g->l[i];
    cg += (cz_i128)t[2] * f->l[i] + (cz_i128)t[3] * g->l[i];
    f->l[i - 1] = (int64_t)((uint64_t)cf & INV_M62);
    g->l[i - 1] = (int64_t)((uint64_t)cg & INV_M62);
    cf >>= 62;
    cg >>= 62;
  }
  f->l[len - 1] = (int64_t)cf;
  g->l[len - 1] = (int64_t)cg;
}

/* (d, e) = T (d, e) / 2^62 mod M, keeping both in (-2M, M): a negative d
 * or e first gets M added through the sign masks, then the multiple of M
 * that clears the low 62 bits is added. m62 is M in 62-bit limbs and
 * minv62 = 1/M mod 2^62. */
static void FN(update_de)(FN(s62) * d, FN(s62) * e, const int64_t t[4], const FN(s62) * m62,
                          uint64_t minv62) {
  int64_t sd = d->l[INV_S - 1] >> 63, se = e->l[INV_S - 1] >> 63;
  int64_t md = (t[0] & sd) + (t[1] & se), me = (t[2] & sd) + (t[3] & se);
  cz_i128 cd = (cz_i128)t[0] * d->l[0] + (cz_i128)t[1] * e->l[0];
  cz_i128 ce = (cz_i128)t[2] * d->l[0] + (cz_i128)t[3] * e->l[0];
  md -= (int64_t)((minv62 * (uint64_t)cd + (uint64_t)md) & INV_M62);
  me -= (int64_t)((minv62 * (uint64_t)ce + (uint64_t)me) & INV_M62);
  cd += (cz_i128)m62->l[0] * md;
  ce += (cz_i128)m62->l[0] * me;
  cd >>= 62;
  ce >>= 62;
  for (int i = 1; i < INV_S; i++) {
    cd += (cz_i128)t[0] * d->l[i] + (cz_i128)t[1] * e->l[i] + (cz_i128)m62->l[i] * md;
    ce += (cz_i128)t[2] * d->l[i] + (cz_i128)t[3] * e->l[i] + (cz_i128)m62->l[i] * me;
    d->l[i - 1] = (int64_t)((uint64_t)cd & INV_M62);
    e->l[i - 1] = (int64_t)((uint64_t)ce & INV_M62);
    cd >>= 62;
    ce >>= 62;
  }
  d->l[INV_S - 1] = (int64_t)cd;
  e->l[INV_S - 1] = (int64_t)ce;
}

static bool FN(s62_is_zero)(const FN(s62) * a, int len) {
  int64_t acc = 0;
  for (int i = 0; i < len; i++) acc |= a->l[i];
  return acc == 0;
}

/* r = a + c * M for c in {-1, 1}, on signed 62-bit limbs (normalized carries). */
static void FN(s62_add_m)(FN(s62) * a, const FN(s62) * m62, int64_t c) {
  int64_t carry = 0;
  for (int i = 0; i < INV_S; i++) {
    int64_t x = a->l[i] + c * m62->l[i] + carry;
    if (i + 1 < INV_S) {
      a->l[i] = x & (int64_t)INV_M62;
      carry = x >> 62;
    } else a->l[i] = x;
  }
}

static void FN(s62_neg)(FN(s62) * a) {
  int64_t carry = 0;
  for (int i = 0; i < INV_S; i++) {
    int64_t x = -a->l[i] + carry;
    if (i + 1 < INV_S) {
      a->l[i] = x & (int64_t)INV_M62;
      carry = x >> 62;
    } else a->l[i] = x;
  }
}

/* a < M for a >= 0 in signed 62-bit limbs. */
static bool FN(s62_lt_m)(const FN(s62) * a, const FN(s62) * m62) {
  for (int i = INV_S - 1; i >= 0; i--)
    if (a->l[i] != m62->l[i]) return a->l[i] < m62->l[i];
  return false;
}

/* r = 1/A mod M as plain integers (A != 0 mod M, A < M). */
static void FN(inv_limbs)(uint64_t r[NL], const uint64_t a[NL]) {
  FN(s62) m62, f, g, d = {{0}}, e = {{1}};
  FN(to_s62)(&m62, MOD);
  f = m62;
  FN(to_s62)(&g, a);
  uint64_t minv62 = (0 - (uint64_t)MINV) & INV_M62; /* MINV = -1/M mod 2^64 */
  int64_t delta = 1, t[4];
  int len = INV_S; /* f and g shrink: their limbs above len are implied */
  while (!FN(s62_is_zero)(&g, len)) {
    delta = FN(divsteps62)(delta, (uint64_t)f.l[0] | ((uint64_t)f.l[1] << 62),
                           (uint64_t)g.l[0] | ((uint64_t)g.l[1] << 62), t);
    FN(update_fg)(&f, &g, t, len);
    FN(update_de)(&d, &e, t, &m62, minv62);
    /* When both top limbs are only sign (0 or -1), fold them into the limb
     * below, which then carries the sign: one limb less to update. */
    int64_t fn = f.l[len - 1], gn = g.l[len - 1];
    if (len > 2 && (fn ^ (fn >> 63)) == 0 && (gn ^ (gn >> 63)) == 0) {
      f.l[len - 2] = (int64_t)((uint64_t)f.l[len - 2] | ((uint64_t)fn << 62));
      g.l[len - 2] = (int64_t)((uint64_t)g.l[len - 2] | ((uint64_t)gn << 62));
      len--;
    }
  }
  /* f = +-1 (gcd of M and A), d*A = f: 1/A = sign(f) d, with d in (-2M, M). */
  if (f.l[len - 1] < 0) FN(s62_neg)(&d);
  while (d.l[INV_S - 1] < 0) FN(s62_add_m)(&d, &m62, 1);
  while (!FN(s62_lt_m)(&d, &m62)) FN(s62_add_m)(&d, &m62, -1);
  FN(from_s62)(r, &d);
}
