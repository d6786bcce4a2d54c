/* The pre-compiled path (cz_pce, cz_pce_eval, cz_r1cs_eval_threads) against
 * a plain reference: for every row, sum of coefficient * value with the
 * library's cz_fr_mul / cz_fr_add, term by term. Each special case of the
 * kernel gets rows of its own: coefficients ONE, -ONE and others (16- and
 * 32-bit codes), zero coefficients, witness values 0, 1 and others, empty
 * rows, long rows whose lazy sums overflow 256 bits many times, sums of
 * exactly r; and thread budgets 1, 2, 7 (more than rows, too). RECORD's
 * compact form against PROVE, bit for bit, on a circuit of bits. */
#include "check.h"
#include "cs/cs_internal.h"
#include "cs_eq.h"
#include "cuzk/cs.h"
#include "bits_circuit.h"

static cz_fr fr(uint64_t v) {
  cz_fr r;
  cz_fr_from_u64(&r, v);
  return r;
}

static cz_fr rand_fr(void) {
  uint8_t b[32];
  check_rand_bytes(b, 32);
  b[31] &= 0x3f; /* below r */
  cz_fr r;
  CHECK_EQ_INT(cz_fr_from_bytes_le(&r, b), CZ_OK);
  return r;
}

static cz_fr minus(cz_fr x) {
  cz_fr r;
  cz_fr_neg(&r, &x);
  return r;
}

/* ---- a hand-built shape ---------------------------------------------- */

/* Rows under construction: one growing list of (row, col, coeff) per matrix. */
typedef struct {
  size_t n_inputs, n_aux, rows;
  size_t n[3], cap[3];
  uint32_t *row[3], *col[3];
  cz_fr *val[3];
} builder;

static void b_init(builder *b, size_t n_inputs, size_t n_aux) {
  memset(b, 0, sizeof *b);
  b->n_inputs = n_inputs;
  b->n_aux = n_aux;
}

/* Entry of matrix m in the current row (b->rows). */
static void b_put(builder *b, int m, uint32_t col, cz_fr v) {
  if (b->n[m] == b->cap[m]) {
    b->cap[m] = b->cap[m] ? 2 * b->cap[m] : 64;
    b->row[m] = realloc(b->row[m], b->cap[m] * sizeof(uint32_t));
    b->col[m] = realloc(b->col[m], b->cap[m] * sizeof(uint32_t));
    b->val[m] = realloc(b->val[m], b->cap[m] * sizeof(cz_fr));
  }
  b->row[m][b->n[m]] = (uint32_t)b->rows;
  b->col[m][b->n[m]] = col;
  b->val[m][b->n[m]++] = v;
}

/* The builder as a cz_r1cs (densities: every column with an entry in A aux,
 * B input, B aux, zero coefficients included: the eval copies them as they
 * are, whatever they say). */
static void b_r1cs(builder *b, cz_r1cs *m) {
  memset(m, 0, sizeof *m);
  m->n_inputs = b->n_inputs;
  m->n_aux = b->n_aux;
  m->n_constraints = b->rows;
  cz_spmat *s[3] = {&m->a, &m->b, &m->c};
  for (int k = 0; k < 3; k++) {
    s[k]->n_major = b->rows;
    s[k]->n_minor = b->n_inputs + b->n_aux;
    s[k]->ptr = calloc(b->rows + 1, sizeof(uint64_t));
    s[k]->idx = malloc((b->n[k] + 1) * sizeof(uint32_t));
    s[k]->val = malloc((b->n[k] + 1) * sizeof(cz_fr));
    for (size_t i = 0; i < b->n[k]; i++) s[k]->ptr[b->row[k][i] + 1]++;
    for (size_t r = 0; r < b->rows; r++) s[k]->ptr[r + 1] += s[k]->ptr[r];
    if (b->n[k]) {
      memcpy(s[k]->idx, b->col[k], b->n[k] * sizeof(uint32_t));
      memcpy(s[k]->val, b->val[k], b->n[k] * sizeof(cz_fr));
    }
  }
  cz_density *d[3] = {&m->a_aux, &m->b_input, &m->b_aux};
  size_t dn[3] = {b->n_aux, b->n_inputs, b->n_aux};
  for (int k = 0; k < 3; k++) {
    d[k]->n = dn[k];
    d[k]->bits = calloc(dn[k] / 64 + 1, sizeof(uint64_t));
  }
  for (int k = 0; k < 2; k++)
    for (size_t i = 0; i < b->n[k]; i++) {
      uint32_t c = b->col[k][i];
      cz_density *t =
          c < b->n_inputs ? (k == 1 ? &m->b_input : NULL) : (k == 0 ? &m->a_aux : &m->b_aux);
      size_t j = c < b->n_inputs ? c : c - b->n_inputs;
      if (t && !cz_density_get(t, j)) {
        t->bits[j >> 6] |= (uint64_t)1 << (j & 63);
        t->count++;
      }
    }
  for (int k = 0; k < 3; k++) {
    free(b->row[k]);
    free(b->col[k]);
    free(b->val[k]);
  }
}

/* A WITNESS-like assignment (no a/b/c) over the builder's variables. */
static void witness_of(cz_assignment *w, const cz_fr *vals, size_t n_inputs, size_t n_aux,
                       size_t n_constraints) {
  memset(w, 0, sizeof *w);
  w->n_inputs = n_inputs;
  w->n_aux = n_aux;
  w->n_constraints = n_constraints;
  w->inputs = malloc((n_inputs + 1) * sizeof(cz_fr));
  memcpy(w->inputs, vals, n_inputs * sizeof(cz_fr));
  CHECK_EQ_INT(cz_fr_packed_from(&w->aux, vals + n_inputs, n_aux), CZ_OK);
}

/* The reference: a/b/c term by term with the library's field ops. */
static void reference(const cz_r1cs *m, const cz_fr *vals, cz_fr *out[3]) {
  const cz_spmat *s[3] = {&m->a, &m->b, &m->c};
  for (int k = 0; k < 3; k++)
    for (size_t r = 0; r < m->n_constraints; r++) {
      cz_fr acc = CZ_FR_ZERO, t;
      for (uint64_t p = s[k]->ptr[r]; p < s[k]->ptr[r + 1]; p++) {
        cz_fr_mul(&t, &s[k]->val[p], &vals[s[k]->idx[p]]);
        cz_fr_add(&acc, &acc, &t);
      }
      out[k][r] = acc;
    }
}

/* a and b, and c where the evaluation makes it (cz_r1cs_eval does,
 * cz_pce_eval leaves it to the prover). */
static bool abc_eq(const cz_assignment *w, cz_fr *const ref[3], size_t n) {
  return !memcmp(w->a, ref[0], n * sizeof(cz_fr)) && !memcmp(w->b, ref[1], n * sizeof(cz_fr)) &&
         (!w->c || !memcmp(w->c, ref[2], n * sizeof(cz_fr)));
}

/* Evaluate m both ways (cz_r1cs and its compact form) on every thread
 * budget and compare with the reference; returns the compact form's info. */
static cz_pce_info check_shape(const cz_r1cs *m, const cz_fr *vals) {
  size_t n = m->n_constraints;
  cz_fr *ref[3];
  for (int k = 0; k < 3; k++) ref[k] = malloc((n + 1) * sizeof(cz_fr));
  reference(m, vals, ref);
  cz_pce *p;
  CHECK_EQ_INT(cz_pce_from_r1cs(m, &p), CZ_OK);
  cz_pce_info info;
  cz_pce_get_info(p, &info);
  const unsigned threads[] = {1, 2, 7, 0};
  for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
    for (int form = 0; form < 2; form++) {
      cz_assignment w;
      witness_of(&w, vals, m->n_inputs, m->n_aux, n);
      cz_err e = form ? cz_pce_eval(p, &w, threads[t]) : cz_r1cs_eval_threads(m, &w, threads[t]);
      CHECK_EQ_INT(e, CZ_OK);
      if (e == CZ_OK) {
        CHECK(abc_eq(&w, ref, n));
        CHECK((w.c != NULL) == (form == 0));
        CHECK(dens_eq(&w.a_aux, &m->a_aux) && dens_eq(&w.b_input, &m->b_input) &&
              dens_eq(&w.b_aux, &m->b_aux));
        CHECK_EQ_INT(w.n_constraints, n);
      }
      cz_assignment_free(&w);
    }
  }
  cz_assignment w; /* and the single-threaded entry point */
  witness_of(&w, vals, m->n_inputs, m->n_aux, n);
  CHECK_EQ_INT(cz_r1cs_eval(m, &w), CZ_OK);
  CHECK(abc_eq(&w, ref, n));
  cz_assignment_free(&w);
  cz_pce_free(p);
  for (int k = 0; k < 3; k++) free(ref[k]);
  return info;
}

/* Rows of every special case, over variables whose values are 0, 1, other. */
static void test_special_cases(void) {
  enum { NI = 3, NA = 9 };
  /* columns: inputs 0 (ONE), 1 (=0), 2 (other); aux 3..11: 0, 1, other, 0,
   * 1, other, r-1, other, 1 */
  cz_fr vals[NI + NA];
  vals[0] = CZ_FR_ONE;
  vals[1] = CZ_FR_ZERO;
  vals[2] = rand_fr();
  vals[3] = CZ_FR_ZERO;
  vals[4] = CZ_FR_ONE;
  vals[5] = rand_fr();
  vals[6] = CZ_FR_ZERO;
  vals[7] = CZ_FR_ONE;
  vals[8] = rand_fr();
  vals[9] = minus(CZ_FR_ONE);
  vals[10] = rand_fr();
  vals[11] = CZ_FR_ONE;
  const cz_fr one = CZ_FR_ONE, m1 = minus(CZ_FR_ONE), zero = CZ_FR_ZERO;
  builder b;
  b_init(&b, NI, NA);
  /* Every (coefficient kind) x (value kind) alone, in A, B and C. */
  cz_fr coefs[4] = {one, m1, fr(12345), rand_fr()};
  for (int ci = 0; ci < 4; ci++)
    for (uint32_t col = 0; col < NI + NA; col++) {
      b_put(&b, (int)(col % 3), col, coefs[ci]);
      b.rows++;
    }
  /* Empty rows, one of them at the very start of a matrix's split. */
  for (int i = 0; i < 5; i++) b.rows++;
  /* Zero coefficients (dropped by the compact form) next to real terms. */
  b_put(&b, 0, 4, zero);
  b_put(&b, 0, 5, one);
  b_put(&b, 1, 8, zero);
  b_put(&b, 2, 2, zero);
  b.rows++;
  /* Sums of exactly r (1 + (-1) on a one), and ONE*(-1) + (-1)*1 = -2. */
  b_put(&b, 0, 4, one);
  b_put(&b, 0, 7, m1);
  b_put(&b, 1, 9, one);
  b_put(&b, 1, 4, one);
  b_put(&b, 2, 9, one);
  b_put(&b, 2, 11, m1);
  b.rows++;
  /* Long rows of big terms: the 320-bit sum wraps 2^256 many times. */
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < 3000; i++) b_put(&b, k, (uint32_t)(i % 2 ? 9 : 10), i % 3 ? m1 : rand_fr());
  b.rows++;
  for (int i = 0; i < 700; i++) b_put(&b, 0, 4 + (uint32_t)(i % 8), m1); /* -(count of ones) */
  b.rows++;
  /* A mixed row repeating the same column (allowed in a hand-made cz_r1cs). */
  for (int i = 0; i < 20; i++) b_put(&b, 1, (uint32_t)(i % (NI + NA)), coefs[i % 4]);
  b.rows++;
  cz_r1cs m;
  b_r1cs(&b, &m);
  cz_pce_info info = check_shape(&m, vals);
  CHECK_EQ_INT(info.code_bytes, 2);
  CHECK_EQ_INT(info.n_constraints, m.n_constraints);
  /* Zero coefficients are gone from the compact form, and C (c = a * b). */
  size_t nonzero = 0;
  const cz_spmat *ab[2] = {&m.a, &m.b};
  for (int k = 0; k < 2; k++)
    for (uint64_t q = 0; q < ab[k]->ptr[m.n_constraints]; q++)
      nonzero += !cz_fr_is_zero(&ab[k]->val[q]);
  CHECK(nonzero < m.a.ptr[m.n_constraints] + m.b.ptr[m.n_constraints]); /* some were zero */
  CHECK_EQ_INT(info.nnz[0] + info.nnz[1], nonzero);
  CHECK_EQ_INT(info.nnz[2], 0);
  CHECK(info.bytes > (info.nnz[0] + info.nnz[1]) * 6);
  cz_r1cs_free(&m);
}

/* More than 65536 distinct coefficients in A and B: 32-bit codes. */
static void test_wide_codes(void) {
  enum { NI = 2, NA = 50, ROWS = 36000 };
  cz_fr vals[NI + NA];
  for (int i = 0; i < NI + NA; i++)
    vals[i] = i % 3 == 0 ? CZ_FR_ZERO : i % 3 == 1 ? CZ_FR_ONE : rand_fr();
  vals[0] = CZ_FR_ONE;
  builder b;
  b_init(&b, NI, NA);
  for (int r = 0; r < ROWS; r++) {
    for (int k = 0; k < 3; k++) b_put(&b, k, (uint32_t)((r * 7 + k) % (NI + NA)), rand_fr());
    b.rows++;
  }
  cz_r1cs m;
  b_r1cs(&b, &m);
  cz_pce_info info = check_shape(&m, vals);
  CHECK_EQ_INT(info.code_bytes, 4);
  CHECK(info.n_coeffs > 65536);
  cz_r1cs_free(&m);
}

/* Fewer rows than threads, and no rows at all. */
static void test_tiny(void) {
  cz_fr vals[2] = {CZ_FR_ONE, fr(7)};
  builder b;
  b_init(&b, 1, 1);
  b_put(&b, 0, 1, fr(3));
  b_put(&b, 1, 0, CZ_FR_ONE);
  b.rows++;
  b_put(&b, 2, 1, minus(CZ_FR_ONE));
  b.rows++;
  cz_r1cs m;
  b_r1cs(&b, &m);
  check_shape(&m, vals);
  cz_r1cs_free(&m);
  b_init(&b, 1, 1);
  b_r1cs(&b, &m);
  cz_pce_info info = check_shape(&m, vals);
  CHECK_EQ_INT(info.nnz[0] + info.nnz[1] + info.nnz[2], 0);
  cz_r1cs_free(&m);
}

/* ---- RECORD against PROVE ------------------------------------------- */

static void test_record_vs_prove(void) {
  cz_cs *cs = run_bits(CZ_CS_RECORD, 1);
  cz_pce *p;
  CHECK_EQ_INT(cz_cs_take_pce(cs, &p), CZ_OK);
  cz_r1cs m;
  CHECK_EQ_INT(cz_cs_take_r1cs(cs, &m), CZ_ERR_INVALID_ARG); /* taken already */
  cz_cs_free(cs);
  cs = run_bits(CZ_CS_RECORD, 1);
  CHECK_EQ_INT(cz_cs_take_r1cs(cs, &m), CZ_OK);
  cz_cs_free(cs);
  cz_pce_info info, info2;
  cz_pce_get_info(p, &info);
  CHECK_EQ_INT(info.nnz[0], m.a.ptr[m.n_constraints]);
  CHECK_EQ_INT(info.nnz[1], m.b.ptr[m.n_constraints]);
  CHECK_EQ_INT(info.nnz[2], 0); /* C is not kept */
  CHECK_EQ_INT(info.code_bytes, 2);
  /* Coefficients: 1, -1, 7 and 2^1..2^63 (2 among them; 2^0 is 1): 66. */
  CHECK_EQ_INT(info.n_coeffs, 66);
  cz_pce *p2;
  CHECK_EQ_INT(cz_pce_from_r1cs(&m, &p2), CZ_OK);
  cz_pce_get_info(p2, &info2);
  CHECK_EQ_INT(info2.n_coeffs, info.n_coeffs);
  cz_pce_free(p2);
  for (uint64_t seed = 1; seed <= 3; seed++) { /* the shape does not depend on the seed */
    cz_assignment pr;
    cs = run_bits(CZ_CS_PROVE, seed);
    CHECK_EQ_INT(cz_cs_take_assignment(cs, &pr), CZ_OK);
    cz_cs_free(cs);
    const unsigned threads[] = {1, 2, 7};
    for (size_t t = 0; t < 3; t++)
      for (int form = 0; form < 2; form++) {
        cz_assignment w;
        cs = run_bits(CZ_CS_WITNESS, seed);
        CHECK_EQ_INT(cz_cs_take_assignment(cs, &w), CZ_OK);
        cz_cs_free(cs);
        CHECK_EQ_INT(form ? cz_pce_eval(p, &w, threads[t])
                          : cz_r1cs_eval_threads(&m, &w, threads[t]),
                     CZ_OK);
        CHECK(assign_eq(&pr, &w));
        if (!form) CHECK_EQ_INT(first_unsatisfied(&w, w.n_constraints), w.n_constraints);
        cz_assignment_free(&w);
      }
    cz_assignment_free(&pr);
  }
  cz_r1cs_free(&m);
  cz_pce_free(p);
}

static void test_errors(void) {
  cz_pce *p = (cz_pce *)&p;
  /* wrong kind, unfinished, twice */
  cz_cs *cs = cz_cs_new(CZ_CS_PROVE, NULL);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_take_pce(cs, &p), CZ_ERR_INVALID_ARG);
  CHECK(p == NULL);
  cz_cs_free(cs);
  cs = cz_cs_new(CZ_CS_RECORD, NULL);
  CHECK_EQ_INT(cz_cs_take_pce(cs, &p), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_take_pce(cs, &p), CZ_OK);
  cz_pce *q;
  CHECK_EQ_INT(cz_cs_take_pce(cs, &q), CZ_ERR_INVALID_ARG);
  cz_cs_free(cs);
  /* ONE alone: one input constraint ONE * 0 = 0 */
  cz_pce_info info;
  cz_pce_get_info(p, &info);
  CHECK_EQ_INT(info.n_constraints, 1);
  CHECK_EQ_INT(info.nnz[0], 1);
  CHECK_EQ_INT(info.nnz[1] + info.nnz[2], 0);
  /* Witness of another shape; an assignment that has a/b/c already. */
  cz_fr vals[2] = {CZ_FR_ONE, CZ_FR_ONE};
  cz_assignment w;
  witness_of(&w, vals, 1, 1, 0);
  CHECK_EQ_INT(cz_pce_eval(p, &w, 1), CZ_ERR_INVALID_ARG);
  cz_assignment_free(&w);
  witness_of(&w, vals, 1, 0, 0);
  CHECK_EQ_INT(cz_pce_eval(p, &w, 2), CZ_OK);
  CHECK(cz_fr_eq(&w.a[0], &CZ_FR_ONE) && cz_fr_is_zero(&w.b[0]) && w.c == NULL);
  CHECK_EQ_INT(cz_pce_eval(p, &w, 2), CZ_ERR_INVALID_ARG); /* a/b/c set */
  cz_assignment_free(&w);
  witness_of(&w, vals, 1, 0, 5);
  CHECK_EQ_INT(cz_pce_eval(p, &w, 1), CZ_ERR_INVALID_ARG); /* constraint count */
  cz_assignment_free(&w);
  cz_pce_free(p);
  cz_pce_free(NULL);
  /* Malformed cz_r1cs: a column out of range, offsets going down. */
  builder b;
  b_init(&b, 1, 1);
  b_put(&b, 0, 1, CZ_FR_ONE);
  b.rows++;
  b_put(&b, 1, 0, CZ_FR_ONE);
  b.rows++;
  cz_r1cs m;
  b_r1cs(&b, &m);
  m.a.idx[0] = 2;
  CHECK_EQ_INT(cz_pce_from_r1cs(&m, &p), CZ_ERR_INVALID_ARG);
  CHECK(p == NULL);
  m.a.idx[0] = 1;
  CHECK_EQ_INT(cz_pce_from_r1cs(&m, &p), CZ_OK);
  cz_pce_free(p);
  m.b.ptr[1] = 1; /* b's rows: [0,1) [1,1)... then ptr[2] = 1: fine */
  m.b.ptr[0] = 1;
  CHECK_EQ_INT(cz_pce_from_r1cs(&m, &p), CZ_ERR_INVALID_ARG);
  m.b.ptr[0] = 0;
  m.b.ptr[1] = 2; /* above ptr[2] */
  CHECK_EQ_INT(cz_pce_from_r1cs(&m, &p), CZ_ERR_INVALID_ARG);
  cz_r1cs_free(&m);
}

int main(void) {
  test_special_cases();
  test_wide_codes();
  test_tiny();
  test_record_vs_prove();
  test_errors();
  return check_report("test_pce");
}
