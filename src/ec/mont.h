/* Portable multi-limb Montgomery arithmetic, shared by Fp (6 limbs) and Fr
 * (4 limbs). Limb counts are compile-time constants at every call site, so
 * the loops unroll. Both moduli leave the top bit of the top limb clear,
 * which keeps sums below 2^(64n) and lets add/sub skip a carry word. */
#ifndef CUZK_EC_MONT_H
#define CUZK_EC_MONT_H
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 cz_u128;

/* The MULX/ADCX/ADOX path (mont_adx.c) is compiled on every x86-64 GCC or
 * clang build; cpu.c decides at run time whether it is used. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CZ_MONT_ADX 1
#endif

/* Dispatch flag for the ADX path, set once by cpu.c (read on every mul). */
extern bool cz_mont_use_adx;

/* r = a + b - (m if a + b >= m); inputs < m. */
static inline void mont_add(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                            const int n) {
  uint64_t s[8], d[8], carry = 0, borrow = 0;
  for (int i = 0; i < n; i++) {
    cz_u128 t = (cz_u128)a[i] + b[i] + carry;
    s[i] = (uint64_t)t;
    carry = (uint64_t)(t >> 64);
  }
  for (int i = 0; i < n; i++) {
    cz_u128 t = (cz_u128)s[i] - m[i] - borrow;
    d[i] = (uint64_t)t;
    borrow = (uint64_t)(t >> 64) & 1;
  }
  /* borrow set: s < m, keep s. */
  uint64_t keep = 0 - borrow;
  for (int i = 0; i < n; i++) r[i] = (s[i] & keep) | (d[i] & ~keep);
}

/* r = a - b + (m if a < b); inputs < m. */
static inline void mont_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                            const int n) {
  uint64_t d[8], borrow = 0, carry = 0;
  for (int i = 0; i < n; i++) {
    cz_u128 t = (cz_u128)a[i] - b[i] - borrow;
    d[i] = (uint64_t)t;
    borrow = (uint64_t)(t >> 64) & 1;
  }
  uint64_t mask = 0 - borrow;
  for (int i = 0; i < n; i++) {
    cz_u128 t = (cz_u128)d[i] + (m[i] & mask) + carry;
    r[i] = (uint64_t)t;
    carry = (uint64_t)(t >> 64);
  }
}

/* r = a >= m ? a - m : a, for a < 2m. */
static inline void mont_reduce_once(uint64_t *r, const uint64_t *a, const uint64_t *m,
                                    const int n) {
  uint64_t d[8], borrow = 0;
  for (int i = 0; i < n; i++) {
    cz_u128 t = (cz_u128)a[i] - m[i] - borrow;
    d[i] = (uint64_t)t;
    borrow = (uint64_t)(t >> 64) & 1;
  }
  uint64_t keep = 0 - borrow;
  for (int i = 0; i < n; i++) r[i] = (a[i] & keep) | (d[i] & ~keep);
}

/* r = a * b * 2^(-64n) mod m (CIOS). minv = -m^(-1) mod 2^64. */
static inline void mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                            uint64_t minv, const int n) {
  uint64_t t[10] = {0};
  for (int i = 0; i < n; i++) {
    uint64_t c = 0;
    for (int j = 0; j < n; j++) {
      cz_u128 x = (cz_u128)a[j] * b[i] + t[j] + c;
      t[j] = (uint64_t)x;
      c = (uint64_t)(x >> 64);
    }
    cz_u128 x = (cz_u128)t[n] + c;
    t[n] = (uint64_t)x;
    t[n + 1] = (uint64_t)(x >> 64);

    uint64_t q = t[0] * minv;
    x = (cz_u128)q * m[0] + t[0];
    c = (uint64_t)(x >> 64);
    for (int j = 1; j < n; j++) {
      x = (cz_u128)q * m[j] + t[j] + c;
      t[j - 1] = (uint64_t)x;
      c = (uint64_t)(x >> 64);
    }
    x = (cz_u128)t[n] + c;
    t[n - 1] = (uint64_t)x;
    t[n] = t[n + 1] + (uint64_t)(x >> 64);
  }
  /* t < 2m < 2^(64n) since m has a spare top bit, so t[n] is 0 here. */
  mont_reduce_once(r, t, m, n);
}

static inline bool limbs_is_zero(const uint64_t *a, const int n) {
  uint64_t acc = 0;
  for (int i = 0; i < n; i++) acc |= a[i];
  return acc == 0;
}

/* a < b as integers. */
static inline bool limbs_lt(const uint64_t *a, const uint64_t *b, const int n) {
  for (int i = n - 1; i >= 0; i--)
    if (a[i] != b[i]) return a[i] < b[i];
  return false;
}

/* A limb from its 8 bytes, least (le) or most (be) significant first, and
 * back: one load or store and at most a byte swap. GCC 12 compiled the
 * byte-at-a-time loops these replace to 24 instructions a limb, and a
 * big-endian field element went through a reversed copy first: most of a
 * mapped key's decoding on the ADX path, which has no vector decoder. */
static inline uint64_t limb_swap(uint64_t v, bool big_endian) {
  bool host_big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
  return big_endian == host_big ? v : __builtin_bswap64(v);
}
static inline uint64_t limb_load(const uint8_t *p, bool big_endian) {
  uint64_t v;
  memcpy(&v, p, sizeof v);
  return limb_swap(v, big_endian);
}
static inline void limb_store(uint8_t *p, uint64_t v, bool big_endian) {
  v = limb_swap(v, big_endian);
  memcpy(p, &v, sizeof v);
}

/* n limbs from 8n bytes: little-endian (the least significant byte
 * first) or big-endian (the most significant first). */
static inline void limbs_from_bytes_le(uint64_t *r, const uint8_t *in, const int n) {
  for (int i = 0; i < n; i++) r[i] = limb_load(in + 8 * i, false);
}
static inline void limbs_from_bytes_be(uint64_t *r, const uint8_t *in, const int n) {
  for (int i = 0; i < n; i++) r[i] = limb_load(in + 8 * (n - 1 - i), true);
}

static inline void limbs_to_bytes_le(uint8_t *out, const uint64_t *a, const int n) {
  for (int i = 0; i < n; i++) limb_store(out + 8 * i, a[i], false);
}
static inline void limbs_to_bytes_be(uint8_t *out, const uint64_t *a, const int n) {
  for (int i = 0; i < n; i++) limb_store(out + 8 * (n - 1 - i), a[i], true);
}

#endif
