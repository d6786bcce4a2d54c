/* The 8-lane Montgomery template behind ifma_field.h; included once per
 * field with these defined (and undefined again by ifma_field.h):
 *   IV        the vector type (cz_frv, cz_fpv)     IS   the scalar type
 *   IVN(x)    name builder (cz_frv_##x)            IL   52-bit limbs per element
 *   IW        64-bit words per scalar element      ISH  = 52 IL - 64 IW
 *   IP(i)     modulus limb i (52-bit)              IPINV = -p^-1 mod 2^52
 *   IONE(i)   limb i of R mod p, R = 2^(64 IW)     (the scalar code's one)
 * Every function needs CZ_IFMA_TARGET; see ifma_field.h for the contract. */

/* ---- limb helpers --------------------------------------------------------- */

static inline CZ_IFMA_INLINE CZ_IFMA_TARGET __m512i IVN(p_)(int i) {
  static const uint64_t p[IL] = {IP_LIST};
  return _mm512_set1_epi64((long long)p[i]);
}

/* ---- constants ------------------------------------------------------------ */

static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void IVN(zero)(IV *r) {
  CZ_IFMA_UNROLL
  for (int i = 0; i < IL; i++) r->l[i] = _mm512_setzero_si512();
}

static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void IVN(one)(IV *r) {
  static const uint64_t one[IL] = {IONE_LIST};
  CZ_IFMA_UNROLL
  for (int i = 0; i < IL; i++) r->l[i] = _mm512_set1_epi64((long long)one[i]);
}

/* ---- radix change: IW 64-bit words <-> IL 52-bit limbs, per lane ----------- */

/* w[] holds the IW words of each lane; limb k = bits [52k, 52k + 52). */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void IVN(from_words_)(IV *r, const __m512i *w) {
  const __m512i m = _mm512_set1_epi64((long long)CZ_IFMA_MASK52);
  CZ_IFMA_UNROLL
  for (int k = 0; k < IL; k++) {
    int bit = 52 * k, wi = bit / 64, off = bit % 64;
    __m512i v = _mm512_srli_epi64(w[wi], (unsigned)off);
    if (off > 12 && wi + 1 < IW)
      v = _mm512_or_si512(v, _mm512_slli_epi64(w[wi + 1], (unsigned)(64 - off)));
    r->l[k] = _mm512_and_si512(v, m);
  }
}

/* The inverse; needs normalized limbs (< 2^52). Word w = bits [64w, 64w + 64). */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void IVN(to_words_)(__m512i *w, const IV *a) {
  CZ_IFMA_UNROLL
  for (int i = 0; i < IW; i++) {
    int bit = 64 * i, k = bit / 52, off = bit % 52;
    __m512i v = _mm512_srli_epi64(a->l[k], (unsigned)off);
    if (k + 1 < IL) v = _mm512_or_si512(v, _mm512_slli_epi64(a->l[k + 1], (unsigned)(52 - off)));
    if (off > 40 && k + 2 < IL)
      v = _mm512_or_si512(v, _mm512_slli_epi64(a->l[k + 2], (unsigned)(104 - off)));
    w[i] = v;
  }
}

#if IW == 4
/* Contiguous x[0..7] -> lanes 0..7 for 4-word elements: four plain loads
 * (two elements each) and a 4x8 transpose by unpack and two-source permute,
 * cheaper than gathers, and scatters are slower still on the store side. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void IVN(load)(IV *r, const IS x[8]) {
  const __m512i *p = (const __m512i *)(const void *)x;
  __m512i v0 = _mm512_loadu_si512(p), v1 = _mm512_loadu_si512(p + 1);
  __m512i v2 = _mm512_loadu_si512(p + 2), v3 = _mm512_loadu_si512(p + 3);
  /* t0 = e0.0 e2.0 e0.2 e2.2 e1.0 e3.0 e1.2 e3.2, t1 the same for words 1, 3. */
  __m512i t0 = _mm512_unpacklo_epi64(v0, v1), t1 = _mm512_unpackhi_epi64(v0, v1);
  __m512i t2 = _mm512_unpacklo_epi64(v2, v3), t3 = _mm512_unpackhi_epi64(v2, v3);
  const __m512i lo = _mm512_setr_epi64(0, 4, 1, 5, 8, 12, 9, 13);
  const __m512i hi = _mm512_setr_epi64(2, 6, 3, 7, 10, 14, 11, 15);
  __m512i w[4] = {_mm512_permutex2var_epi64(t0, lo, t2), _mm512_permutex2var_epi64(t1, lo, t3),
                  _mm512_permutex2var_epi64(t0, hi, t2), _mm512_permutex2var_epi64(t1, hi, t3)};
  IVN(from_words_)(r, w);
}

static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void IVN(store)(IS out[8], const IV *a) {
  __m512i w[4];
  IVN(to_words_)(w, a);
  const __m512i lo = _mm512_setr_epi64(0, 2, 8, 10, 1, 3, 9, 11);
  const __m512i hi = _mm512_setr_epi64(4, 6, 12, 14, 5, 7, 13, 15);
  __m512i t0 = _mm512_permutex2var_epi64(w[0], lo, w[2]),
          t2 = _mm512_permutex2var_epi64(w[0], hi, w[2]);
  __m512i t1 = _mm512_permutex2var_epi64(w[1], lo, w[3]),
          t3 = _mm512_permutex2var_epi64(w[1], hi, w[3]);
  __m512i *p = (__m512i *)(void *)out;
  _mm512_storeu_si512(p, _mm512_unpacklo_epi64(t0, t1));
  _mm512_storeu_si512(p + 1, _mm512_unpackhi_epi64(t0, t1));
  _mm512_storeu_si512(p + 2, _mm512_unpacklo_epi64(t2, t3));
  _mm512_storeu_si512(p + 3, _mm512_unpackhi_epi64(t2, t3));
}
#else
/* Contiguous x[0..7] -> lanes 0..7: one gather per 64-bit word. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void IVN(load)(IV *r, const IS x[8]) {
  const __m512i idx = _mm512_setr_epi64(0, IW, 2 * IW, 3 * IW, 4 * IW, 5 * IW, 6 * IW, 7 * IW);
  __m512i w[IW];
  CZ_IFMA_UNROLL
  for (int i = 0; i < IW; i++) w[i] = _mm512_i64gather_epi64(idx, (const void *)&x[0].l[i], 8);
  IVN(from_words_)(r, w);
}

static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void IVN(store)(IS out[8], const IV *a) {
  const __m512i idx = _mm512_setr_epi64(0, IW, 2 * IW, 3 * IW, 4 * IW, 5 * IW, 6 * IW, 7 * IW);
  __m512i w[IW];
  IVN(to_words_)(w, a);
  CZ_IFMA_UNROLL
  for (int i = 0; i < IW; i++) _mm512_i64scatter_epi64((void *)&out[0].l[i], idx, w[i], 8);
}
#endif

/* Gather/scatter through 8 pointers (any may repeat; for to_mont a repeated
 * pointer receives its highest lane's value). */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void IVN(from_mont)(IV *r, const IS *const x[8]) {
  IS buf[8];
  for (int j = 0; j < 8; j++) buf[j] = *x[j];
  IVN(load)(r, buf);
}

static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void IVN(to_mont)(IS *const out[8], const IV *a) {
  IS buf[8];
  IVN(store)(buf, a);
  for (int j = 0; j < 8; j++) *out[j] = buf[j];
}

/* Every lane = *x. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void IVN(set1)(IV *r, const IS *x) {
  __m512i w[IW];
  CZ_IFMA_UNROLL
  for (int i = 0; i < IW; i++) w[i] = _mm512_set1_epi64((long long)x->l[i]);
  IVN(from_words_)(r, w);
}

/* ---- add, sub ------------------------------------------------------------- */

/* r = a + b mod p. s = a + b and d = s - p run as two carry chains side by
 * side (signed carries for d: an arithmetic shift gives the borrow), and
 * the lanes where d went negative keep s. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void IVN(add)(IV *r, const IV *a, const IV *b) {
  const __m512i m = _mm512_set1_epi64((long long)CZ_IFMA_MASK52);
  __m512i cs = _mm512_setzero_si512(), cd = _mm512_setzero_si512(), s[IL], d[IL];
  CZ_IFMA_UNROLL
  for (int k = 0; k < IL; k++) {
    __m512i t = _mm512_add_epi64(_mm512_add_epi64(a->l[k], b->l[k]), cs);
    cs = _mm512_srli_epi64(t, 52);
    s[k] = _mm512_and_si512(t, m);
    __m512i u = _mm512_add_epi64(_mm512_sub_epi64(s[k], IVN(p_)(k)), cd);
    cd = _mm512_srai_epi64(u, 52);
    d[k] = _mm512_and_si512(u, m);
  }
  __mmask8 keep_s = _mm512_cmplt_epi64_mask(cd, _mm512_setzero_si512());
  CZ_IFMA_UNROLL
  for (int k = 0; k < IL; k++) r->l[k] = _mm512_mask_blend_epi64(keep_s, d[k], s[k]);
}

/* r = a - b mod p: d = a - b, e = d + p; lanes where d went negative take e. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void IVN(sub)(IV *r, const IV *a, const IV *b) {
  const __m512i m = _mm512_set1_epi64((long long)CZ_IFMA_MASK52);
  __m512i cd = _mm512_setzero_si512(), ce = _mm512_setzero_si512(), d[IL], e[IL];
  CZ_IFMA_UNROLL
  for (int k = 0; k < IL; k++) {
    __m512i t = _mm512_add_epi64(_mm512_sub_epi64(a->l[k], b->l[k]), cd);
    cd = _mm512_srai_epi64(t, 52);
    d[k] = _mm512_and_si512(t, m);
    __m512i u = _mm512_add_epi64(_mm512_add_epi64(d[k], IVN(p_)(k)), ce);
    ce = _mm512_srli_epi64(u, 52);
    e[k] = _mm512_and_si512(u, m);
  }
  __mmask8 take_e = _mm512_cmplt_epi64_mask(cd, _mm512_setzero_si512());
  CZ_IFMA_UNROLL
  for (int k = 0; k < IL; k++) r->l[k] = _mm512_mask_blend_epi64(take_e, d[k], e[k]);
}

static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void IVN(neg)(IV *r, const IV *a) {
  IV z;
  IVN(zero)(&z);
  IVN(sub)(r, &z, a);
}

static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void IVN(dbl)(IV *r, const IV *a) { IVN(add)(r, a, a); }

/* ---- Montgomery product ---------------------------------------------------- */

/* bs = b * 2^ISH as an IL-limb integer (not reduced: < 2^(52 IL) because
 * b < p < 2^(64 IW)): the operand form IVN(mul_prepared) takes. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void IVN(mul_prepare)(IV *bs, const IV *b) {
  const __m512i m = _mm512_set1_epi64((long long)CZ_IFMA_MASK52);
  __m512i prev = _mm512_setzero_si512();
  CZ_IFMA_UNROLL
  for (int k = 0; k < IL; k++) {
    __m512i cur = b->l[k];
    bs->l[k] = _mm512_or_si512(_mm512_and_si512(_mm512_slli_epi64(cur, ISH), m),
                               _mm512_srli_epi64(prev, 52 - ISH));
    prev = cur;
  }
}

/* r = a * bs * 2^(-52 IL) mod p = a * b * 2^(-64 IW) mod p for bs from
 * IVN(mul_prepare)(b): the scalar code's Montgomery product. Operand
 * scanning with one IL-limb row of a * bs_i followed by one 52-bit
 * reduction step, interleaved (CIOS); the 64-bit lanes hold the column sums
 * unnormalized (at most 4 IL terms of < 2^52 each, no overflow) and only the
 * reduced column's carry is passed on per step. a < 2^(64 IW) and b < p give
 * a * bs < 2^(52 IL) p, so the sum before the last subtraction is < 2p. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void IVN(mul_prepared)(IV *r, const IV *a,
                                                                   const IV *bs) {
  const __m512i m = _mm512_set1_epi64((long long)CZ_IFMA_MASK52);
  const __m512i pinv = _mm512_set1_epi64((long long)IPINV);
  const __m512i z = _mm512_setzero_si512();
  __m512i t[2 * IL + 1], al[IL];
  CZ_IFMA_UNROLL
  for (int k = 0; k <= 2 * IL; k++) t[k] = z;
  CZ_IFMA_UNROLL
  for (int k = 0; k < IL; k++) al[k] = a->l[k]; /* a may alias r */
  CZ_IFMA_UNROLL
  for (int i = 0; i < IL; i++) {
    __m512i bi = bs->l[i];
    CZ_IFMA_UNROLL
    for (int j = 0; j < IL; j++) {
      t[i + j] = _mm512_madd52lo_epu64(t[i + j], al[j], bi);
      t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], al[j], bi);
    }
    /* q = t_i * (-p^-1) mod 2^52 (madd52lo reads only the low 52 bits). */
    __m512i q = _mm512_madd52lo_epu64(z, t[i], pinv);
    CZ_IFMA_UNROLL
    for (int j = 0; j < IL; j++) {
      t[i + j] = _mm512_madd52lo_epu64(t[i + j], q, IVN(p_)(j));
      t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], q, IVN(p_)(j));
    }
    t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srli_epi64(t[i], 52)); /* t_i = 0 mod 2^52 */
  }
  /* Normalize t_IL.. (value < 2p < 2^(52 IL)) and subtract p alongside. */
  __m512i cs = z, cd = z, s[IL], d[IL];
  CZ_IFMA_UNROLL
  for (int k = 0; k < IL; k++) {
    __m512i v = _mm512_add_epi64(t[IL + k], cs);
    cs = _mm512_srli_epi64(v, 52);
    s[k] = _mm512_and_si512(v, m);
    __m512i u = _mm512_add_epi64(_mm512_sub_epi64(s[k], IVN(p_)(k)), cd);
    cd = _mm512_srai_epi64(u, 52);
    d[k] = _mm512_and_si512(u, m);
  }
  __mmask8 keep_s = _mm512_cmplt_epi64_mask(cd, z);
  CZ_IFMA_UNROLL
  for (int k = 0; k < IL; k++) r->l[k] = _mm512_mask_blend_epi64(keep_s, d[k], s[k]);
}

static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void IVN(mul)(IV *r, const IV *a, const IV *b) {
  IV bs;
  IVN(mul_prepare)(&bs, b);
  IVN(mul_prepared)(r, a, &bs);
}

static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void IVN(sqr)(IV *r, const IV *a) { IVN(mul)(r, a, a); }

/* ---- predicates, select ---------------------------------------------------- */

static inline CZ_IFMA_INLINE CZ_IFMA_TARGET __mmask8 IVN(is_zero)(const IV *a) {
  __m512i acc = a->l[0];
  CZ_IFMA_UNROLL
  for (int k = 1; k < IL; k++) acc = _mm512_or_si512(acc, a->l[k]);
  return _mm512_cmpeq_epi64_mask(acc, _mm512_setzero_si512());
}

static inline CZ_IFMA_INLINE CZ_IFMA_TARGET __mmask8 IVN(eq)(const IV *a, const IV *b) {
  __m512i acc = _mm512_xor_si512(a->l[0], b->l[0]);
  CZ_IFMA_UNROLL
  for (int k = 1; k < IL; k++) acc = _mm512_or_si512(acc, _mm512_xor_si512(a->l[k], b->l[k]));
  return _mm512_cmpeq_epi64_mask(acc, _mm512_setzero_si512());
}

/* Lane j of r = lane j of a where bit j of mask is set, else of b. */
static inline CZ_IFMA_INLINE CZ_IFMA_TARGET void IVN(select)(IV *r, __mmask8 mask, const IV *a,
                                                             const IV *b) {
  CZ_IFMA_UNROLL
  for (int k = 0; k < IL; k++) r->l[k] = _mm512_mask_blend_epi64(mask, b->l[k], a->l[k]);
}
