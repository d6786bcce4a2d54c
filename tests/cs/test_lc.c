/* Linear combinations: bellpepper's merge semantics (one sorted term per
 * variable, inputs before aux, zero sums kept) checked against a dense
 * reference model under random operations, for every storage layout; plus
 * the arena's reuse and the inline layout's spill point. */
#include "check.h"
#include "cs/cs_internal.h"

enum { NI = 6, NA = 20, NV = NI + NA };

typedef struct {
  bool present[NV];
  cz_fr coeff[NV];
} model;

static cz_var var_of(int i) {
  return i < NI ? cz_var_input((uint32_t)i) : cz_var_aux((uint32_t)(i - NI));
}

static cz_fr rnd_fr(void) {
  /* Mostly small coefficients (0, 1, 2, -1) like real circuits, some wide. */
  cz_fr r;
  switch (check_rand64() % 5) {
    case 0: return CZ_FR_ZERO;
    case 1: return CZ_FR_ONE;
    case 2: cz_fr_from_u64(&r, 2); return r;
    case 3: cz_fr_neg(&r, &CZ_FR_ONE); return r;
    default: {
      unsigned char b[64];
      check_rand_bytes(b, sizeof b);
      cz_fr_from_wide_le(&r, b);
      return r;
    }
  }
}

static void model_add(model *m, int i, const cz_fr *c) {
  if (!m->present[i]) {
    m->present[i] = true;
    m->coeff[i] = *c;
  } else {
    cz_fr_add(&m->coeff[i], &m->coeff[i], c);
  }
}

static bool matches(const cz_lc *lc, const model *m) {
  size_t k = 0;
  for (int i = 0; i < NV; i++) {
    if (!m->present[i]) continue;
    if (k >= lc->len) return false;
    if (lc->t[k].key != cz_var_key(var_of(i)) || !cz_fr_eq(&lc->t[k].coeff, &m->coeff[i]))
      return false;
    k++;
  }
  return k == lc->len;
}

/* Another LC of a few random terms (in other, checked against its own
 * model), then combined into lc (add, sub, add scaled by c or sub scaled),
 * mirrored on m. false when other left its model. */
static bool combine_random_lc(cz_lc *lc, cz_lc *other, model *m, const cz_fr *c) {
  model mo;
  cz_lc_clear(other);
  memset(&mo, 0, sizeof mo);
  int n = (int)(check_rand64() % 6);
  for (int j = 0; j < n; j++) {
    int v = (int)(check_rand64() % NV);
    cz_fr d = rnd_fr();
    cz_lc_add_term(other, var_of(v), &d);
    model_add(&mo, v, &d);
  }
  bool ok = matches(other, &mo);
  int op = (int)(check_rand64() % 4);
  for (int v = 0; v < NV; v++) {
    if (!mo.present[v]) continue;
    cz_fr t = mo.coeff[v];
    if (op >= 2) cz_fr_mul(&t, &t, c);
    if (op & 1) cz_fr_neg(&t, &t);
    model_add(m, v, &t);
  }
  if (op == 0) cz_lc_add_lc(lc, other);
  else if (op == 1) cz_lc_sub_lc(lc, other);
  else if (op == 2) cz_lc_add_scaled(lc, c, other);
  else cz_lc_sub_scaled(lc, c, other);
  return ok;
}

/* A batch in random order, duplicates and present keys included, added to
 * lc with cz_lc_add_terms and term by term to m. */
static void add_random_batch(cz_lc *lc, model *m) {
  cz_lc_term batch[40];
  size_t n = (size_t)(check_rand64() % 41);
  for (size_t j = 0; j < n; j++) {
    int v = (int)(check_rand64() % NV);
    batch[j] = (cz_lc_term){rnd_fr(), cz_var_key(var_of(v))};
    model_add(m, v, &batch[j].coeff);
  }
  cz_lc_add_terms(lc, batch, n);
}

/* One random operation on lc, mirrored on m; other is scratch for the
 * combining operations. false when that scratch LC left its model. */
static bool random_op(cz_lc *lc, cz_lc *other, model *m) {
  int i = (int)(check_rand64() % NV);
  cz_fr c = rnd_fr(), neg;
  cz_fr_neg(&neg, &c);
  switch (check_rand64() % 10) {
    case 0:
      cz_lc_add_term(lc, var_of(i), &c);
      model_add(m, i, &c);
      break;
    case 1:
      cz_lc_sub_term(lc, var_of(i), &c);
      model_add(m, i, &neg);
      break;
    case 2:
      cz_lc_add(lc, var_of(i));
      model_add(m, i, &CZ_FR_ONE);
      break;
    case 3: {
      cz_fr m1;
      cz_fr_neg(&m1, &CZ_FR_ONE);
      cz_lc_sub(lc, var_of(i));
      model_add(m, i, &m1);
      break;
    }
    case 4:
      cz_lc_add_const(lc, &c);
      model_add(m, 0, &c);
      break;
    case 5:
    case 6:
    case 7: return combine_random_lc(lc, other, m, &c);
    case 8: add_random_batch(lc, m); break;
    default:
      if (check_rand64() % 8 == 0) { /* occasionally start over */
        cz_lc_clear(lc);
        memset(m, 0, sizeof *m);
      }
      break;
  }
  return true;
}

/* lc += lc doubles every coefficient in place; a copy of lc matches m and
 * evaluates as m does. */
static void check_double_copy_eval(cz_lc *lc, cz_lc *other, model *m) {
  cz_lc_add_lc(lc, lc);
  for (int v = 0; v < NV; v++) cz_fr_dbl(&m->coeff[v], &m->coeff[v]);
  CHECK(matches(lc, m));
  /* copy, then eval against the model. */
  cz_lc_copy(other, lc);
  CHECK(matches(other, m));
  cz_fr in[NI], ax[NA], got, want = CZ_FR_ZERO, t;
  for (int v = 0; v < NV; v++) {
    cz_fr x = rnd_fr();
    if (v < NI) in[v] = x;
    else ax[v - NI] = x;
    if (m->present[v]) {
      cz_fr_mul(&t, &m->coeff[v], &x);
      cz_fr_add(&want, &want, &t);
    }
  }
  CHECK(cz_lc_eval(&got, other, in, NI, ax, NA));
  CHECK(cz_fr_eq(&got, &want));
  CHECK(!cz_lc_eval(&got, other, in, NI, ax, 0) || other->len == 0 ||
        other->t[other->len - 1].key < ((uint64_t)1 << 32));
}

/* rounds random operations on an LC of cs, each checked against the dense
 * model; then doubling, copying and evaluating. */
static void random_ops(cz_cs *cs, unsigned rounds) {
  cz_lc lc, other;
  model m = {0};
  cz_lc_init(&lc, cs);
  cz_lc_init(&other, cs);
  bool ok = true;
  for (unsigned r = 0; r < rounds; r++) {
    ok &= random_op(&lc, &other, &m);
    ok &= matches(&lc, &m);
  }
  CHECK(ok);
  CHECK(!cz_lc_failed(&lc));
  check_double_copy_eval(&lc, &other, &m);
  cz_lc_free(&lc);
  cz_lc_free(&other);
}

static void test_random_all_layouts(void) {
  const cz_cs_config cfgs[] = {
      {CZ_LC_VEC, 0, 0, 0},    {CZ_LC_INLINE, 1, 0, 0}, {CZ_LC_INLINE, 2, 0, 0},
      {CZ_LC_INLINE, 4, 0, 0}, {CZ_LC_ARENA, 0, 0, 0},
  };
  for (size_t i = 0; i < sizeof cfgs / sizeof *cfgs; i++) {
    cz_cs *cs = cz_cs_new(CZ_CS_WITNESS, &cfgs[i]);
    for (int rep = 0; rep < 20; rep++) random_ops(cs, 400);
    cz_cs_free(cs);
  }
}

/* cz_lc_add_terms on big batches (past its stack scratch) over many
 * variables equals cz_lc_add_term term by term, starting from an LC that
 * already holds some of the keys; sorted and reversed batches too. */
static void test_add_terms_big(void) {
  for (int shape = 0; shape < 4; shape++) {
    cz_lc a, b;
    cz_lc_init(&a, NULL);
    cz_lc_init(&b, NULL);
    for (uint32_t i = 0; i < 300; i += 3) {
      cz_fr c = rnd_fr();
      cz_lc_add_term(&a, cz_var_aux(i), &c);
      cz_lc_add_term(&b, cz_var_aux(i), &c);
    }
    enum { N = 3000 };
    static cz_lc_term batch[N];
    for (size_t j = 0; j < N; j++) {
      uint64_t v = shape == 0 ? check_rand64() % 2000 : shape == 1 ? j : shape == 2 ? N - j : j % 7;
      cz_var var = v % 5 == 4 ? cz_var_input((uint32_t)v) : cz_var_aux((uint32_t)v);
      batch[j] = (cz_lc_term){rnd_fr(), cz_var_key(var)};
      cz_lc_add_term(&b, var, &batch[j].coeff);
    }
    cz_lc_add_terms(&a, batch, N);
    CHECK_EQ_INT(a.len, b.len);
    CHECK(a.len == b.len && !memcmp(a.t, b.t, a.len * sizeof *a.t));
    CHECK(!cz_lc_failed(&a));
    cz_lc_free(&a);
    cz_lc_free(&b);
  }
}

/* bellperson's test_insert_or_update sequence: keys 2, 3, 1, 2 give
 * [(1,1), (2,2), (3,1)]; and a zero sum stays as a term. */
static void test_indexer_sequence(void) {
  cz_lc lc;
  cz_lc_init(&lc, NULL);
  cz_lc_add(&lc, cz_var_aux(2));
  cz_lc_add(&lc, cz_var_aux(3));
  cz_lc_add(&lc, cz_var_aux(1));
  cz_lc_add(&lc, cz_var_aux(2));
  cz_fr two;
  cz_fr_from_u64(&two, 2);
  CHECK_EQ_INT(cz_lc_len(&lc), 3);
  CHECK(lc.t[0].key == cz_var_key(cz_var_aux(1)) && cz_fr_is_one(&lc.t[0].coeff));
  CHECK(lc.t[1].key == cz_var_key(cz_var_aux(2)) && cz_fr_eq(&lc.t[1].coeff, &two));
  CHECK(lc.t[2].key == cz_var_key(cz_var_aux(3)) && cz_fr_is_one(&lc.t[2].coeff));
  cz_lc_sub(&lc, cz_var_aux(3));
  CHECK_EQ_INT(cz_lc_len(&lc), 3);
  CHECK(cz_fr_is_zero(&lc.t[2].coeff));
  /* Inputs sort before aux whatever the insertion order. */
  cz_lc_add(&lc, cz_var_input(5));
  cz_lc_add(&lc, CZ_VAR_ONE);
  CHECK(cz_var_eq(cz_var_from_key(lc.t[0].key), CZ_VAR_ONE));
  CHECK(cz_var_eq(cz_var_from_key(lc.t[1].key), cz_var_input(5)));
  cz_lc_free(&lc);
}

static void test_inline_spill(void) {
  for (unsigned n = 1; n <= 4; n *= 2) {
    cz_lc lc;
    cz_lc_init_layout(&lc, CZ_LC_INLINE, n, NULL);
    for (unsigned i = 0; i < n; i++) cz_lc_add(&lc, cz_var_aux(i));
    CHECK(!lc.heap && lc.t == lc.inl);
    cz_lc_add(&lc, cz_var_aux(n));
    CHECK(lc.heap && lc.t != lc.inl);
    CHECK_EQ_INT(cz_lc_len(&lc), n + 1);
    for (unsigned i = 0; i <= n; i++) CHECK(lc.t[i].key == cz_var_key(cz_var_aux(i)));
    cz_lc_free(&lc);
  }
  cz_lc lc;
  cz_lc_init(&lc, NULL);
  CHECK(lc.layout == CZ_LC_VEC && lc.t == NULL); /* empty: no allocation */
  cz_lc_free(&lc);
}

static void test_arena(void) {
  cz_cs_config cfg = {CZ_LC_ARENA, 0, 0, 0};
  cz_cs *cs = cz_cs_new(CZ_CS_WITNESS, &cfg);
  enum { L = 64 };
  cz_lc lcs[L];
  for (int i = 0; i < L; i++) cz_lc_init(&lcs[i], cs);
  /* Interleaved growth: none is at the arena top for long. */
  for (uint32_t t = 0; t < 150; t++)
    for (int i = 0; i < L; i++) cz_lc_add(&lcs[i], cz_var_aux(t * (uint32_t)(i + 1)));
  bool ok = true;
  for (int i = 0; i < L; i++) {
    ok &= lcs[i].len == 150 && !lcs[i].failed;
    for (uint32_t t = 0; t < 150; t++)
      ok &= lcs[i].t[t].key == cz_var_key(cz_var_aux(t * (uint32_t)(i + 1)));
  }
  CHECK(ok);
  /* One LC bigger than a chunk. */
  cz_lc big;
  cz_lc_init(&big, cs);
  for (uint32_t t = 0; t < 20000; t++) cz_lc_add(&big, cz_var_aux(t));
  CHECK_EQ_INT(big.len, 20000);
  CHECK(big.t[19999].key == cz_var_key(cz_var_aux(19999)));
  CHECK(cs->arena.live == L + 1);
  for (int i = 0; i < L; i++) cz_lc_free(&lcs[i]);
  CHECK(cs->arena.cur != cs->arena.head || cs->arena.head->used > 0); /* big still pins */
  cz_lc_free(&big);
  CHECK(cs->arena.live == 0);
  /* Everything freed: the arena rewound and the next LC reuses chunk one. */
  cz_lc again;
  cz_lc_init(&again, cs);
  cz_lc_add(&again, CZ_VAR_ONE);
  CHECK(again.t == cs->arena.head->mem);
  cz_lc_free(&again);
  cz_cs_free(cs);
}

int main(void) {
  test_indexer_sequence();
  test_inline_spill();
  test_arena();
  test_random_all_layouts();
  test_add_terms_big();
  return check_report("test_lc");
}
