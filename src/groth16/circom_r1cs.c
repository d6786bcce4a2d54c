/* circom constraint systems (.r1cs): read, and a witness checked against
 * them (cuzk/circom.h). */
#include <stdlib.h>
#include <string.h>
#include "cuzk/circom.h"
#include "cuzk/parallel.h"
#include "groth16/binfile.h"
#include "util/msg.h"

enum {
  SEC_HEADER = 1,
  SEC_CONSTRAINTS = 2,
  SEC_LABELS = 3,
  SEC_CUSTOM_GATES = 4,
  SEC_CUSTOM_USES = 5
};

void cz_circom_r1cs_free(cz_circom_r1cs *r) {
  if (!r) return;
  free(r->lc);
  free(r->wire);
  free(r->coef);
  memset(r, 0, sizeof *r);
}

static bool read_r1cs_header(cz_circom_r1cs *r, const cz_binfile *f, cz_errpath *ep) {
  uint32_t v[5];
  static const char *const NAMES[5] = {"nWires", "nOutputs", "nPubInputs", "nPrvInputs", NULL};
  cz_bincur cur;
  if (!cz_binfile_cursor(f, SEC_HEADER, "header", &cur, ep)) return false;
  if (!cz_bincur_bls_prime(&cur, "prime", false)) return false;
  for (int i = 0; i < 4; i++)
    if (!cz_bincur_u32(&cur, NAMES[i], &v[i])) return false;
  if (!cz_bincur_u64(&cur, "nLabels", &r->n_labels) ||
      !cz_bincur_u32(&cur, "nConstraints", &v[4]) || !cz_bincur_end(&cur))
    return false;
  if (v[0] == 0 || (uint64_t)v[1] + v[2] + v[3] >= v[0]) {
    cz_errpath_push_key(ep, "nWires");
    return cz_errpath_fail(ep, CZ_ERR_PARSE, "%u wires for ONE, %u outputs and %u inputs", v[0],
                           v[1], v[2] + v[3]);
  }
  r->n_wires = v[0], r->n_outputs = v[1], r->n_pub_inputs = v[2], r->n_prv_inputs = v[3];
  r->n_constraints = v[4];
  cz_errpath_pop(ep);
  return true;
}

/* Room for one more term. */
static bool grow_terms(cz_circom_r1cs *r, size_t *cap, cz_errpath *ep) {
  if (r->n_terms < *cap) return true;
  size_t c = *cap ? 2 * *cap : 1024;
  uint32_t *w = realloc(r->wire, c * sizeof *w);
  if (w) r->wire = w;
  cz_fr *k = w ? realloc(r->coef, c * sizeof *k) : NULL;
  if (!k) return cz_errpath_fail(ep, CZ_ERR_NOMEM, "out of memory");
  r->coef = k;
  *cap = c;
  return true;
}

/* One linear combination at the cursor, appended to the terms. */
static bool read_lc(cz_circom_r1cs *r, cz_bincur *cur, size_t *cap) {
  static const char *const TERM = "term";
  uint32_t n;
  if (!cz_bincur_u32(cur, "nTerms", &n)) return false;
  if ((uint64_t)n * 36 > cur->len - cur->pos) {
    const uint8_t *skip;
    return cz_bincur_take(cur, "terms", (uint64_t)n * 36, &skip);
  }
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *t;
    cz_bincur_take(cur, TERM, 36, &t); /* fits: checked above */
    if (!grow_terms(r, cap, cur->ep)) return false;
    uint32_t wire =
        (uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 | (uint32_t)t[3] << 24;
    cz_fr raw;
    const char *bad = wire >= r->n_wires            ? "wire is past nWires"
                      : !cz_bin_fr_raw(t + 4, &raw) ? "coefficient is not below r"
                                                    : NULL;
    if (bad) {
      cz_errpath_push_idx(cur->ep, i);
      return cz_errpath_fail(cur->ep, *bad == 'w' ? CZ_ERR_PARSE : CZ_ERR_NONCANONICAL, "%s", bad);
    }
    r->wire[r->n_terms] = wire;
    cz_fr_from_canonical(&r->coef[r->n_terms], raw.l);
    r->n_terms++;
  }
  return true;
}

static bool read_constraints(cz_circom_r1cs *r, const cz_binfile *f, cz_errpath *ep) {
  static const char *const MAT[3] = {"A", "B", "C"};
  const uint8_t *b;
  uint64_t len;
  if (!cz_binfile_section(f, SEC_CONSTRAINTS, "constraints", &b, &len, ep)) return false;
  /* each constraint takes at least 12 bytes: its count is bounded */
  if ((uint64_t)r->n_constraints * 12 > len)
    return cz_errpath_fail(ep, CZ_ERR_TRUNCATED, "%llu bytes for %zu constraints",
                           (unsigned long long)len, r->n_constraints);
  if (!(r->lc = malloc((3 * r->n_constraints + 1) * sizeof *r->lc)))
    return cz_errpath_fail(ep, CZ_ERR_NOMEM, "out of memory");
  cz_bincur cur;
  cz_bincur_init(&cur, b, len, ep);
  size_t cap = 0;
  for (size_t k = 0; k < 3 * r->n_constraints; k++) {
    if (r->n_terms >= UINT32_MAX) return cz_errpath_fail(ep, CZ_ERR_PARSE, "too many terms");
    r->lc[k] = (uint32_t)r->n_terms;
    cz_errpath_push_idx(ep, k / 3);
    cz_errpath_push_key(ep, MAT[k % 3]);
    if (!read_lc(r, &cur, &cap)) return false;
    cz_errpath_pop(ep);
    cz_errpath_pop(ep);
  }
  r->lc[3 * r->n_constraints] = (uint32_t)r->n_terms;
  if (!cz_bincur_end(&cur)) return false;
  cz_errpath_pop(ep);
  return true;
}

cz_err cz_circom_r1cs_read(cz_circom_r1cs *r, const uint8_t *buf, size_t len, char *msg,
                           size_t msg_len) {
  if (!r || (!buf && len)) return CZ_ERR_INVALID_ARG;
  memset(r, 0, sizeof *r);
  cz_errpath ep;
  cz_errpath_init(&ep, msg, msg_len, "r1cs: ");
  cz_binfile f;
  bool ok = cz_binfile_parse(&f, buf, len, "r1cs", 1, &ep);
  if (ok && (cz_binfile_has(&f, SEC_CUSTOM_GATES) || cz_binfile_has(&f, SEC_CUSTOM_USES)))
    ok = cz_errpath_fail(&ep, CZ_ERR_PARSE,
                         "custom gates (sections 4, 5): a PLONK circuit, not an R1CS for Groth16");
  ok = ok && read_r1cs_header(r, &f, &ep) && read_constraints(r, &f, &ep);
  if (ok) return CZ_OK;
  cz_circom_r1cs_free(r);
  return ep.err;
}

static cz_err r1cs_reader(void *r, const uint8_t *buf, size_t len, char *msg, size_t msg_len) {
  return cz_circom_r1cs_read(r, buf, len, msg, msg_len);
}

cz_err cz_circom_r1cs_load(cz_circom_r1cs *r, const char *path, char *msg, size_t msg_len) {
  if (r) memset(r, 0, sizeof *r);
  return cz_file_read_with(path, r1cs_reader, r, msg, msg_len);
}

/* ---- checking a witness ------------------------------------------------------ */

typedef struct {
  const cz_circom_r1cs *r;
  const cz_fr *w;
  size_t bad[CZ_PARALLEL_MAX_THREADS];
} check_ctx;

static void lc_eval(const cz_circom_r1cs *r, size_t k, const cz_fr *w, cz_fr *out) {
  *out = CZ_FR_ZERO;
  for (uint32_t t = r->lc[k]; t < r->lc[k + 1]; t++) {
    cz_fr v;
    cz_fr_mul(&v, &r->coef[t], &w[r->wire[t]]);
    cz_fr_add(out, out, &v);
  }
}

static void check_worker(void *p, size_t begin, size_t end, unsigned worker) {
  check_ctx *c = p;
  c->bad[worker] = SIZE_MAX;
  for (size_t i = begin; i < end; i++) {
    cz_fr a, b, cc;
    lc_eval(c->r, 3 * i, c->w, &a);
    lc_eval(c->r, 3 * i + 1, c->w, &b);
    lc_eval(c->r, 3 * i + 2, c->w, &cc);
    cz_fr_mul(&a, &a, &b);
    if (!cz_fr_eq(&a, &cc)) {
      c->bad[worker] = i;
      return;
    }
  }
}

cz_err cz_circom_r1cs_check(const cz_circom_r1cs *r, const cz_fr *w, size_t n_w, unsigned n_threads,
                            size_t *bad, char *msg, size_t msg_len) {
  if (!r || !w) return CZ_ERR_INVALID_ARG;
  if (n_w != r->n_wires)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "the witness has %zu values, the circuit %zu wires", n_w, r->n_wires);
  if (!cz_fr_is_one(&w[0]))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "witness value 0 is not 1 (the constant signal)");
  check_ctx *c = malloc(sizeof *c);
  if (!c) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  c->r = r;
  c->w = w;
  cz_parallel_for(r->n_constraints, n_threads, check_worker, c);
  size_t first = SIZE_MAX;
  for (unsigned i = 0; i < cz_parallel_workers(r->n_constraints, n_threads); i++)
    if (c->bad[i] < first) first = c->bad[i];
  free(c);
  if (first == SIZE_MAX) return CZ_OK;
  if (bad) *bad = first;
  return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                    "the witness does not satisfy constraint %zu of %zu", first, r->n_constraints);
}
