/* One source for the zcash point encoding of G1 and G2 (the format of
 * zcash's bls12_381 crate, used by bellperson, blst and Filecoin).
 * Include after curve_impl.h and after defining:
 *   F_BYTES               bytes of one encoded coordinate (48 for Fp, 96 for Fp2)
 *   F_TO_BYTES(out, a)    big-endian coordinate encoding
 *   F_FROM_BYTES(a, in)   its decoding, CZ_ERR_NONCANONICAL when >= p
 *   F_SQRT_ANY(r, a)      a square root of either sign, false for non-squares
 * and GN(affine_is_in_subgroup). FF must provide is_lexicographically_largest.
 *
 * Byte 0 carries three flags in its top bits: */
#define ENC_COMPRESSED 0x80
#define ENC_INFINITY 0x40
#define ENC_SIGN 0x20 /* y is the lexicographically largest of y, -y */
#define ENC_FLAGS (ENC_COMPRESSED | ENC_INFINITY | ENC_SIGN)

void GN(affine_compress)(uint8_t out[F_BYTES], const AFF *p) {
  if (GN(aff_is_id)(p)) {
    memset(out, 0, F_BYTES);
    out[0] = ENC_COMPRESSED | ENC_INFINITY;
    return;
  }
  F_TO_BYTES(out, &p->x);
  out[0] |= ENC_COMPRESSED;
  if (FF(is_lexicographically_largest)(&p->y)) out[0] |= ENC_SIGN;
}

void GN(affine_serialize)(uint8_t out[2 * F_BYTES], const AFF *p) {
  if (GN(aff_is_id)(p)) {
    memset(out, 0, 2 * F_BYTES);
    out[0] = ENC_INFINITY;
    return;
  }
  F_TO_BYTES(out, &p->x);
  F_TO_BYTES(out + F_BYTES, &p->y);
}

/* The infinity encoding allows no other set bit anywhere. */
static bool GN(rest_is_zero)(const uint8_t *in, size_t n) {
  uint8_t acc = in[0] & (uint8_t)~ENC_FLAGS;
  for (size_t i = 1; i < n; i++) acc |= in[i];
  return acc == 0;
}

static cz_err GN(check_subgroup)(const AFF *p, bool check_subgroup) {
  if (check_subgroup && !GN(affine_is_in_subgroup)(p)) return CZ_ERR_NOT_IN_SUBGROUP;
  return CZ_OK;
}

cz_err GN(affine_decompress)(AFF *p, const uint8_t in[F_BYTES], bool check_subgroup) {
  const uint8_t flags = in[0] & ENC_FLAGS;
  if (!(flags & ENC_COMPRESSED)) return CZ_ERR_BAD_FLAGS;
  if (flags & ENC_INFINITY) {
    if ((flags & ENC_SIGN) || !GN(rest_is_zero)(in, F_BYTES)) return CZ_ERR_BAD_FLAGS;
    p->x = F_ZERO;
    p->y = F_ZERO;
    return CZ_OK;
  }
  uint8_t buf[F_BYTES];
  memcpy(buf, in, F_BYTES);
  buf[0] &= (uint8_t)~ENC_FLAGS;
  F x, y2, y;
  cz_err e = F_FROM_BYTES(&x, buf);
  if (e != CZ_OK) return e;
  FF(sqr)(&y2, &x);
  FF(mul)(&y2, &y2, &x);
  FF(add)(&y2, &y2, &CURVE_B);
  if (!F_SQRT_ANY(&y, &y2)) return CZ_ERR_NOT_ON_CURVE;
  /* y != 0 here: neither group has a point of order 2 (both orders are
   * odd), so exactly one of y, -y carries the sign bit. */
  if (FF(is_lexicographically_largest)(&y) != ((flags & ENC_SIGN) != 0)) FF(neg)(&y, &y);
  p->x = x;
  p->y = y;
  return GN(check_subgroup)(p, check_subgroup);
}

cz_err GN(affine_deserialize_checking)(AFF *p, const uint8_t in[2 * F_BYTES],
                                       cz_point_check check) {
  const uint8_t flags = in[0] & ENC_FLAGS;
  if (flags & (ENC_COMPRESSED | ENC_SIGN)) return CZ_ERR_BAD_FLAGS;
  if (flags & ENC_INFINITY) {
    if (!GN(rest_is_zero)(in, 2 * F_BYTES)) return CZ_ERR_BAD_FLAGS;
    p->x = F_ZERO;
    p->y = F_ZERO;
    return CZ_OK;
  }
  F x, y;
  cz_err e = F_FROM_BYTES(&x, in);
  if (e == CZ_OK) e = F_FROM_BYTES(&y, in + F_BYTES);
  if (e != CZ_OK) return e;
  /* The raw equation, not is_on_curve: (0, 0) without the infinity flag is
   * not a valid encoding. */
  if (check >= CZ_POINT_ON_CURVE && !GN(satisfies_equation)(&x, &y)) return CZ_ERR_NOT_ON_CURVE;
  p->x = x;
  p->y = y;
  return GN(check_subgroup)(p, check == CZ_POINT_IN_SUBGROUP);
}

cz_err GN(affine_deserialize)(AFF *p, const uint8_t in[2 * F_BYTES], bool check_subgroup) {
  return GN(affine_deserialize_checking)(p, in,
                                         check_subgroup ? CZ_POINT_IN_SUBGROUP : CZ_POINT_ON_CURVE);
}

#undef ENC_COMPRESSED
#undef ENC_INFINITY
#undef ENC_SIGN
#undef ENC_FLAGS
