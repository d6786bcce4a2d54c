/* Groth16 verification against real Filecoin data (tests/vectors):
 *  - the official WinningPoSt 2 KiB key (bellperson layout, uncompressed)
 *    with a proof made by filecoin-ffi v1.36.0 and its 132 public inputs;
 *  - a 2 KiB PoRep key (compressed layout) with a real proof and 39 inputs
 *    from eigerco/polka-storage.
 * Both proofs were checked by independent verifiers (see the READMEs there).
 * A missing vector file is a failure, never a skip. */
#include <jansson.h>
#include "check.h"
#include "cuzk/fp2.h"
#include "cuzk/groth16.h"

#define WP_DIR "tests/vectors/winningpost-2kib/"
#define PR_DIR "tests/vectors/porep-2kib-v1_1/"

/* ---- loading the vectors ---------------------------------------------- */

static uint8_t *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "missing vector file %s\n", path);
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *b = malloc((size_t)n + 1);
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
    free(b);
    b = NULL;
  }
  fclose(f);
  if (b) {
    b[n] = 0;
    *len = (size_t)n;
  }
  return b;
}

/* Hex text (surrounding whitespace allowed) -> fresh buffer. */
static uint8_t *unhex(const char *s, size_t *len) {
  while (*s == ' ' || *s == '\n') s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\r')) n--;
  char *t = malloc(n + 1);
  memcpy(t, s, n);
  t[n] = 0;
  uint8_t *out = malloc(n / 2 + 1);
  long got = check_hex(out, n / 2 + 1, t);
  free(t);
  if (got < 0 || (size_t)got * 2 != n) {
    free(out);
    return NULL;
  }
  *len = (size_t)got;
  return out;
}

static bool load_proof_hex(uint8_t out[CZ_GROTH16_PROOF_BYTES], const char *path,
                           const char *field) {
  json_error_t je;
  json_t *j = json_load_file(path, 0, &je);
  if (!j) {
    fprintf(stderr, "cannot load %s: %s\n", path, je.text);
    return false;
  }
  size_t n = 0;
  uint8_t *b = NULL;
  const char *s = json_string_value(json_object_get(j, field));
  if (s) b = unhex(s, &n);
  bool ok = b && n == CZ_GROTH16_PROOF_BYTES;
  if (ok) memcpy(out, b, n);
  free(b);
  json_decref(j);
  return ok;
}

/* public_inputs.json: {"count": N, "inputs": [32-byte LE hex, ...]}. */
static cz_fr *load_inputs(const char *path, size_t *n) {
  json_error_t je;
  json_t *j = json_load_file(path, 0, &je);
  if (!j) {
    fprintf(stderr, "cannot load %s: %s\n", path, je.text);
    return NULL;
  }
  json_t *arr = json_object_get(j, "inputs");
  size_t count = json_array_size(arr);
  cz_fr *v = malloc((count ? count : 1) * sizeof *v);
  bool ok = count == (size_t)json_integer_value(json_object_get(j, "count"));
  for (size_t i = 0; ok && i < count; i++) {
    size_t blen = 0;
    uint8_t *b = unhex(json_string_value(json_array_get(arr, i)), &blen);
    ok = b && blen == 32 && cz_fr_from_bytes_le(&v[i], b) == CZ_OK;
    free(b);
  }
  json_decref(j);
  if (!ok) {
    free(v);
    return NULL;
  }
  *n = count;
  return v;
}

/* ---- helpers ----------------------------------------------------------- */

/* Read a key from an exactly-sized heap copy of buf[0..len), so that the
 * sanitizer sees any read past the end. */
static cz_err read_exact_copy(const uint8_t *buf, size_t len, bool compressed, size_t *used) {
  uint8_t *copy = malloc(len ? len : 1);
  memcpy(copy, buf, len);
  cz_groth16_vk vk;
  cz_err e = cz_groth16_vk_read(&vk, copy, len, compressed, used);
  cz_groth16_vk_free(&vk);
  free(copy);
  return e;
}

/* Fails closed: a decode error or PROOF_INVALID is a rejection; CZ_OK is not. */
static cz_err check_proof_bytes(const cz_groth16_vk *vk, const cz_groth16_pvk *pvk, const cz_fr *in,
                                size_t n, const uint8_t bytes[CZ_GROTH16_PROOF_BYTES],
                                int *reached_pairing) {
  cz_groth16_proof p;
  cz_err e = cz_groth16_proof_read(&p, bytes);
  if (e != CZ_OK) return e;
  if (reached_pairing) (*reached_pairing)++;
  e = cz_groth16_verify(vk, in, n, &p);
  CHECK_EQ_INT(cz_groth16_verify_prepared(pvk, in, n, &p), e);
  return e;
}

/* Both verifiers on the same data must agree; returns the plain one's. */
static cz_err verify_both(const cz_groth16_vk *vk, const cz_groth16_pvk *pvk, const cz_fr *in,
                          size_t n, const cz_groth16_proof *proof) {
  cz_err e = cz_groth16_verify(vk, in, n, proof);
  CHECK_EQ_INT(cz_groth16_verify_prepared(pvk, in, n, proof), e);
  return e;
}

/* An on-curve G1 point outside the order-r subgroup, big-endian x|y. The
 * cofactor is about 2^126, so a point found by trying small x is outside the
 * subgroup except with negligible probability. */
static void g1_non_subgroup(uint8_t out[96]) {
  cz_fp four, x, y, rhs;
  cz_fp_from_u64(&four, 4);
  for (uint64_t i = 1;; i++) {
    cz_fp_from_u64(&x, i);
    cz_fp_sqr(&rhs, &x);
    cz_fp_mul(&rhs, &rhs, &x);
    cz_fp_add(&rhs, &rhs, &four);
    if (cz_fp_sqrt(&y, &rhs)) break;
  }
  cz_fp_to_bytes_be(out, &x);
  cz_fp_to_bytes_be(out + 48, &y);
}

/* The same on the twist y^2 = x^3 + 4(1+u); bytes x.c1|x.c0|y.c1|y.c0. */
static void g2_non_subgroup(uint8_t out[192]) {
  cz_fp2 b = {CZ_FP_ZERO, CZ_FP_ZERO}, x = {CZ_FP_ZERO, CZ_FP_ZERO}, y, rhs;
  cz_fp_from_u64(&b.c0, 4);
  cz_fp_from_u64(&b.c1, 4);
  for (uint64_t i = 1;; i++) {
    cz_fp_from_u64(&x.c0, i);
    cz_fp2_sqr(&rhs, &x);
    cz_fp2_mul(&rhs, &rhs, &x);
    cz_fp2_add(&rhs, &rhs, &b);
    if (cz_fp2_sqrt(&y, &rhs)) break;
  }
  cz_fp_to_bytes_be(out, &x.c1);
  cz_fp_to_bytes_be(out + 48, &x.c0);
  cz_fp_to_bytes_be(out + 96, &y.c1);
  cz_fp_to_bytes_be(out + 144, &y.c0);
}

static void add_one(cz_fr *x) { cz_fr_add(x, x, &CZ_FR_ONE); }

/* ---- WinningPoSt (uncompressed key) ------------------------------------ */

/* Offsets in the uncompressed layout. */
enum { U_ALPHA = 0, U_BETA_G2 = 192, U_COUNT = 96 * 3 + 192 * 3, U_IC = U_COUNT + 4 };

/* What the WinningPoSt checks share: the key file's bytes and the key read
 * from it, its prepared form, the vector's inputs and its proof. */
typedef struct {
  const uint8_t *vk_bytes;
  size_t vk_len;
  cz_groth16_vk vk;
  const cz_groth16_pvk *pvk;
  cz_fr *in;
  size_t n;
  cz_groth16_proof proof;
  uint8_t pb[CZ_GROTH16_PROOF_BYTES];
} wp_case;

/* Changed proof bytes, swapped points, the point at infinity: all refused. */
static void wp_tampered_proofs(const wp_case *w) {
  cz_groth16_vk vk = w->vk;
  const cz_groth16_pvk *pvk = w->pvk;
  cz_fr *in = w->in;
  size_t n = w->n;
  cz_groth16_proof proof = w->proof;
  const uint8_t *pb = w->pb;
  /* Every proof byte changed is rejected. One bit per byte, walking through
   * the bit positions; then each point's sign and infinity flags. */
  int reached = 0;
  for (int i = 0; i < CZ_GROTH16_PROOF_BYTES; i++) {
    uint8_t t[CZ_GROTH16_PROOF_BYTES];
    memcpy(t, pb, sizeof t);
    t[i] ^= (uint8_t)(0x80 >> (i % 8));
    cz_err e = check_proof_bytes(&vk, pvk, in, n, t, &reached);
    if (e == CZ_OK) fprintf(stderr, "proof with byte %d changed verifies\n", i);
    CHECK(e != CZ_OK);
  }
  const int starts[3] = {0, 48, 144};
  for (int k = 0; k < 3; k++) {
    for (int f = 0; f < 2; f++) {
      uint8_t t[CZ_GROTH16_PROOF_BYTES];
      memcpy(t, pb, sizeof t);
      t[starts[k]] ^= f ? 0x40 : 0x20; /* infinity flag, y-sign flag */
      cz_err e = check_proof_bytes(&vk, pvk, in, n, t, &reached);
      /* A flipped sign gives -P: it decodes and must fail the pairing. */
      CHECK_EQ_INT(e, f ? CZ_ERR_BAD_FLAGS : CZ_ERR_PROOF_INVALID);
    }
  }
  printf("proof tampering: %d of %d changed proofs decoded and reached the pairing\n", reached,
         CZ_GROTH16_PROOF_BYTES + 6);

  /* A and C swapped: well-formed, wrong. */
  {
    cz_groth16_proof sw = proof;
    sw.a = proof.c;
    sw.c = proof.a;
    CHECK_EQ_INT(verify_both(&vk, pvk, in, n, &sw), CZ_ERR_PROOF_INVALID);
  }
  /* The point at infinity is refused in a proof, as bellperson refuses it. */
  {
    uint8_t t[CZ_GROTH16_PROOF_BYTES];
    memcpy(t, pb, sizeof t);
    memset(t, 0, 48);
    t[0] = 0xc0;
    cz_groth16_proof p;
    CHECK_EQ_INT(cz_groth16_proof_read(&p, t), CZ_ERR_BAD_FLAGS);
  }
}

/* Changed inputs and wrong input counts: refused. */
static void wp_changed_inputs(const wp_case *w) {
  cz_groth16_vk vk = w->vk;
  const cz_groth16_pvk *pvk = w->pvk;
  cz_fr *in = w->in;
  size_t n = w->n;
  cz_groth16_proof proof = w->proof;
  /* Every public input changed (+1) is rejected. */
  for (size_t i = 0; i < n; i++) {
    cz_fr saved = in[i];
    add_one(&in[i]);
    cz_err e = verify_both(&vk, pvk, in, n, &proof);
    if (e != CZ_ERR_PROOF_INVALID) fprintf(stderr, "input %zu + 1: %s\n", i, cz_err_str(e));
    CHECK_EQ_INT(e, CZ_ERR_PROOF_INVALID);
    in[i] = saved;
  }
  CHECK_EQ_INT(cz_groth16_verify(&vk, in, n, &proof), CZ_OK);

  /* Wrong input counts. */
  CHECK_EQ_INT(cz_groth16_verify(&vk, in, n - 1, &proof), CZ_ERR_INVALID_ARG);
  cz_fr *more = malloc((n + 1) * sizeof *more);
  memcpy(more, in, n * sizeof *in);
  more[n] = CZ_FR_ZERO;
  CHECK_EQ_INT(cz_groth16_verify(&vk, more, n + 1, &proof), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_groth16_verify(&vk, NULL, 0, &proof), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_groth16_verify_prepared(pvk, in, n - 1, &proof), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_groth16_verify_prepared(pvk, more, n + 1, &proof), CZ_ERR_INVALID_ARG);
  free(more);
}

/* Inputs of 0 and 1, which take shortcuts in the IC combination. */
static void wp_zero_one_inputs(const wp_case *w) {
  cz_groth16_vk vk = w->vk;
  cz_fr *in = w->in;
  size_t n = w->n;
  cz_groth16_proof proof = w->proof;
  /* Inputs equal to 0 and 1 take shortcuts in the IC combination. Fold
   * (x_i - c) IC_{i+1} into IC0 for a set of positions and set those
   * inputs to c: the equation is unchanged, so the proof must still verify
   * (and the unchanged key must now reject it). */
  for (int c = 0; c <= 1; c++) {
    cz_groth16_vk vk2 = vk;
    vk2.ic = malloc(vk.n_ic * sizeof *vk.ic);
    memcpy(vk2.ic, vk.ic, vk.n_ic * sizeof *vk.ic);
    cz_fr *in2 = malloc(n * sizeof *in2);
    memcpy(in2, in, n * sizeof *in);
    cz_fr cval = c ? CZ_FR_ONE : CZ_FR_ZERO;
    cz_g1 acc, t;
    cz_g1_from_affine(&acc, &vk.ic[0]);
    for (size_t i = 0; i < n; i += 3) {
      cz_fr d;
      cz_fr_sub(&d, &in[i], &cval);
      cz_g1_from_affine(&t, &vk.ic[i + 1]);
      cz_g1_mul_fr(&t, &t, &d);
      cz_g1_add(&acc, &acc, &t);
      in2[i] = cval;
    }
    cz_g1_to_affine(&vk2.ic[0], &acc);
    CHECK_EQ_INT(cz_groth16_verify(&vk2, in2, n, &proof), CZ_OK);
    CHECK_EQ_INT(cz_groth16_verify(&vk, in2, n, &proof), CZ_ERR_PROOF_INVALID);
    free(in2);
    free(vk2.ic);
  }
}

/* The key written back, in both layouts. */
static void wp_key_round_trips(const wp_case *w) {
  cz_groth16_vk vk = w->vk;
  const uint8_t *vk_bytes = w->vk_bytes;
  size_t vk_len = w->vk_len;
  cz_fr *in = w->in;
  size_t n = w->n;
  cz_groth16_proof proof = w->proof;
  /* Round trips: uncompressed -> same bytes; via the compressed layout and
   * back -> same bytes. */
  {
    size_t need = cz_groth16_vk_write(NULL, &vk, false);
    CHECK_EQ_INT(need, vk_len);
    uint8_t *w = malloc(need);
    CHECK_EQ_INT(cz_groth16_vk_write(w, &vk, false), need);
    CHECK_MEM(w, vk_bytes, vk_len);
    size_t clen = cz_groth16_vk_write(NULL, &vk, true);
    CHECK_EQ_INT(clen, 48 * 3 + 96 * 3 + 4 + 48 * 133);
    uint8_t *cw = malloc(clen);
    cz_groth16_vk_write(cw, &vk, true);
    cz_groth16_vk vkc;
    CHECK_EQ_INT(cz_groth16_vk_read(&vkc, cw, clen, true, NULL), CZ_OK);
    memset(w, 0, need);
    cz_groth16_vk_write(w, &vkc, false);
    CHECK_MEM(w, vk_bytes, vk_len);
    CHECK_EQ_INT(cz_groth16_verify(&vkc, in, n, &proof), CZ_OK);
    cz_groth16_vk_free(&vkc);
    CHECK(vkc.ic == NULL && vkc.n_ic == 0);
    free(cw);
    free(w);
  }
}

/* Truncated keys and keys with trailing bytes. */
static void wp_key_lengths(const wp_case *w) {
  const uint8_t *vk_bytes = w->vk_bytes;
  size_t vk_len = w->vk_len;
  /* Every truncation is CZ_ERR_TRUNCATED, with or without `used`. */
  {
    int bad = 0;
    for (size_t len = 0; len < vk_len; len++) {
      size_t used = 0;
      if (read_exact_copy(vk_bytes, len, false, NULL) != CZ_ERR_TRUNCATED) bad++;
      if (len % 97 == 0 && read_exact_copy(vk_bytes, len, false, &used) != CZ_ERR_TRUNCATED) bad++;
    }
    CHECK_EQ_INT(bad, 0);
  }

  /* Trailing bytes: refused without `used`, reported with it. */
  {
    uint8_t *longer = malloc(vk_len + 5);
    memcpy(longer, vk_bytes, vk_len);
    memset(longer + vk_len, 0xab, 5);
    CHECK_EQ_INT(read_exact_copy(longer, vk_len + 5, false, NULL), CZ_ERR_TRAILING);
    size_t used = 0;
    CHECK_EQ_INT(read_exact_copy(longer, vk_len + 5, false, &used), CZ_OK);
    CHECK_EQ_INT(used, vk_len);
    free(longer);
  }
}

/* Corrupted key points and counts. */
static void wp_key_corruptions(const wp_case *w) {
  const uint8_t *vk_bytes = w->vk_bytes;
  size_t vk_len = w->vk_len;
  /* Corrupted points and counts give the matching decode error. */
  {
    uint8_t *t = malloc(vk_len);
    size_t used;
#define CORRUPT(stmt, expect) \
  do { \
    memcpy(t, vk_bytes, vk_len); \
    stmt; \
    CHECK_EQ_INT(read_exact_copy(t, vk_len, false, NULL), expect); \
  } while (0)
    /* the compression flag set in the uncompressed layout */
    CORRUPT(t[U_ALPHA] |= 0x80, CZ_ERR_BAD_FLAGS);
    CORRUPT(t[U_BETA_G2] |= 0x80, CZ_ERR_BAD_FLAGS);
    /* x = p: not a canonical field element (p's top byte 0x1a has no flags) */
    {
      uint8_t pb_[48];
      for (int i = 0; i < 48; i++)
        pb_[i] = (uint8_t)(CZ_FP_MODULUS[5 - i / 8] >> (56 - 8 * (i % 8)));
      CORRUPT(memcpy(t + U_ALPHA, pb_, 48), CZ_ERR_NONCANONICAL);
      CORRUPT(memcpy(t + U_IC + 96 * 7 + 48, pb_, 48), CZ_ERR_NONCANONICAL);
    }
    /* y changed: off the curve */
    CORRUPT(t[U_ALPHA + 95] ^= 1, CZ_ERR_NOT_ON_CURVE);
    CORRUPT(t[U_BETA_G2 + 191] ^= 1, CZ_ERR_NOT_ON_CURVE);
    CORRUPT(t[U_IC + 96 * 132 + 95] ^= 1, CZ_ERR_NOT_ON_CURVE);
    /* on the curve, outside the subgroup */
    {
      uint8_t p1[96], p2[192];
      g1_non_subgroup(p1);
      g2_non_subgroup(p2);
      CORRUPT(memcpy(t + U_IC + 96 * 5, p1, 96), CZ_ERR_NOT_IN_SUBGROUP);
      CORRUPT(memcpy(t + U_ALPHA, p1, 96), CZ_ERR_NOT_IN_SUBGROUP);
      CORRUPT(memcpy(t + U_BETA_G2, p2, 192), CZ_ERR_NOT_IN_SUBGROUP);
    }
    /* the point at infinity in IC (bellperson refuses it) and in gamma */
    CORRUPT((memset(t + U_IC + 96 * 3, 0, 96), t[U_IC + 96 * 3] = 0x40), CZ_ERR_BAD_FLAGS);
    CORRUPT((memset(t + U_BETA_G2 + 192, 0, 192), t[U_BETA_G2 + 192] = 0x40), CZ_ERR_BAD_FLAGS);
    /* absurd IC counts: checked against the length before any allocation */
    CORRUPT(memset(t + U_COUNT, 0xff, 4), CZ_ERR_TRUNCATED);
    CORRUPT(t[U_COUNT + 3] = 134, CZ_ERR_TRUNCATED);
    CORRUPT(t[U_COUNT + 3] = 132, CZ_ERR_TRAILING);
    memcpy(t, vk_bytes, vk_len);
    t[U_COUNT + 3] = 132;
    CHECK_EQ_INT(read_exact_copy(t, vk_len, false, &used), CZ_OK);
    CHECK_EQ_INT(used, vk_len - 96);
    /* no IC at all: a key always has IC0 */
    memcpy(t, vk_bytes, vk_len);
    memset(t + U_COUNT, 0, 4);
    CHECK_EQ_INT(read_exact_copy(t, U_IC, false, NULL), CZ_ERR_PARSE);
    /* a failed read leaves the key empty */
    cz_groth16_vk bad;
    memcpy(t, vk_bytes, vk_len);
    t[U_IC + 96 * 132 + 95] ^= 1;
    CHECK_EQ_INT(cz_groth16_vk_read(&bad, t, vk_len, false, NULL), CZ_ERR_NOT_ON_CURVE);
    CHECK(bad.ic == NULL && bad.n_ic == 0);
    cz_groth16_vk_free(&bad);
    /* the right bytes in the wrong layout: the "count" read at the compressed
     * layout's offset is a piece of a coordinate, far beyond the length */
    CHECK_EQ_INT(read_exact_copy(vk_bytes, vk_len, true, NULL), CZ_ERR_TRUNCATED);
#undef CORRUPT
    free(t);
  }
}

static void test_winningpost(void) {
  size_t vk_len = 0, n = 0;
  uint8_t *vk_bytes = read_all(WP_DIR "winning-post-2kib.vk", &vk_len);
  cz_fr *in = load_inputs(WP_DIR "public_inputs.json", &n);
  uint8_t pb[CZ_GROTH16_PROOF_BYTES];
  bool have_proof = load_proof_hex(pb, WP_DIR "vector.json", "proof_bytes_hex");
  CHECK(vk_bytes && in && have_proof);
  if (!vk_bytes || !in || !have_proof) goto done;
  CHECK_EQ_INT(vk_len, 13636);
  CHECK_EQ_INT(n, 132);

  cz_groth16_vk vk;
  CHECK_EQ_INT(cz_groth16_vk_load(&vk, WP_DIR "winning-post-2kib.vk", false), CZ_OK);
  CHECK_EQ_INT(vk.n_ic, 133);
  cz_groth16_proof proof;
  CHECK_EQ_INT(cz_groth16_proof_read(&proof, pb), CZ_OK);

  /* The real proof verifies, also under a prepared key made from a copy of
   * the key that is freed at once (the prepared key owns what it needs). */
  cz_groth16_pvk *pvk;
  {
    cz_groth16_vk copy;
    CHECK_EQ_INT(cz_groth16_vk_read(&copy, vk_bytes, vk_len, false, NULL), CZ_OK);
    pvk = cz_groth16_prepare(&copy);
    cz_groth16_vk_free(&copy);
  }
  CHECK(pvk != NULL);
  if (!pvk) {
    cz_groth16_vk_free(&vk);
    goto done;
  }
  CHECK_EQ_INT(verify_both(&vk, pvk, in, n, &proof), CZ_OK);

  /* The proof re-encodes to the same bytes. */
  uint8_t again[CZ_GROTH16_PROOF_BYTES];
  cz_groth16_proof_write(again, &proof);
  CHECK_MEM(again, pb, sizeof pb);

  wp_case w = {vk_bytes, vk_len, vk, pvk, in, n, proof, {0}};
  memcpy(w.pb, pb, sizeof pb);
  wp_tampered_proofs(&w);
  wp_changed_inputs(&w);
  wp_zero_one_inputs(&w);
  wp_key_round_trips(&w);
  wp_key_lengths(&w);
  wp_key_corruptions(&w);

  cz_groth16_vk missing;
  CHECK_EQ_INT(cz_groth16_vk_load(&missing, "tests/vectors/no-such-file.vk", false), CZ_ERR_IO);

  cz_groth16_vk_free(&vk);
  cz_groth16_pvk_free(pvk);
done:
  free(vk_bytes);
  free(in);
}

/* ---- PoRep 2 KiB (compressed key, hex) --------------------------------- */

/* What the PoRep checks share: the compressed key's bytes and the key read
 * from it, its prepared form, the vector's inputs and its proof. */
typedef struct {
  const uint8_t *vk_bytes;
  size_t vk_len;
  cz_groth16_vk vk;
  const cz_groth16_pvk *pvk;
  cz_fr *in;
  size_t n;
  cz_groth16_proof proof;
} pr_case;

/* Every public input changed (+1), and one input too few: refused. */
static void pr_changed_inputs(const pr_case *w) {
  cz_groth16_vk vk = w->vk;
  const cz_groth16_pvk *pvk = w->pvk;
  cz_fr *in = w->in;
  size_t n = w->n;
  cz_groth16_proof proof = w->proof;
  for (size_t i = 0; i < n; i++) {
    cz_fr saved = in[i];
    add_one(&in[i]);
    CHECK_EQ_INT(verify_both(&vk, pvk, in, n, &proof), CZ_ERR_PROOF_INVALID);
    in[i] = saved;
  }
  CHECK_EQ_INT(cz_groth16_verify(&vk, in, n - 1, &proof), CZ_ERR_INVALID_ARG);
}

/* A proof for the other circuit (the WinningPoSt vector's) does not verify. */
static void pr_other_circuit_proof(const pr_case *w) {
  cz_groth16_vk vk = w->vk;
  cz_fr *in = w->in;
  size_t n = w->n;
  uint8_t wp[CZ_GROTH16_PROOF_BYTES];
  cz_groth16_proof other;
  CHECK(load_proof_hex(wp, WP_DIR "vector.json", "proof_bytes_hex"));
  CHECK_EQ_INT(cz_groth16_proof_read(&other, wp), CZ_OK);
  CHECK_EQ_INT(cz_groth16_verify(&vk, in, n, &other), CZ_ERR_PROOF_INVALID);
}

/* Round trip in the compressed layout, and through the uncompressed one. */
static void pr_key_round_trips(const pr_case *pr) {
  cz_groth16_vk vk = pr->vk;
  const uint8_t *vk_bytes = pr->vk_bytes;
  size_t vk_len = pr->vk_len;
  uint8_t *w = malloc(vk_len);
  CHECK_EQ_INT(cz_groth16_vk_write(NULL, &vk, true), vk_len);
  CHECK_EQ_INT(cz_groth16_vk_write(w, &vk, true), vk_len);
  CHECK_MEM(w, vk_bytes, vk_len);
  size_t ulen = cz_groth16_vk_write(NULL, &vk, false);
  CHECK_EQ_INT(ulen, 96 * 3 + 192 * 3 + 4 + 96 * 40);
  uint8_t *uw = malloc(ulen);
  cz_groth16_vk_write(uw, &vk, false);
  cz_groth16_vk vku;
  CHECK_EQ_INT(cz_groth16_vk_read(&vku, uw, ulen, false, NULL), CZ_OK);
  memset(w, 0, vk_len);
  cz_groth16_vk_write(w, &vku, true);
  CHECK_MEM(w, vk_bytes, vk_len);
  cz_groth16_vk_free(&vku);
  free(uw);
  free(w);
}

/* Every truncation of the compressed key, and corruptions of its flags. */
static void pr_key_decode_errors(const pr_case *w) {
  const uint8_t *vk_bytes = w->vk_bytes;
  size_t vk_len = w->vk_len;
  /* Every truncation of the compressed key. */
  int bad = 0;
  for (size_t len = 0; len < vk_len; len++)
    if (read_exact_copy(vk_bytes, len, true, NULL) != CZ_ERR_TRUNCATED) bad++;
  CHECK_EQ_INT(bad, 0);

  /* Corruptions in the compressed layout. */
  uint8_t *t = malloc(vk_len);
  memcpy(t, vk_bytes, vk_len);
  t[0] &= 0x7f; /* compression flag cleared */
  CHECK_EQ_INT(read_exact_copy(t, vk_len, true, NULL), CZ_ERR_BAD_FLAGS);
  memcpy(t, vk_bytes, vk_len);
  t[vk_len - 48] |= 0x40; /* last IC point: infinity flag with nonzero x */
  CHECK_EQ_INT(read_exact_copy(t, vk_len, true, NULL), CZ_ERR_BAD_FLAGS);
  memcpy(t, vk_bytes, vk_len);
  t[vk_len - 48] = 0xc0; /* last IC point: the point at infinity itself */
  memset(t + vk_len - 47, 0, 47);
  CHECK_EQ_INT(read_exact_copy(t, vk_len, true, NULL), CZ_ERR_BAD_FLAGS);
  free(t);
}

/* The PoRep vector: the real proof verifies under the compressed key, and
 * changed inputs, another circuit's proof and broken keys are refused. */
static void test_porep(void) {
  size_t hex_len = 0, vk_len = 0, n = 0;
  uint8_t *hex = read_all(PR_DIR "vk.hex", &hex_len);
  uint8_t *vk_bytes = hex ? unhex((const char *)hex, &vk_len) : NULL;
  cz_fr *in = load_inputs(PR_DIR "public_inputs.json", &n);
  uint8_t pb[CZ_GROTH16_PROOF_BYTES];
  bool have_proof = load_proof_hex(pb, PR_DIR "vector.json", "proof_hex");
  CHECK(vk_bytes && in && have_proof);
  if (!vk_bytes || !in || !have_proof) goto done;
  CHECK_EQ_INT(vk_len, 48 * 3 + 96 * 3 + 4 + 48 * 40);
  CHECK_EQ_INT(n, 39);

  cz_groth16_vk vk;
  CHECK_EQ_INT(cz_groth16_vk_read(&vk, vk_bytes, vk_len, true, NULL), CZ_OK);
  CHECK_EQ_INT(vk.n_ic, 40);
  cz_groth16_proof proof;
  CHECK_EQ_INT(cz_groth16_proof_read(&proof, pb), CZ_OK);
  cz_groth16_pvk *pvk = cz_groth16_prepare(&vk);
  CHECK(pvk != NULL);
  if (!pvk) {
    cz_groth16_vk_free(&vk);
    goto done;
  }
  CHECK_EQ_INT(verify_both(&vk, pvk, in, n, &proof), CZ_OK);

  pr_case w = {vk_bytes, vk_len, vk, pvk, in, n, proof};
  pr_changed_inputs(&w);
  cz_groth16_pvk_free(pvk);
  w.pvk = NULL;
  pr_other_circuit_proof(&w);
  pr_key_round_trips(&w);
  pr_key_decode_errors(&w);

  cz_groth16_vk_free(&vk);
done:
  free(hex);
  free(vk_bytes);
  free(in);
}

int main(void) {
  test_winningpost();
  test_porep();
  return check_report("test_groth16_verify");
}
