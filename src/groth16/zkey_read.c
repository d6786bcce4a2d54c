/* Reading a snarkjs .zkey (cuzk/zkey.h): the container, the Groth16
 * header, IC, the A/B terms and the point sections, each refused with the
 * section and field that is wrong.
 *
 * Points are stored as cuzk holds them in memory: affine, x then y, each
 * coordinate six little-endian 64-bit words in Montgomery form (R = 2^384),
 * infinity (0, 0). So the bases are used in place in the mapped file,
 * after their coordinates (below p) and curve equation are checked, in
 * parallel; a section that is not 8-byte aligned in the file is copied. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/parallel.h"
#include "groth16/binfile.h"
#include "groth16/zkey_internal.h"
#include "util/bigbuf.h"
#include "util/msg.h"

#define G1_BYTES 96
#define G2_BYTES 192
#define TERM_BYTES 44
#define HEADER2_BYTES (4 + 48 + 4 + 32 + 12 + 3 * G1_BYTES + 3 * G2_BYTES)

enum { PROTOCOL_GROTH16 = 1, PROTOCOL_PLONK = 2, PROTOCOL_FFLONK = 10 };

/* ---- points ---------------------------------------------------------------- */

/* The problem with one encoded point, CZ_OK when there is none. */
static cz_err g1_check(const uint8_t *in, cz_g1_affine *out, bool subgroup) {
  cz_g1_affine p;
  if (!cz_bin_fp_raw(in, &p.x) || !cz_bin_fp_raw(in + 48, &p.y)) return CZ_ERR_NONCANONICAL;
  if (!cz_g1_affine_is_on_curve(&p)) return CZ_ERR_NOT_ON_CURVE;
  if (subgroup && !cz_g1_affine_is_in_subgroup(&p)) return CZ_ERR_NOT_IN_SUBGROUP;
  if (out) *out = p;
  return CZ_OK;
}

static cz_err g2_check(const uint8_t *in, cz_g2_affine *out, bool subgroup) {
  cz_g2_affine p;
  if (!cz_bin_fp_raw(in, &p.x.c0) || !cz_bin_fp_raw(in + 48, &p.x.c1) ||
      !cz_bin_fp_raw(in + 96, &p.y.c0) || !cz_bin_fp_raw(in + 144, &p.y.c1))
    return CZ_ERR_NONCANONICAL;
  if (!cz_g2_affine_is_on_curve(&p)) return CZ_ERR_NOT_ON_CURVE;
  if (subgroup && !cz_g2_affine_is_in_subgroup(&p)) return CZ_ERR_NOT_IN_SUBGROUP;
  if (out) *out = p;
  return CZ_OK;
}

static bool point_fail(cz_errpath *ep, cz_err e) {
  const char *what = e == CZ_ERR_NONCANONICAL   ? "a coordinate is not below the field prime q"
                     : e == CZ_ERR_NOT_ON_CURVE ? "the point is not on the curve"
                                                : "the point is not in the prime-order subgroup";
  return cz_errpath_fail(ep, e, "%s", what);
}

/* Check n points of one group at in (stride bytes each), in parallel; the
 * lowest bad index is reported. */
typedef struct {
  const uint8_t *in;
  size_t stride;
  bool g2, subgroup;
  size_t bad[CZ_PARALLEL_MAX_THREADS];
  cz_err err[CZ_PARALLEL_MAX_THREADS];
} check_ctx;

static void check_worker(void *p, size_t begin, size_t end, unsigned w) {
  check_ctx *c = p;
  for (size_t i = begin; i < end; i++) {
    const uint8_t *q = c->in + i * c->stride;
    cz_err e = c->g2 ? g2_check(q, NULL, c->subgroup) : g1_check(q, NULL, c->subgroup);
    if (e != CZ_OK) {
      c->err[w] = e;
      c->bad[w] = i;
      return;
    }
  }
}

static bool check_points(const uint8_t *in, size_t n, bool g2, bool subgroup, unsigned threads,
                         cz_errpath *ep) {
  check_ctx *c = calloc(1, sizeof *c);
  if (!c) return cz_errpath_fail(ep, CZ_ERR_NOMEM, "out of memory");
  *c = (check_ctx){in, g2 ? G2_BYTES : G1_BYTES, g2, subgroup, {0}, {0}};
  /* subgroup tests are ~1000x the cost of the rest: smaller shares. */
  cz_parallel_for(n, threads, check_worker, c);
  bool ok = true;
  unsigned workers = cz_parallel_workers(n, threads);
  for (unsigned w = 0; w < workers && ok; w++) {
    if (c->err[w] == CZ_OK) continue;
    cz_errpath_push_idx(ep, c->bad[w]);
    ok = point_fail(ep, c->err[w]);
    cz_errpath_pop(ep);
  }
  free(c);
  return ok;
}

/* A header point (G2 when g2), checked fully, subgroup included. */
static bool read_point(cz_bincur *cur, const char *field, void *out, bool g2) {
  const uint8_t *p;
  if (!cz_bincur_take(cur, field, g2 ? G2_BYTES : G1_BYTES, &p)) return false;
  cz_err e = g2 ? g2_check(p, out, true) : g1_check(p, out, true);
  if (e == CZ_OK) return true;
  cz_errpath_push_key(cur->ep, field);
  return point_fail(cur->ep, e);
}

/* ---- sections 1 and 2 ---------------------------------------------------- */

static bool read_protocol(const cz_binfile *f, cz_errpath *ep) {
  uint32_t id;
  cz_bincur cur;
  if (!cz_binfile_cursor(f, 1, "header", &cur, ep)) return false;
  if (!cz_bincur_u32(&cur, "protocol", &id)) return false;
  if (id != PROTOCOL_GROTH16) {
    cz_errpath_push_key(ep, "protocol");
    const char *what = id == PROTOCOL_PLONK    ? "a PLONK key"
                       : id == PROTOCOL_FFLONK ? "an FFLONK key"
                                               : NULL;
    if (what) return cz_errpath_fail(ep, CZ_ERR_PARSE, "%s, not Groth16", what);
    return cz_errpath_fail(ep, CZ_ERR_PARSE, "unknown protocol %u, not Groth16 (1)", id);
  }
  if (!cz_bincur_end(&cur)) return false;
  cz_errpath_pop(ep);
  return true;
}

static bool read_sizes(cz_zkey *z, cz_bincur *cur) {
  uint32_t n_vars, n_pub, dom;
  if (!cz_bincur_u32(cur, "nVars", &n_vars) || !cz_bincur_u32(cur, "nPublic", &n_pub) ||
      !cz_bincur_u32(cur, "domainSize", &dom))
    return false;
  cz_errpath *ep = cur->ep;
  if (n_vars == 0 || n_pub >= n_vars) {
    cz_errpath_push_key(ep, "nPublic");
    return cz_errpath_fail(ep, CZ_ERR_PARSE, "%u public signals for %u variables", n_pub, n_vars);
  }
  cz_errpath_push_key(ep, "domainSize");
  if (dom < 2 || (dom & (dom - 1)))
    return cz_errpath_fail(ep, CZ_ERR_PARSE, "%u is not a power of two >= 2", dom);
  if (dom > (1u << 31))
    return cz_errpath_fail(ep, CZ_ERR_PARSE, "%u: past 2^31, no 2n-th root of unity", dom);
  if ((uint64_t)n_pub + 1 > dom)
    return cz_errpath_fail(ep, CZ_ERR_PARSE, "%u: smaller than the %u input constraints", dom,
                           n_pub + 1);
  cz_errpath_pop(ep);
  z->n_vars = n_vars;
  z->n_public = n_pub;
  z->domain_size = dom;
  z->log_n = (unsigned)__builtin_ctz(dom);
  return true;
}

static bool read_groth_header(cz_zkey *z, const cz_binfile *f, cz_errpath *ep) {
  cz_bincur cur;
  if (!cz_binfile_cursor(f, 2, "groth16 header", &cur, ep)) return false;
  cz_groth16_vk *vk = &z->vk;
  bool ok = cz_bincur_bls_prime(&cur, "q", true) && cz_bincur_bls_prime(&cur, "r", false) &&
            read_sizes(z, &cur) && read_point(&cur, "alpha1", &vk->alpha_g1, false) &&
            read_point(&cur, "beta1", &vk->beta_g1, false) &&
            read_point(&cur, "beta2", &vk->beta_g2, true) &&
            read_point(&cur, "gamma2", &vk->gamma_g2, true) &&
            read_point(&cur, "delta1", &vk->delta_g1, false) &&
            read_point(&cur, "delta2", &vk->delta_g2, true) && cz_bincur_end(&cur);
  if (ok) cz_errpath_pop(ep);
  return ok;
}

/* ---- IC, terms, point sections -------------------------------------------- */

/* A section of exactly n items of item bytes, as a pointer to its body. */
static bool sized_section(const cz_binfile *f, uint32_t id, const char *name, uint64_t n,
                          uint64_t item, const uint8_t **body, cz_errpath *ep) {
  uint64_t len;
  if (!cz_binfile_section(f, id, name, body, &len, ep)) return false;
  if (len != n * item)
    return cz_errpath_fail(ep, len < n * item ? CZ_ERR_TRUNCATED : CZ_ERR_TRAILING,
                           "%llu bytes, expected %llu points of %llu bytes",
                           (unsigned long long)len, (unsigned long long)n,
                           (unsigned long long)item);
  return true;
}

static bool read_ic(cz_zkey *z, const cz_binfile *f, bool subgroup, unsigned threads,
                    cz_errpath *ep) {
  const uint8_t *b;
  size_t n = z->n_public + 1;
  if (!sized_section(f, 3, "IC", n, G1_BYTES, &b, ep)) return false;
  if (!check_points(b, n, false, subgroup, threads, ep)) return false;
  if (!(z->vk.ic = malloc(n * sizeof *z->vk.ic)))
    return cz_errpath_fail(ep, CZ_ERR_NOMEM, "out of memory");
  z->vk.n_ic = n;
  for (size_t i = 0; i < n; i++) g1_check(b + i * G1_BYTES, &z->vk.ic[i], false);
  cz_errpath_pop(ep);
  return true;
}

static uint32_t rd32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v; /* little endian host (x86-64, aarch64) */
}

/* One term: matrix, constraint, signal, coefficient; its problem or NULL. */
static const char *term_decode(const cz_zkey *z, const uint8_t *t, zkey_term *out, cz_fr *coef) {
  static const cz_fr RAW_ONE = {{1, 0, 0, 0}};
  uint32_t m = rd32(t), c = rd32(t + 4), s = rd32(t + 8);
  if (m > 1) return "matrix is neither A (0) nor B (1)";
  if (c >= z->domain_size) return "constraint is past the domain";
  if (s >= z->n_vars) return "signal is past nVars";
  cz_fr raw;
  if (!cz_bin_fr_raw(t + 12, &raw)) return "coefficient is not below r";
  /* stored: value * R^2 mod r; one Montgomery product by 1 gives value * R */
  cz_fr_mul(coef, &raw, &RAW_ONE);
  out->row = (uint32_t)zkey_row_of(z, c) | (m ? ZKEY_ROW_B : 0);
  out->signal = s;
  return NULL;
}

static bool read_terms(cz_zkey *z, const cz_binfile *f, cz_errpath *ep) {
  uint32_t n;
  cz_bincur cur;
  if (!cz_binfile_cursor(f, 4, "A/B terms", &cur, ep)) return false;
  if (!cz_bincur_u32(&cur, "nTerms", &n)) return false;
  const uint8_t *t;
  if (!cz_bincur_take(&cur, "terms", (uint64_t)n * TERM_BYTES, &t) || !cz_bincur_end(&cur))
    return false;
  z->n_terms = n;
  z->terms = malloc((n ? n : 1) * sizeof *z->terms);
  z->coefs = cz_huge_alloc((n ? n : 1) * sizeof *z->coefs);
  if (!z->terms || !z->coefs) return cz_errpath_fail(ep, CZ_ERR_NOMEM, "out of memory");
  z->sorted = true;
  uint32_t prev = 0;
  for (uint32_t i = 0; i < n; i++, t += TERM_BYTES) {
    const char *bad = term_decode(z, t, &z->terms[i], &z->coefs[i]);
    if (bad) {
      cz_errpath_push_idx(ep, i);
      return cz_errpath_fail(ep, CZ_ERR_PARSE, "%s", bad);
    }
    uint32_t c = rd32(t + 4);
    if (c < prev) z->sorted = false;
    prev = c;
  }
  cz_errpath_pop(ep);
  return true;
}

static const struct {
  uint32_t id;
  const char *name;
  bool g2;
} POINT_SECTIONS[ZK_NSEC] = {
    {5, "A points", false}, {6, "B1 points", false}, {7, "B2 points", true},
    {8, "C points", false}, {9, "H points", false},
};

static bool read_points(cz_zkey *z, const cz_binfile *f, bool subgroup, unsigned threads,
                        cz_errpath *ep) {
  const size_t counts[ZK_NSEC] = {z->n_vars, z->n_vars, z->n_vars, z->n_vars - z->n_public - 1,
                                  z->domain_size};
  for (int s = 0; s < ZK_NSEC; s++) {
    const uint8_t *b;
    size_t item = POINT_SECTIONS[s].g2 ? G2_BYTES : G1_BYTES;
    if (!sized_section(f, POINT_SECTIONS[s].id, POINT_SECTIONS[s].name, counts[s], item, &b, ep) ||
        !check_points(b, counts[s], POINT_SECTIONS[s].g2, subgroup, threads, ep))
      return false;
    cz_errpath_pop(ep);
    z->n_pts[s] = counts[s];
    if (((uintptr_t)b & 7) == 0) {
      z->pts[s] = b;
      continue;
    }
    /* Not aligned for cz_fp's words: an aligned copy. */
    if (!(z->copy[s] = cz_huge_alloc(counts[s] ? counts[s] * item : 1)))
      return cz_errpath_fail(ep, CZ_ERR_NOMEM, "out of memory");
    memcpy(z->copy[s], b, counts[s] * item);
    z->pts[s] = z->copy[s];
  }
  return true;
}

/* ---- load ---------------------------------------------------------------- */

void cz_zkey_free(cz_zkey *z) {
  if (!z) return;
  cz_groth16_vk_free(&z->vk);
  free(z->terms);
  free(z->coefs);
  for (int s = 0; s < ZK_NSEC; s++) free(z->copy[s]);
  for (int s = 0; s < 3; s++) free(z->inf[s]);
  cz_zkey_hpoly_free(z);
  cz_file_unmap(z->map, z->len);
  free(z);
}

/* The infinity bitmaps of A, B1 and B2 (zkey_internal.h); false: no memory. */
static bool find_infinity(cz_zkey *z) {
  const size_t words = z->n_vars / 64 + 1;
  for (int s = ZK_A; s <= ZK_B2; s++) {
    uint64_t *bits = calloc(words, sizeof *bits);
    if (!bits) return false;
    size_t count = 0;
    for (size_t i = 0; i < z->n_vars; i++) {
      bool inf = s == ZK_B2 ? cz_g2_affine_is_identity((const cz_g2_affine *)z->pts[s] + i)
                            : cz_g1_affine_is_identity((const cz_g1_affine *)z->pts[s] + i);
      if (inf) bits[i / 64] |= (uint64_t)1 << (i % 64), count++;
    }
    if (count) z->inf[s] = bits;
    else free(bits);
  }
  return true;
}

static cz_err load_sections(cz_zkey *z, unsigned flags, unsigned threads, char *msg,
                            size_t msg_len) {
  cz_errpath ep;
  cz_errpath_init(&ep, msg, msg_len, "zkey: ");
  cz_binfile f;
  bool ok = cz_binfile_parse(&f, z->buf, z->len, "zkey", 1, &ep) && read_protocol(&f, &ep) &&
            read_groth_header(z, &f, &ep);
  /* the H domain first: the terms are put in its order */
  if (ok && cz_zkey_hpoly_init(z) != CZ_OK)
    ok = cz_errpath_fail(&ep, CZ_ERR_NOMEM, "out of memory");
  ok = ok && read_ic(z, &f, flags & CZ_ZKEY_CHECK_SUBGROUP, threads, &ep) &&
       read_terms(z, &f, &ep) && read_points(z, &f, flags & CZ_ZKEY_CHECK_SUBGROUP, threads, &ep);
  if (ok && !find_infinity(z)) ok = cz_errpath_fail(&ep, CZ_ERR_NOMEM, "out of memory");
  return ok ? CZ_OK : ep.err;
}

cz_err cz_zkey_read(cz_zkey **out, const uint8_t *buf, size_t len, unsigned flags,
                    unsigned n_threads, char *msg, size_t msg_len) {
  if (!out || (!buf && len)) return CZ_ERR_INVALID_ARG;
  cz_zkey *z = calloc(1, sizeof *z);
  if (!z) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "zkey: out of memory");
  z->buf = buf;
  z->len = len;
  cz_err e = load_sections(z, flags, n_threads, msg, msg_len);
  if (e != CZ_OK) {
    cz_zkey_free(z);
    return e;
  }
  *out = z;
  return CZ_OK;
}

cz_err cz_zkey_load(cz_zkey **out, const char *path, unsigned flags, unsigned n_threads, char *msg,
                    size_t msg_len) {
  if (!out || !path) return CZ_ERR_INVALID_ARG;
  const uint8_t *map;
  size_t len;
  cz_err e = cz_file_map(path, &map, &len, msg, msg_len);
  if (e != CZ_OK) return e;
  cz_zkey *z = calloc(1, sizeof *z);
  if (!z) {
    cz_file_unmap(map, len);
    return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "zkey: out of memory");
  }
  z->buf = z->map = map;
  z->len = len;
  if ((e = load_sections(z, flags, n_threads, msg, msg_len)) != CZ_OK) {
    cz_zkey_free(z);
    return e;
  }
  *out = z;
  return CZ_OK;
}

void cz_zkey_get_info(const cz_zkey *z, cz_zkey_info *info) {
  *info = (cz_zkey_info){z->n_vars, z->n_public, z->domain_size, z->n_terms, z->len};
}

const cz_groth16_vk *cz_zkey_vk(const cz_zkey *z) { return &z->vk; }
