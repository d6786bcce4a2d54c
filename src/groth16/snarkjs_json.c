/* snarkjs's JSON: proof.json and public.json written byte for byte as
 * `snarkjs groth16 prove` writes them (bfj, one-space indentation, no final
 * newline), and those two and verification_key.json read back
 * (cuzk/circom.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/circom.h"
#include "util/json_scan.h"
#include "util/msg.h"

/* ---- decimal numbers -------------------------------------------------------- */

/* Canonical limbs as decimal into out (at least 20 * limbs / 1 + 1 bytes). */
static void limbs_to_dec(const uint64_t *in, size_t limbs, char *out) {
  uint64_t v[8];
  memcpy(v, in, limbs * sizeof *v);
  char rev[160];
  size_t n = 0;
  bool zero;
  do {
    /* v /= 10^19, the remainder's 19 digits (fewer for the top chunk) */
    unsigned __int128 rem = 0;
    zero = true;
    for (size_t i = limbs; i-- > 0;) {
      unsigned __int128 cur = (rem << 64) | v[i];
      v[i] = (uint64_t)(cur / 10000000000000000000ULL);
      rem = cur % 10000000000000000000ULL;
      zero = zero && v[i] == 0;
    }
    uint64_t r = (uint64_t)rem;
    for (int d = 0; d < 19 && (!zero || r); d++, r /= 10) rev[n++] = (char)('0' + r % 10);
  } while (!zero);
  if (n == 0) rev[n++] = '0';
  for (size_t i = 0; i < n; i++) out[i] = rev[n - 1 - i];
  out[n] = 0;
}

static void fp_dec(const cz_fp *a, char *out) {
  uint64_t c[CZ_FP_LIMBS];
  cz_fp_to_canonical(c, a);
  limbs_to_dec(c, CZ_FP_LIMBS, out);
}

/* ---- writers -------------------------------------------------------------- */

typedef struct {
  char *out;
  size_t cap, len;
} sbuf;

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  size_t room = b->len < b->cap ? b->cap - b->len : 0;
  int n = vsnprintf(b->out ? b->out + b->len : NULL, b->out ? room : 0, fmt, ap);
  va_end(ap);
  if (n > 0) b->len += (size_t)n;
}

/* A G1 point as snarkjs's G1.toObject: [x, y, 1], infinity [0, 1, 0]. */
static void put_g1(sbuf *b, const char *name, const cz_g1_affine *p, bool last) {
  char x[130], y[130];
  bool inf = cz_g1_affine_is_identity(p);
  fp_dec(&p->x, x);
  fp_dec(&p->y, y);
  put(b, " \"%s\": [\n  \"%s\",\n  \"%s\",\n  \"%s\"\n ]%s\n", name, inf ? "0" : x, inf ? "1" : y,
      inf ? "0" : "1", last ? "" : ",");
}

static void put_fp2(sbuf *b, const cz_fp2 *v, const char *end) {
  char c0[130], c1[130];
  fp_dec(&v->c0, c0);
  fp_dec(&v->c1, c1);
  put(b, "  [\n   \"%s\",\n   \"%s\"\n  ]%s\n", c0, c1, end);
}

static void put_g2(sbuf *b, const char *name, const cz_g2_affine *p) {
  const cz_fp2 zero = {CZ_FP_ZERO, CZ_FP_ZERO}, one = {CZ_FP_ONE, CZ_FP_ZERO};
  bool inf = cz_g2_affine_is_identity(p);
  put(b, " \"%s\": [\n", name);
  put_fp2(b, inf ? &zero : &p->x, ",");
  put_fp2(b, inf ? &one : &p->y, ",");
  put_fp2(b, inf ? &zero : &one, "");
  put(b, " ],\n");
}

static size_t finish(sbuf *b) {
  if (b->out && b->cap) b->out[b->len < b->cap ? b->len : b->cap - 1] = 0;
  return b->len;
}

size_t cz_snarkjs_proof_json(char *out, size_t cap, const cz_groth16_proof *proof) {
  sbuf b = {out, cap, 0};
  put(&b, "{\n");
  put_g1(&b, "pi_a", &proof->a, false);
  put_g2(&b, "pi_b", &proof->b);
  put_g1(&b, "pi_c", &proof->c, false);
  put(&b, " \"protocol\": \"groth16\",\n \"curve\": \"bls12381\"\n}");
  return finish(&b);
}

size_t cz_snarkjs_public_json(char *out, size_t cap, const cz_fr *pub, size_t n) {
  sbuf b = {out, cap, 0};
  put(&b, "[\n"); /* bfj writes an empty array as "[\n]" too */
  for (size_t i = 0; i < n; i++) {
    uint64_t c[CZ_FR_LIMBS];
    char d[100];
    cz_fr_to_canonical(c, &pub[i]);
    limbs_to_dec(c, CZ_FR_LIMBS, d);
    put(&b, " \"%s\"%s\n", d, i + 1 < n ? "," : "");
  }
  put(&b, "]");
  return finish(&b);
}

/* ---- readers ---------------------------------------------------------------- */

/* A decimal string below mod (limbs words) into out, canonical limbs. */
static bool json_dec(cz_json *j, const uint64_t *mod, size_t limbs, uint64_t *out) {
  const char *s;
  size_t n;
  bool esc;
  if (!cz_json_scan_string(j, &s, &n, &esc)) return false;
  if (n == 0 || esc) return cz_json_fail(j, CZ_ERR_PARSE, "expected a decimal number in a string");
  memset(out, 0, limbs * sizeof *out);
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9')
      return cz_json_fail(j, CZ_ERR_PARSE, "expected a decimal number in a string");
    uint64_t carry = (uint64_t)(s[i] - '0');
    for (size_t k = 0; k < limbs; k++) {
      unsigned __int128 t = (unsigned __int128)out[k] * 10 + carry;
      out[k] = (uint64_t)t;
      carry = (uint64_t)(t >> 64);
    }
    if (carry) return cz_json_fail(j, CZ_ERR_NONCANONICAL, "number is not below the field prime");
  }
  for (size_t k = limbs; k-- > 0;)
    if (out[k] != mod[k]) {
      if (out[k] < mod[k]) return true;
      break;
    }
  return cz_json_fail(j, CZ_ERR_NONCANONICAL, "number is not below the field prime");
}

static bool json_fp(cz_json *j, cz_fp *out) {
  uint64_t c[CZ_FP_LIMBS];
  if (!json_dec(j, CZ_FP_MODULUS, CZ_FP_LIMBS, c)) return false;
  cz_fp_from_canonical(out, c);
  return true;
}

static bool json_fr(cz_json *j, cz_fr *out) {
  uint64_t c[CZ_FR_LIMBS];
  if (!json_dec(j, CZ_FR_MODULUS, CZ_FR_LIMBS, c)) return false;
  cz_fr_from_canonical(out, c);
  return true;
}

/* A decimal string that must equal v (the projective z of an affine point). */
static bool json_const(cz_json *j, uint64_t v) {
  uint64_t c[CZ_FP_LIMBS];
  if (!json_dec(j, CZ_FP_MODULUS, CZ_FP_LIMBS, c)) return false;
  bool ok = c[0] == v;
  for (int k = 1; k < CZ_FP_LIMBS; k++) ok = ok && c[k] == 0;
  return ok || cz_json_fail(j, CZ_ERR_PARSE, "expected \"%llu\" (affine points only)",
                            (unsigned long long)v);
}

/* [c0, c1] of Fp2; with z set, it must be ["1", "0"]. */
static bool json_fp2(cz_json *j, cz_fp2 *out, bool z) {
  cz_json_arr a;
  if (!cz_json_arr_begin(j, &a, 2, "numbers")) return false;
  while (cz_json_arr_next(j, &a)) {
    if (z) json_const(j, a.i == 1);
    else json_fp(j, a.i == 1 ? &out->c0 : &out->c1);
  }
  return j->ep.err == CZ_OK;
}

static bool point_check(cz_json *j, bool on_curve, bool in_subgroup) {
  if (!on_curve) return cz_json_fail(j, CZ_ERR_NOT_ON_CURVE, "the point is not on the curve");
  if (!in_subgroup)
    return cz_json_fail(j, CZ_ERR_NOT_IN_SUBGROUP, "the point is not in the prime-order subgroup");
  return true;
}

static bool json_g1(cz_json *j, cz_g1_affine *p) {
  cz_json_arr a;
  if (!cz_json_arr_begin(j, &a, 3, "coordinates")) return false;
  while (cz_json_arr_next(j, &a)) {
    if (a.i == 3) json_const(j, 1);
    else json_fp(j, a.i == 1 ? &p->x : &p->y);
  }
  if (j->ep.err) return false;
  return point_check(j, cz_g1_affine_is_on_curve(p),
                     cz_g1_affine_is_on_curve(p) && cz_g1_affine_is_in_subgroup(p));
}

static bool json_g2(cz_json *j, cz_g2_affine *p) {
  cz_json_arr a;
  if (!cz_json_arr_begin(j, &a, 3, "coordinates")) return false;
  while (cz_json_arr_next(j, &a)) json_fp2(j, a.i == 1 ? &p->x : &p->y, a.i == 3);
  if (j->ep.err) return false;
  return point_check(j, cz_g2_affine_is_on_curve(p),
                     cz_g2_affine_is_on_curve(p) && cz_g2_affine_is_in_subgroup(p));
}

/* A string field that must be want; what names the kind of file. */
static bool json_tag(cz_json *j, const char *want, const char *what) {
  char got[32];
  size_t n;
  if (!cz_json_short_string(j, got, sizeof got, &n)) return false;
  if (n < sizeof got && !strcmp(got, want)) return true;
  return cz_json_fail(j, CZ_ERR_PARSE, "%s is \"%s%s\", expected \"%s\"", what, got,
                      n >= sizeof got ? "..." : "", want);
}

static cz_err json_done(cz_json *j, int f) {
  if (f == CZ_JSON_END && cz_json_end(j)) return CZ_OK;
  return j->ep.err ? j->ep.err : CZ_ERR_PARSE;
}

cz_err cz_snarkjs_proof_parse(cz_groth16_proof *proof, const char *text, size_t len, char *msg,
                              size_t msg_len) {
  static const char *const NAMES[] = {"pi_a", "pi_b", "pi_c", "protocol", "curve"};
  cz_json j;
  cz_json_init(&j, text, len, msg, msg_len, "proof: ");
  cz_json_obj o;
  cz_groth16_proof p;
  int f = CZ_JSON_ERROR;
  if (cz_json_obj_begin(&j, &o, NAMES, 5))
    while ((f = cz_json_obj_field(&j, &o)) >= 0) {
      if (f == 0) json_g1(&j, &p.a);
      else if (f == 1) json_g2(&j, &p.b);
      else if (f == 2) json_g1(&j, &p.c);
      else if (f == 3) json_tag(&j, "groth16", "the proof system");
      else json_tag(&j, "bls12381", "the curve");
    }
  cz_err e = json_done(&j, f);
  if (e == CZ_OK) *proof = p;
  return e;
}

cz_err cz_snarkjs_public_parse(cz_fr **pub, size_t *n, const char *text, size_t len, char *msg,
                               size_t msg_len) {
  cz_json j;
  cz_json_init(&j, text, len, msg, msg_len, "public signals: ");
  *pub = NULL;
  *n = 0;
  size_t cap = 0;
  cz_fr *v = NULL;
  cz_json_arr a;
  if (cz_json_arr_begin_range(&j, &a, 0, UINT32_MAX, "values"))
    while (cz_json_arr_next(&j, &a)) {
      if (a.i > cap) {
        cap = cap ? 2 * cap : 16;
        cz_fr *g = realloc(v, cap * sizeof *v);
        if (!g) {
          cz_json_fail(&j, CZ_ERR_NOMEM, "out of memory");
          break;
        }
        v = g;
      }
      json_fr(&j, &v[a.i - 1]);
    }
  if (j.ep.err == CZ_OK) cz_json_end(&j);
  if (j.ep.err != CZ_OK) {
    free(v);
    return j.ep.err;
  }
  *pub = v;
  *n = a.i;
  return CZ_OK;
}

/* vk_alphabeta_12: 2 x 3 x 2 numbers of Fp, read and dropped. */
static bool json_fp12(cz_json *j) {
  cz_json_arr a, b;
  cz_fp2 dummy;
  if (!cz_json_arr_begin(j, &a, 2, "Fp6 halves")) return false;
  while (cz_json_arr_next(j, &a)) {
    if (!cz_json_arr_begin(j, &b, 3, "Fp2 elements")) return false;
    while (cz_json_arr_next(j, &b)) json_fp2(j, &dummy, false);
  }
  return j->ep.err == CZ_OK;
}

static bool json_ic(cz_json *j, cz_groth16_vk *vk) {
  cz_json_arr a;
  if (!cz_json_arr_begin_range(j, &a, 1, UINT32_MAX, "points")) return false;
  size_t cap = 0;
  while (cz_json_arr_next(j, &a)) {
    if (a.i > cap) {
      cap = cap ? 2 * cap : 16;
      cz_g1_affine *g = realloc(vk->ic, cap * sizeof *g);
      if (!g) return cz_json_fail(j, CZ_ERR_NOMEM, "out of memory");
      vk->ic = g;
    }
    json_g1(j, &vk->ic[a.i - 1]);
  }
  vk->n_ic = a.i;
  return j->ep.err == CZ_OK;
}

cz_err cz_snarkjs_vkey_parse(cz_groth16_vk *vk, const char *text, size_t len, char *msg,
                             size_t msg_len) {
  static const char *const NAMES[] = {"protocol",   "curve",           "nPublic",
                                      "vk_alpha_1", "vk_beta_2",       "vk_gamma_2",
                                      "vk_delta_2", "vk_alphabeta_12", "IC"};
  memset(vk, 0, sizeof *vk);
  cz_json j;
  cz_json_init(&j, text, len, msg, msg_len, "verification key: ");
  cz_json_obj o;
  uint64_t n_pub = 0;
  int f = CZ_JSON_ERROR;
  if (cz_json_obj_begin(&j, &o, NAMES, 9))
    while ((f = cz_json_obj_field(&j, &o)) >= 0) {
      switch (f) {
        case 0: json_tag(&j, "groth16", "the proof system"); break;
        case 1: json_tag(&j, "bls12381", "the curve"); break;
        case 2: cz_json_uint(&j, UINT32_MAX - 1, &n_pub); break;
        case 3: json_g1(&j, &vk->alpha_g1); break;
        case 4: json_g2(&j, &vk->beta_g2); break;
        case 5: json_g2(&j, &vk->gamma_g2); break;
        case 6: json_g2(&j, &vk->delta_g2); break;
        case 7: json_fp12(&j); break;
        default: json_ic(&j, vk); break;
      }
    }
  cz_err e = json_done(&j, f);
  if (e == CZ_OK && vk->n_ic != n_pub + 1)
    e = cz_msg_err(msg, msg_len, CZ_ERR_PARSE, "verification key: IC: %zu points for nPublic %llu",
                   vk->n_ic, (unsigned long long)n_pub);
  if (e != CZ_OK) cz_groth16_vk_free(vk);
  return e;
}

cz_err cz_read_file(const char *path, char **text, size_t *len, char *msg, size_t msg_len) {
  *text = NULL;
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return cz_msg_err(msg, msg_len, CZ_ERR_IO, "%s: %s", path, strerror(errno));
  size_t cap = 4096, n = 0;
  char *b = malloc(cap);
  while (b) {
    n += fread(b + n, 1, cap - n - 1, f);
    if (n < cap - 1) break;
    char *g = realloc(b, cap *= 2);
    if (!g) free(b);
    b = g;
  }
  bool bad = ferror(f);
  fclose(f);
  if (!b) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "%s: out of memory", path);
  if (bad) {
    free(b);
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "%s: read error", path);
  }
  b[n] = 0;
  *text = b;
  *len = n;
  return CZ_OK;
}
