/* Poseidon parameters as neptune v11 derives them (PoseidonConstants::
 * new_with_strength_and_type): Grain LFSR round constants, the Cauchy MDS,
 * its sparse factorisation and the compressed round constants. Everything
 * is computed here from the definitions; nothing is pasted. */
#include <pthread.h>
#include <string.h>
#include "cuzk/poseidon.h"

enum { W = CZ_POSEIDON_MAX_WIDTH };
typedef cz_fr mat[W][W];

/* ---- Grain LFSR (Poseidon paper, appendix; neptune round_constants.rs) ---- */

typedef struct {
  uint8_t s[80]; /* s[(head + i) % 80] is state bit i, bit 0 the oldest */
  unsigned head;
} grain;

static void grain_push_bits(uint8_t *bits, unsigned *n, unsigned width, unsigned v) {
  for (unsigned i = width; i-- > 0;) bits[(*n)++] = (uint8_t)((v >> i) & 1); /* MSB first */
}

static uint8_t grain_step(grain *g) {
  const uint8_t *s = g->s;
  unsigned h = g->head;
#define GB(i) s[(h + (i)) % 80]
  uint8_t b = GB(62) ^ GB(51) ^ GB(38) ^ GB(23) ^ GB(13) ^ GB(0);
#undef GB
  g->s[h] = b; /* the oldest bit leaves, the new one enters at the end */
  g->head = (h + 1) % 80;
  return b;
}

/* Self-shrinking: of each pair, output the second bit when the first is 1. */
static uint8_t grain_bit(grain *g) {
  for (;;) {
    uint8_t first = grain_step(g), second = grain_step(g);
    if (first) return second;
  }
}

static void grain_init(grain *g, unsigned field_size, unsigned t, unsigned rf, unsigned rp) {
  unsigned n = 0;
  grain_push_bits(g->s, &n, 2, 1); /* field: prime order */
  grain_push_bits(g->s, &n, 4, 1); /* S-box tag neptune passes (1) */
  grain_push_bits(g->s, &n, 12, field_size);
  grain_push_bits(g->s, &n, 12, t);
  grain_push_bits(g->s, &n, 10, rf);
  grain_push_bits(g->s, &n, 10, rp);
  while (n < 80) g->s[n++] = 1;
  g->head = 0;
  for (int i = 0; i < 160; i++) grain_step(g);
}

/* 255-bit candidates, most significant bit first, rejected when >= r. */
static void grain_field_element(grain *g, cz_fr *out) {
  for (;;) {
    uint64_t limbs[CZ_FR_LIMBS] = {0};
    for (int bit = 254; bit >= 0; bit--)
      if (grain_bit(g)) limbs[bit / 64] |= 1ULL << (bit % 64);
    bool below = false;
    for (int i = CZ_FR_LIMBS - 1; i >= 0; i--) {
      if (limbs[i] != CZ_FR_MODULUS[i]) {
        below = limbs[i] < CZ_FR_MODULUS[i];
        break;
      }
    }
    if (below) {
      cz_fr_from_canonical(out, limbs);
      return;
    }
  }
}

/* ---- small matrix algebra (neptune matrix.rs semantics) ---- */

/* out = v * m (v a row vector): neptune's apply_matrix. */
static void apply_matrix(cz_fr *out, const cz_fr m[W][W], const cz_fr *v, unsigned t) {
  cz_fr r[W];
  for (unsigned j = 0; j < t; j++) {
    r[j] = CZ_FR_ZERO;
    for (unsigned i = 0; i < t; i++) {
      cz_fr tmp;
      cz_fr_mul(&tmp, &m[i][j], &v[i]);
      cz_fr_add(&r[j], &r[j], &tmp);
    }
  }
  memcpy(out, r, t * sizeof(cz_fr));
}

static void mat_mul(cz_fr out[W][W], const cz_fr a[W][W], const cz_fr b[W][W], unsigned t) {
  mat r;
  for (unsigned i = 0; i < t; i++)
    for (unsigned j = 0; j < t; j++) {
      r[i][j] = CZ_FR_ZERO;
      for (unsigned k = 0; k < t; k++) {
        cz_fr tmp;
        cz_fr_mul(&tmp, &a[i][k], &b[k][j]);
        cz_fr_add(&r[i][j], &r[i][j], &tmp);
      }
    }
  memcpy(out, r, sizeof r);
}

/* Gauss-Jordan. The inverse is unique, so the method need not be neptune's.
 * False when singular (never for the matrices used here). */
static bool mat_invert(cz_fr out[W][W], const cz_fr in[W][W], unsigned n) {
  mat a, inv;
  memcpy(a, in, sizeof a);
  for (unsigned i = 0; i < n; i++)
    for (unsigned j = 0; j < n; j++) inv[i][j] = i == j ? CZ_FR_ONE : CZ_FR_ZERO;
  for (unsigned c = 0; c < n; c++) {
    unsigned p = c;
    while (p < n && cz_fr_is_zero(&a[p][c])) p++;
    if (p == n) return false;
    if (p != c) {
      cz_fr tmp[W];
      memcpy(tmp, a[p], sizeof tmp);
      memcpy(a[p], a[c], sizeof tmp);
      memcpy(a[c], tmp, sizeof tmp);
      memcpy(tmp, inv[p], sizeof tmp);
      memcpy(inv[p], inv[c], sizeof tmp);
      memcpy(inv[c], tmp, sizeof tmp);
    }
    cz_fr piv;
    cz_fr_inv(&piv, &a[c][c]);
    for (unsigned j = 0; j < n; j++) {
      cz_fr_mul(&a[c][j], &a[c][j], &piv);
      cz_fr_mul(&inv[c][j], &inv[c][j], &piv);
    }
    for (unsigned r = 0; r < n; r++) {
      if (r == c || cz_fr_is_zero(&a[r][c])) continue;
      cz_fr f = a[r][c], tmp;
      for (unsigned j = 0; j < n; j++) {
        cz_fr_mul(&tmp, &f, &a[c][j]);
        cz_fr_sub(&a[r][j], &a[r][j], &tmp);
        cz_fr_mul(&tmp, &f, &inv[c][j]);
        cz_fr_sub(&inv[r][j], &inv[r][j], &tmp);
      }
    }
  }
  memcpy(out, inv, sizeof inv);
  return true;
}

/* neptune mds.rs derive_mds_matrices, the parts the factorisation needs:
 * m' (identity corner, m's lower-right block) and m'' (m[0][0], v = m's
 * first row rest; below it w_hat = w * m_hat^-1 and the identity). */
static void derive_prime(const cz_fr m[W][W], unsigned t, cz_fr prime[W][W], cz_fr dprime[W][W]) {
  mat hat, hat_inv;
  for (unsigned i = 1; i < t; i++)
    for (unsigned j = 1; j < t; j++) hat[i - 1][j - 1] = m[i][j];
  mat_invert(hat_inv, (const cz_fr(*)[W])hat, t - 1);
  cz_fr w[W], w_hat[W];
  for (unsigned i = 1; i < t; i++) w[i - 1] = m[i][0];
  apply_matrix(w_hat, (const cz_fr(*)[W])hat_inv, w, t - 1);
  for (unsigned i = 0; i < t; i++)
    for (unsigned j = 0; j < t; j++) {
      prime[i][j] = (i == 0) ? (j == 0 ? CZ_FR_ONE : CZ_FR_ZERO) : (j == 0 ? CZ_FR_ZERO : m[i][j]);
      if (i == 0) dprime[i][j] = m[0][j];
      else if (j == 0) dprime[i][j] = w_hat[i - 1];
      else dprime[i][j] = i == j ? CZ_FR_ONE : CZ_FR_ZERO;
    }
}

static unsigned partial_rounds_for(unsigned arity) {
  /* neptune round_numbers.rs calc_round_numbers(arity + 1, true): the
   * values its tests pin (tests/vectors/poseidon; circuit.rs counts
   * 311/377/505/598). */
  switch (arity) {
    case 2: return 55;
    case 4: return 56;
    case 8: return 57;
    case 11: return 57;
    default: return 0;
  }
}

bool cz_poseidon_arity_supported(unsigned arity) { return partial_rounds_for(arity) != 0; }

static void build(cz_poseidon_params *p, unsigned arity) {
  const unsigned t = arity + 1, rf = CZ_POSEIDON_FULL_ROUNDS, rp = partial_rounds_for(arity);
  const unsigned half = rf / 2;
  memset(p, 0, sizeof *p);
  p->arity = arity;
  p->width = t;
  p->full_rounds = rf;
  p->partial_rounds = rp;
  cz_fr_from_u64(&p->domain_tag, (1ULL << arity) - 1);

  grain g;
  grain_init(&g, 255, t, rf, rp);
  for (unsigned i = 0; i < (rf + rp) * t; i++) grain_field_element(&g, &p->round_constants[i]);

  for (unsigned i = 0; i < t; i++)
    for (unsigned j = 0; j < t; j++) {
      cz_fr_from_u64(&p->mds[i][j], i + t + j);
      cz_fr_inv(&p->mds[i][j], &p->mds[i][j]);
    }
  mat_invert(p->mds_inv, (const cz_fr(*)[W])p->mds, t);

  /* factor_to_sparse_matrices(m, rp): repeatedly split the accumulated
   * matrix into m' * m''; the m'' are used in reverse order. */
  mat curr, prime, dprime;
  memcpy(curr, p->mds, sizeof curr);
  for (unsigned k = 0; k < rp; k++) {
    derive_prime((const cz_fr(*)[W])curr, t, prime, dprime);
    unsigned idx = rp - 1 - k;
    for (unsigned i = 0; i < t; i++) p->sparse_w_hat[idx][i] = dprime[i][0];
    for (unsigned j = 1; j < t; j++) p->sparse_v_rest[idx][j - 1] = dprime[0][j];
    mat_mul(curr, (const cz_fr(*)[W])p->mds, (const cz_fr(*)[W])prime, t);
  }
  memcpy(p->pre_sparse, curr, sizeof curr);

  /* compress_round_constants(..., partial_preprocessed = rp). */
  const cz_fr *rk = p->round_constants;
  cz_fr *out = p->compressed;
  size_t n = 0;
  memcpy(out, rk, t * sizeof(cz_fr));
  n += t;
  for (unsigned i = 0; i + 1 < half; i++, n += t)
    apply_matrix(out + n, (const cz_fr(*)[W])p->mds_inv, rk + (i + 1) * t, t);
  cz_fr acc[W], partial_keys[CZ_POSEIDON_MAX_PARTIAL];
  const unsigned final_round = half + rp;
  memcpy(acc, rk + final_round * t, t * sizeof(cz_fr));
  for (unsigned i = 0; i < rp; i++) {
    cz_fr inv[W];
    apply_matrix(inv, (const cz_fr(*)[W])p->mds_inv, acc, t);
    partial_keys[i] = inv[0];
    inv[0] = CZ_FR_ZERO;
    const cz_fr *prev = rk + (final_round - i - 1) * t;
    for (unsigned j = 0; j < t; j++) cz_fr_add(&acc[j], &prev[j], &inv[j]);
  }
  apply_matrix(out + n, (const cz_fr(*)[W])p->mds_inv, acc, t);
  n += t;
  for (unsigned i = rp; i-- > 0;) out[n++] = partial_keys[i];
  for (unsigned i = 1; i < half; i++, n += t)
    apply_matrix(out + n, (const cz_fr(*)[W])p->mds_inv, rk + (i + half + rp) * t, t);
}

static cz_poseidon_params params_2, params_4, params_8, params_11;
static pthread_once_t once_2 = PTHREAD_ONCE_INIT, once_4 = PTHREAD_ONCE_INIT,
                      once_8 = PTHREAD_ONCE_INIT, once_11 = PTHREAD_ONCE_INIT;
static void build_2(void) { build(&params_2, 2); }
static void build_4(void) { build(&params_4, 4); }
static void build_8(void) { build(&params_8, 8); }
static void build_11(void) { build(&params_11, 11); }

const cz_poseidon_params *cz_poseidon_params_get(unsigned arity) {
  switch (arity) {
    case 2: pthread_once(&once_2, build_2); return &params_2;
    case 4: pthread_once(&once_4, build_4); return &params_4;
    case 8: pthread_once(&once_8, build_8); return &params_8;
    case 11: pthread_once(&once_11, build_11); return &params_11;
    default: return NULL;
  }
}

cz_err cz_poseidon_params_custom(cz_poseidon_params *out, unsigned arity, uint64_t id) {
  const cz_poseidon_params *base = cz_poseidon_params_get(arity);
  if (!out || !base || id < 1 || id > 256) return CZ_ERR_INVALID_ARG;
  *out = *base;
  cz_fr two40;
  cz_fr_from_u64(&two40, 1ull << 40);
  cz_fr_from_u64(&out->domain_tag, id);
  cz_fr_mul(&out->domain_tag, &out->domain_tag, &two40);
  return CZ_OK;
}
