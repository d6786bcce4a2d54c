/* cz_slots_synthesize against the serial run (cz_slots_run on one system):
 * the same inputs, packed aux, a/b rows and densities, bit for bit, for
 * PROVE and WITNESS on 1, 2, 3, 5 and all threads, on a circuit whose slots
 * allocate 37 aux (so slots meet inside density and packing words), an
 * input each, bits and full values, and use the header's variables in A
 * and B. The comparison is sharp enough to catch a shifted merge: moving
 * one slot's rows or bits by one position fails it. A slot of another
 * shape, a slot using another slot's variable and a failing slot are
 * refused with the slot's index in the message, and so is another mode
 * than PROVE or WITNESS. Remembered slot counts that are another
 * circuit's are caught, and the run counts again. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cs_eq.h"
#include "cuzk/cs_slots.h"
#include "cs/toy_slots.h"

static void serial(cz_cs_mode mode, toy *t, cz_assignment *out) {
  cz_slotted_circuit c = {t->n_slots, toy_header, toy_slot, t};
  cz_cs *cs = cz_cs_new(mode, NULL);
  CHECK_EQ_INT(cz_slots_run(cs, &c, NULL, 0), CZ_OK);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  CHECK_EQ_INT(cz_cs_take_assignment(cs, out), CZ_OK);
  cz_cs_free(cs);
}

/* Slot 1's first row moved one row down, or its aux bits one place up: a
 * merge at a shifted offset would produce either. */
static void shifted_fails(const cz_assignment *want, const cz_assignment *par) {
  size_t rows = (PER_AUX + 1) / 2, row1 = 1 + rows; /* the header's one row, then slot 0's */
  cz_fr *a = want->a, saved = a[row1 + 1];
  a[row1 + 1] = a[row1];
  CHECK(!assign_eq(want, par));
  a[row1 + 1] = saved;
  CHECK(assign_eq(want, par));
  uint64_t *one = want->aux.one, w0 = one[0], w1 = one[1];
  size_t first = 2 + PER_AUX;                       /* the header's 2 aux, then slot 0's */
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
  cz_slotted_circuit c = {n_slots, toy_header, toy_slot, &t};
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
  printf(
      "%zu slots: %zu inputs, %zu aux (%zu neither 0 nor 1), %zu rows; a_aux %zu, b_aux %zu, "
      "b_input %zu\n",
      n_slots, want.n_inputs, want.n_aux, want.aux.n_other, want.n_constraints, want.a_aux.count,
      want.b_aux.count, want.b_input.count);
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
  cz_slotted_circuit c = {n_slots, toy_header, toy_slot, &t};
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

/* Slot counts are remembered per slot function and header. Circuits with
 * the same header and larger, then smaller, slots than the remembered
 * ones still give the serial result (the first slot's shape check catches
 * the guess and the run counts again), on 1 and 3 threads. */
static void remembered_counts_checked(void) {
  static const size_t extras[] = {0, 4, 1, 0};
  char msg[200] = "";
  for (size_t k = 0; k < sizeof extras / sizeof *extras; k++)
    for (unsigned th = 1; th <= 3; th += 2) {
      toy t = toy_new(5);
      t.extra = extras[k];
      cz_assignment want, par;
      serial(CZ_CS_PROVE, &t, &want);
      cz_slotted_circuit c = {t.n_slots, toy_header, toy_slot, &t};
      CHECK_EQ_INT(cz_slots_synthesize(CZ_CS_PROVE, NULL, &c, th, &par, msg, sizeof msg), CZ_OK);
      CHECK(assign_eq(&want, &par));
      cz_assignment_free(&par);
      CHECK_EQ_INT(cz_slots_synthesize(CZ_CS_WITNESS, NULL, &c, th, &par, msg, sizeof msg), CZ_OK);
      CHECK(par.n_aux == want.n_aux && par.n_inputs == want.n_inputs);
      cz_assignment_free(&par);
      cz_assignment_free(&want);
    }
}

static void refused(toy t, const char *want_msg) {
  cz_slotted_circuit c = {t.n_slots, toy_header, toy_slot, &t};
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
  remembered_counts_checked();
  toy t = toy_new(6);
  t.odd_slot = 4;
  refused(t, "slot 4:");
  t = toy_new(6);
  t.thief = 3;
  refused(t, "slot 3: constraint");
  t = toy_new(6);
  t.failing = 5;
  refused(t, "slot 5:");
  cz_slotted_circuit c = {1, toy_header, toy_slot, &t};
  cz_assignment out;
  CHECK_EQ_INT(cz_slots_synthesize(CZ_CS_TEST, NULL, &c, 1, &out, NULL, 0), CZ_ERR_INVALID_ARG);
  return check_report("test_cs_slots");
}
