/* cz_slots_synthesize against the serial run (cz_slots_run on one system):
 * the same inputs, packed aux, a/b rows and densities, bit for bit, for
 * PROVE and WITNESS on 1, 2, 3, 5 and all threads, on a circuit whose slots
 * allocate 37 aux (so slots meet inside density and packing words), an
 * input each, bits and full values, and use the header's variables in A
 * and B. The comparison is sharp enough to catch a shifted merge: moving
 * one slot's rows or bits by one position fails it. A slot of another
 * shape, a slot using another slot's variable and a failing slot are
 * refused with the slot's index in the message, and so is another kind
 * than PROVE or WITNESS. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cs_eq.h"
#include "cuzk/cs_slots.h"

#define PER_AUX 37

typedef struct {
  size_t n_slots;
  cz_var h_in, h_aux, h_bit; /* the header's */
  cz_fr h_val;
  int odd_slot;  /* this slot allocates one aux more (-1: none) */
  int thief;     /* this slot uses a variable it did not get (-1: none) */
  int failing;   /* this slot fails (-1: none) */
  bool vary;     /* odd slots read another header variable: slots do not repeat */
} toy;

static cz_fr fr(uint64_t v) {
  cz_fr x;
  cz_fr_from_u64(&x, v);
  return x;
}

static cz_err header(cz_cs *cs, void *ctx) {
  toy *t = ctx;
  t->h_val = fr(12345);
  cz_cs_alloc_input(cs, &t->h_in, &t->h_val);
  cz_cs_alloc(cs, &t->h_aux, &t->h_val);
  cz_cs_alloc(cs, &t->h_bit, &CZ_FR_ONE);
  cz_lc a, b, c;
  cz_lc_init(&a, cs);
  cz_lc_init(&b, cs);
  cz_lc_init(&c, cs);
  cz_lc_add(&a, t->h_in);
  cz_lc_add(&b, CZ_VAR_ONE);
  cz_lc_add(&c, t->h_aux);
  cz_cs_enforce(cs, &a, &b, &c); /* h_in * 1 = h_aux */
  cz_lc_free(&a);
  cz_lc_free(&b);
  cz_lc_free(&c);
  return cz_cs_error(cs);
}

/* Slot i: an input, PER_AUX aux (bits and values), one constraint per aux
 * tying it to the header: v_j * (h_bit + h_aux) = w_j, with w allocated
 * as values or bits by j. */
static cz_err slot(cz_cs *cs, const void *ctx, size_t i) {
  const toy *t = ctx;
  if ((int)i == t->failing) return CZ_ERR_INVALID_ARG;
  cz_var in, v;
  cz_fr iv = fr(1000 + i), hb;
  cz_fr_add(&hb, &t->h_val, &CZ_FR_ONE);
  cz_cs_alloc_input(cs, &in, &iv);
  cz_lc a, b, c;
  cz_lc_init(&a, cs);
  cz_lc_init(&b, cs);
  cz_lc_init(&c, cs);
  size_t n = PER_AUX + ((int)i == t->odd_slot);
  for (size_t j = 0; j + 1 < n; j += 2) {
    /* v in {0, 1, other} by (i + j) % 3; w = v * (h_aux + 1). */
    unsigned k = (unsigned)((i + j) % 3);
    cz_fr vv = k == 0 ? CZ_FR_ZERO : k == 1 ? CZ_FR_ONE : fr(7 * i + j + 2), ww;
    cz_fr_mul(&ww, &vv, &hb);
    cz_var w;
    cz_cs_alloc(cs, &v, &vv);
    cz_cs_alloc(cs, &w, &ww);
    cz_lc_clear(&a);
    cz_lc_clear(&b);
    cz_lc_clear(&c);
    cz_lc_add(&a, v);
    if (j % 4 == 0) cz_lc_add(&a, in); /* + the slot's input: A gains it, not its density */
    cz_lc_add(&b, t->vary && i % 2 ? t->h_in : t->h_bit);
    /* The thief names a later slot's variable (by index: slots get no other
     * handles), unallocated when it runs, serially or not. */
    cz_lc_add(&b, (int)i == t->thief ? cz_var_aux((uint32_t)(2 + (t->n_slots - 1) * PER_AUX))
                                      : t->h_aux);
    cz_lc_add(&c, w);
    cz_cs_enforce(cs, &a, &b, &c);
  }
  if (n % 2) cz_cs_alloc(cs, &v, &CZ_FR_ONE); /* a last bit, used nowhere */
  cz_lc_free(&a);
  cz_lc_free(&b);
  cz_lc_free(&c);
  return cz_cs_error(cs);
}

static toy toy_new(size_t n) { return (toy){.n_slots = n, .odd_slot = -1, .thief = -1, .failing = -1}; }

static void serial(cz_cs_kind kind, toy *t, cz_assignment *out) {
  cz_slotted_circuit c = {t->n_slots, header, slot, t};
  cz_cs *cs = cz_cs_new(kind, NULL);
  CHECK_EQ_INT(cz_slots_run(cs, &c, NULL, 0), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_take_assignment(cs, out), CZ_OK);
  cz_cs_free(cs);
}

/* Slot 1's first row moved one row down, or its aux bits one place up: a
 * merge at a shifted offset would produce either. */
static void shifted_fails(const cz_assignment *want, const cz_assignment *par) {
  size_t rows = PER_AUX / 2, row1 = 1 + rows; /* the header's one row, then slot 0's */
  cz_fr *a = want->a, saved = a[row1 + 1];
  a[row1 + 1] = a[row1];
  CHECK(!assign_eq(want, par));
  a[row1 + 1] = saved;
  CHECK(assign_eq(want, par));
  uint64_t *one = want->aux.one, w0 = one[0], w1 = one[1];
  size_t first = 2 + PER_AUX; /* the header's 2 aux, then slot 0's */
  uint64_t lo = w0 & ~(((uint64_t)1 << first) - 1); /* slot 1's bits in word 0 */
  one[0] = (w0 & ~lo) | (lo << 1);
  one[1] = (w1 << 1) | (w0 >> 63);
  CHECK(!assign_eq(want, par));
  one[0] = w0;
  one[1] = w1;
}

static void agree(size_t n_slots) {
  toy t = toy_new(n_slots);
  cz_assignment want, wantw, par;
  serial(CZ_CS_PROVE, &t, &want);
  serial(CZ_CS_WITNESS, &t, &wantw);
  static const unsigned budgets[] = {1, 2, 3, 5, 0};
  cz_slotted_circuit c = {n_slots, header, slot, &t};
  char msg[200];
  for (size_t b = 0; b < sizeof budgets / sizeof *budgets; b++) {
    CHECK_EQ_INT(cz_slots_synthesize(CZ_CS_PROVE, NULL, &c, budgets[b], &par, msg, sizeof msg),
                 CZ_OK);
    CHECK(assign_eq(&want, &par));
    if (n_slots >= 2 && budgets[b] == 2) shifted_fails(&want, &par);
    cz_assignment_free(&par);
    CHECK_EQ_INT(cz_slots_synthesize(CZ_CS_WITNESS, NULL, &c, budgets[b], &par, msg, sizeof msg),
                 CZ_OK);
    CHECK(assign_eq(&wantw, &par) && par.a == NULL);
    cz_assignment_free(&par);
  }
  printf("%zu slots: %zu inputs, %zu aux (%zu neither 0 nor 1), %zu rows; a_aux %zu, b_aux %zu, "
         "b_input %zu\n",
         n_slots, want.n_inputs, want.n_aux, want.aux.n_other, want.n_constraints,
         want.a_aux.count, want.b_aux.count, want.b_input.count);
  cz_assignment_free(&want);
  cz_assignment_free(&wantw);
}

/* The recorded shape (tiled when the slots repeat, whole when they vary)
 * completes a WITNESS run to the PROVE assignment, on 1 and 3 threads, and
 * a tiled one survives the file. */
static void recorded(size_t n_slots, bool vary) {
  toy t = toy_new(n_slots);
  t.vary = vary;
  cz_assignment want, w;
  serial(CZ_CS_PROVE, &t, &want);
  cz_slotted_circuit c = {n_slots, header, slot, &t};
  cz_pce *shape = NULL, *loaded = NULL;
  char msg[200] = "";
  CHECK_EQ_INT(cz_slots_record(&c, &shape, msg, sizeof msg), CZ_OK);
  if (!shape) return;
  cz_pce_info info;
  cz_pce_get_info(shape, &info);
  CHECK_EQ_INT(info.n_slots, n_slots >= 2 && !vary ? n_slots : 0);
  CHECK(info.n_constraints == want.n_constraints && info.n_aux == want.n_aux &&
        info.n_inputs == want.n_inputs);
  const char *path = "/tmp/cz-test-cs-slots.pce";
  uint8_t key[CZ_PCE_KEY_BYTES] = {7};
  CHECK_EQ_INT(cz_pce_save(shape, path, key, msg, sizeof msg), CZ_OK);
  CHECK_EQ_INT(cz_pce_load(path, key, &loaded, msg, sizeof msg), CZ_PCE_FILE_OK);
  unlink(path);
  const cz_pce *shapes[2] = {shape, loaded};
  for (int k = 0; k < 2 && loaded; k++)
    for (unsigned th = 1; th <= 3; th += 2) {
      CHECK_EQ_INT(cz_slots_synthesize(CZ_CS_WITNESS, NULL, &c, th, &w, msg, sizeof msg), CZ_OK);
      CHECK_EQ_INT(cz_pce_eval(shapes[k], &w, th), CZ_OK);
      CHECK(assign_eq(&want, &w));
      cz_assignment_free(&w);
    }
  printf("%zu slots%s: shape of %zu + %zu entries, %zu bytes, tiled over %zu slots\n", n_slots,
         vary ? " (varying)" : "", info.nnz[0], info.nnz[1], info.bytes, info.n_slots);
  cz_pce_free(loaded);
  cz_pce_free(shape);
  cz_assignment_free(&want);
}

static void refused(toy t, const char *want_msg) {
  cz_slotted_circuit c = {t.n_slots, header, slot, &t};
  cz_assignment out;
  char msg[200] = "";
  CHECK(cz_slots_synthesize(CZ_CS_PROVE, NULL, &c, 2, &out, msg, sizeof msg) != CZ_OK);
  CHECK(out.a == NULL && out.inputs == NULL && out.n_aux == 0);
  bool ok = strstr(msg, want_msg) != NULL;
  CHECK(ok);
  if (!ok) fprintf(stderr, "  message: %s (expected %s)\n", msg, want_msg);
}

int main(void) {
  agree(0);
  agree(1);
  agree(7);
  agree(64);
  recorded(1, false);
  recorded(2, false);
  recorded(9, false);
  recorded(9, true);
  toy t = toy_new(6);
  t.odd_slot = 4;
  refused(t, "slot 4:");
  t = toy_new(6);
  t.thief = 3;
  refused(t, "slot 3: constraint");
  t = toy_new(6);
  t.failing = 5;
  refused(t, "slot 5:");
  cz_slotted_circuit c = {1, header, slot, &t};
  cz_assignment out;
  CHECK_EQ_INT(cz_slots_synthesize(CZ_CS_TEST, NULL, &c, 1, &out, NULL, 0), CZ_ERR_INVALID_ARG);
  return check_report("test_cs_slots");
}
