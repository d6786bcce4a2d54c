/* Native Poseidon: the textbook permutation and neptune's optimised
 * (hash_optimized_static) form. State is a row vector; a matrix is applied
 * as state * M, as neptune does. */
#include <string.h>
#include "cuzk/parallel.h"
#include "cuzk/poseidon.h"

static inline void sbox(cz_fr *x) {
  cz_fr x2, x4;
  cz_fr_sqr(&x2, x);
  cz_fr_sqr(&x4, &x2);
  cz_fr_mul(x, x, &x4);
}

/* s = s * m, dense. */
static inline void mix(cz_fr *s, const cz_fr m[CZ_POSEIDON_MAX_WIDTH][CZ_POSEIDON_MAX_WIDTH],
                       unsigned t) {
  cz_fr r[CZ_POSEIDON_MAX_WIDTH];
  for (unsigned j = 0; j < t; j++) {
    cz_fr_mul(&r[j], &m[0][j], &s[0]);
    for (unsigned i = 1; i < t; i++) {
      cz_fr tmp;
      cz_fr_mul(&tmp, &m[i][j], &s[i]);
      cz_fr_add(&r[j], &r[j], &tmp);
    }
  }
  memcpy(s, r, t * sizeof(cz_fr));
}

/* s = s * M'' for sparse matrix k: s0' = <s, w_hat>, sj' = sj + v_j * s0. */
static inline void mix_sparse(cz_fr *s, const cz_poseidon_params *p, unsigned k) {
  const unsigned t = p->width;
  const cz_fr *w = p->sparse_w_hat[k], *v = p->sparse_v_rest[k];
  cz_fr s0, tmp;
  cz_fr_mul(&s0, &w[0], &s[0]);
  for (unsigned i = 1; i < t; i++) {
    cz_fr_mul(&tmp, &w[i], &s[i]);
    cz_fr_add(&s0, &s0, &tmp);
  }
  for (unsigned j = 1; j < t; j++) {
    cz_fr_mul(&tmp, &v[j - 1], &s[0]);
    cz_fr_add(&s[j], &s[j], &tmp);
  }
  s[0] = s0;
}

static inline void load(cz_fr *s, const cz_poseidon_params *p, const cz_fr *inputs) {
  s[0] = p->domain_tag;
  memcpy(s + 1, inputs, p->arity * sizeof(cz_fr));
}

void cz_poseidon_hash_plain(const cz_poseidon_params *p, const cz_fr *inputs, cz_fr *out) {
  const unsigned t = p->width, half = p->full_rounds / 2;
  const unsigned rounds = p->full_rounds + p->partial_rounds;
  cz_fr s[CZ_POSEIDON_MAX_WIDTH];
  load(s, p, inputs);
  for (unsigned r = 0; r < rounds; r++) {
    const cz_fr *c = p->round_constants + r * t;
    for (unsigned i = 0; i < t; i++) cz_fr_add(&s[i], &s[i], &c[i]);
    bool full = r < half || r >= half + p->partial_rounds;
    for (unsigned i = 0; i < (full ? t : 1); i++) sbox(&s[i]);
    mix(s, p->mds, t);
  }
  *out = s[1];
}

static void hash_opt(const cz_poseidon_params *p, const cz_fr *inputs, cz_fr *out) {
  const unsigned t = p->width, half = p->full_rounds / 2, rp = p->partial_rounds;
  const cz_fr *c = p->compressed;
  cz_fr s[CZ_POSEIDON_MAX_WIDTH];
  load(s, p, inputs);
  for (unsigned i = 0; i < t; i++) cz_fr_add(&s[i], &s[i], &c[i]);
  c += t;
  /* First half of the full rounds; the last of them mixes with the
   * pre-sparse matrix. */
  for (unsigned r = 0; r < half; r++) {
    for (unsigned i = 0; i < t; i++) {
      sbox(&s[i]);
      cz_fr_add(&s[i], &s[i], &c[i]);
    }
    c += t;
    mix(s, r + 1 == half ? p->pre_sparse : p->mds, t);
  }
  for (unsigned k = 0; k < rp; k++) {
    sbox(&s[0]);
    cz_fr_add(&s[0], &s[0], c++);
    mix_sparse(s, p, k);
  }
  for (unsigned r = 0; r < half; r++) {
    bool last = r + 1 == half;
    for (unsigned i = 0; i < t; i++) {
      sbox(&s[i]);
      if (!last) cz_fr_add(&s[i], &s[i], &c[i]);
    }
    if (!last) c += t;
    mix(s, p->mds, t);
  }
  *out = s[1];
}

void cz_poseidon_hash_opt(const cz_poseidon_params *p, const cz_fr *inputs, cz_fr *out) {
  hash_opt(p, inputs, out);
}

cz_err cz_poseidon_hash(unsigned arity, const cz_fr *inputs, cz_fr *out) {
  const cz_poseidon_params *p = cz_poseidon_params_get(arity);
  if (!p || !inputs || !out) return CZ_ERR_INVALID_ARG;
  hash_opt(p, inputs, out);
  return CZ_OK;
}

void cz_poseidon_hash_many(const cz_poseidon_params *p, const cz_fr *inputs, cz_fr *out, size_t n) {
  for (size_t i = 0; i < n; i++) hash_opt(p, inputs + i * p->arity, &out[i]);
}

typedef struct {
  const cz_poseidon_params *p;
  const cz_fr *in;
  cz_fr *out;
} many_ctx;

static void many_range(void *ctx, size_t begin, size_t end, unsigned worker) {
  (void)worker;
  const many_ctx *c = ctx;
  cz_poseidon_hash_many(c->p, c->in + begin * c->p->arity, c->out + begin, end - begin);
}

void cz_poseidon_hash_many_par(const cz_poseidon_params *p, const cz_fr *inputs, cz_fr *out,
                               size_t n, unsigned n_threads) {
  many_ctx c = {p, inputs, out};
  cz_parallel_for(n, n_threads, many_range, &c);
}
