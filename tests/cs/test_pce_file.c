/* The recorded shape on disk (cz_pce_save / cz_pce_load): a saved shape
 * loads back and evaluates bit for bit as the recorded one (16- and 32-bit
 * codes); another key is STALE, no file MISSING; every flipped byte and
 * every truncation is refused; a file whose checksum was recomputed over a
 * malformed shape is refused too; a failed save leaves no file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cs_eq.h"
#include "cuzk/crc32c.h"
#include "cuzk/cs.h"
#include "bits_circuit.h"

static char dir[64];

static uint8_t *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *n = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *b = malloc(*n ? *n : 1);
  CHECK_EQ_INT(fread(b, 1, *n, f), *n);
  fclose(f);
  return b;
}

static void spill(const char *path, const uint8_t *b, size_t n) {
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (!f) return;
  CHECK_EQ_INT(fwrite(b, 1, n, f), n);
  fclose(f);
}

/* A WITNESS run of the bits circuit completed by shape p. */
static void eval_bits(const cz_pce *p, uint64_t seed, cz_assignment *w) {
  cz_cs *cs = run_bits(CZ_CS_WITNESS, seed);
  CHECK_EQ_INT(cz_cs_take_assignment(cs, w), CZ_OK);
  cz_cs_free(cs);
  CHECK_EQ_INT(cz_pce_eval(p, w, 2), CZ_OK);
}

static cz_pce_file_status load_status(const char *path, const uint8_t *key) {
  char msg[256] = "";
  cz_pce *q = NULL;
  cz_pce_file_status st = cz_pce_load(path, key, &q, msg, sizeof msg);
  CHECK_EQ_INT(st == CZ_PCE_FILE_OK, q != NULL);
  CHECK(st == CZ_PCE_FILE_OK || msg[0] != 0);
  cz_pce_free(q);
  return st;
}

/* What the steps of test_round_trip share. */
typedef struct {
  cz_pce *p;                     /* the recorded shape */
  uint8_t key[CZ_PCE_KEY_BYTES]; /* the key it is saved under */
  char path[128], bad[160];      /* the saved file; a damaged copy of it */
  char msg[256];                 /* the last save's or load's message */
  uint8_t *img;                  /* the saved file's bytes (NULL: unread) */
  size_t n;
} trip;

/* q, loaded back, has p's counts and evaluates bit for bit as p (and as a
 * PROVE run) for two seeds. */
static void check_same_shape(const cz_pce *p, const cz_pce *q) {
  cz_pce_info a, b;
  cz_pce_get_info(p, &a);
  cz_pce_get_info(q, &b);
  CHECK(a.n_inputs == b.n_inputs && a.n_aux == b.n_aux && a.n_constraints == b.n_constraints &&
        a.n_coeffs == b.n_coeffs && a.code_bytes == b.code_bytes && a.nnz[0] == b.nnz[0] &&
        a.nnz[1] == b.nnz[1] && a.nnz[2] == b.nnz[2]);
  for (uint64_t seed = 1; seed <= 2; seed++) {
    cz_assignment w1, w2, pr;
    eval_bits(p, seed, &w1);
    eval_bits(q, seed, &w2);
    cz_cs *cs = run_bits(CZ_CS_PROVE, seed);
    CHECK_EQ_INT(cz_cs_take_assignment(cs, &pr), CZ_OK);
    cz_cs_free(cs);
    CHECK(assign_eq(&w1, &w2));
    CHECK(assign_eq(&pr, &w2));
    cz_assignment_free(&w1);
    cz_assignment_free(&w2);
    cz_assignment_free(&pr);
  }
}

/* No file yet is MISSING; saved, it loads back as the same shape; under
 * another key it is STALE. */
static void check_save_load(trip *t) {
  uint8_t other[CZ_PCE_KEY_BYTES];
  memcpy(other, t->key, sizeof other);
  other[31] ^= 0x80;
  CHECK_EQ_INT(load_status(t->path, t->key), CZ_PCE_FILE_MISSING);
  CHECK_EQ_INT(cz_pce_save(t->p, t->path, t->key, t->msg, sizeof t->msg), CZ_OK);
  cz_pce *q = NULL;
  CHECK_EQ_INT(cz_pce_load(t->path, t->key, &q, t->msg, sizeof t->msg), CZ_PCE_FILE_OK);
  if (!q) fprintf(stderr, "  load: %s\n", t->msg);
  if (q) {
    check_same_shape(t->p, q);
    cz_pce_free(q);
  }
  CHECK_EQ_INT(load_status(t->path, other), CZ_PCE_FILE_STALE);
}

/* Every byte flipped, one at a time: never a shape. */
static void check_flips_refused(trip *t) {
  size_t refused = 0;
  for (size_t i = 0; t->img && i < t->n; i++) {
    t->img[i] ^= 0x10;
    spill(t->bad, t->img, t->n);
    refused += load_status(t->bad, t->key) != CZ_PCE_FILE_OK;
    t->img[i] ^= 0x10;
  }
  CHECK_EQ_INT(refused, t->n);
}

/* Every truncation (and one byte too many): CORRUPT. */
static void check_lengths_refused(trip *t) {
  size_t refused = 0;
  for (size_t len = 0; t->img && len < t->n; len++) {
    spill(t->bad, t->img, len);
    refused += load_status(t->bad, t->key) == CZ_PCE_FILE_CORRUPT;
  }
  CHECK_EQ_INT(refused, t->n);
  if (t->img) {
    uint8_t *longer = calloc(t->n + 1, 1);
    memcpy(longer, t->img, t->n);
    spill(t->bad, longer, t->n + 1);
    CHECK_EQ_INT(load_status(t->bad, t->key), CZ_PCE_FILE_CORRUPT);
    free(longer);
  }
}

/* A malformed shape under a correct checksum: the first column index of
 * A (just after the row offsets) pointed past the last variable. */
static void check_malformed_refused(trip *t) {
  if (!t->img) return;
  cz_pce_info info;
  cz_pce_get_info(t->p, &info);
  size_t idx_at = 192 + ((info.n_constraints + 1) * 4 + 63) / 64 * 64;
  uint32_t big = 0xFFFFFFF0u;
  memcpy(t->img + idx_at, &big, 4);
  uint32_t crc = cz_crc32c(0, t->img, t->n - 16);
  memcpy(t->img + t->n - 16, &crc, 4);
  spill(t->bad, t->img, t->n);
  char m2[256] = "";
  cz_pce *r = NULL;
  CHECK_EQ_INT(cz_pce_load(t->bad, t->key, &r, m2, sizeof m2), CZ_PCE_FILE_CORRUPT);
  CHECK(strstr(m2, "malformed") != NULL);
}

/* A save that cannot happen: CZ_ERR_IO with the reason, nothing left. */
static void check_save_fails(trip *t) {
  char nodir[160];
  snprintf(nodir, sizeof nodir, "%s/no/such/dir/x.pce", dir);
  CHECK_EQ_INT(cz_pce_save(t->p, nodir, t->key, t->msg, sizeof t->msg), CZ_ERR_IO);
  CHECK(strstr(t->msg, "No such file") != NULL);
}

static void test_round_trip(void) {
  trip t = {.msg = ""};
  cz_cs *cs = run_bits(CZ_CS_RECORD, 1);
  CHECK_EQ_INT(cz_cs_take_pce(cs, &t.p), CZ_OK);
  cz_cs_free(cs);
  for (int i = 0; i < CZ_PCE_KEY_BYTES; i++) t.key[i] = (uint8_t)(i * 7 + 1);
  snprintf(t.path, sizeof t.path, "%s/bits.pce", dir);
  check_save_load(&t);
  t.img = slurp(t.path, &t.n);
  snprintf(t.bad, sizeof t.bad, "%s/bad.pce", dir);
  check_flips_refused(&t);
  check_lengths_refused(&t);
  check_malformed_refused(&t);
  free(t.img);
  unlink(t.bad);
  unlink(t.path);
  check_save_fails(&t);
  cz_pce_free(t.p);
}

/* More than 65536 distinct coefficients: 32-bit codes survive the trip. */
static void test_wide(void) {
  cz_cs *cs = cz_cs_new(CZ_CS_RECORD, NULL);
  cz_var x, y;
  CHECK(cz_cs_alloc(cs, &x, NULL) == CZ_OK);
  CHECK(cz_cs_alloc(cs, &y, NULL) == CZ_OK);
  for (uint64_t i = 0; i < 70000; i++) {
    cz_lc a, b, c;
    cz_lc_init(&a, cs);
    cz_lc_init(&b, cs);
    cz_lc_init(&c, cs);
    cz_fr k = bits_fr(i + 3);
    cz_lc_add_term(&a, x, &k);
    cz_lc_add(&b, CZ_VAR_ONE);
    cz_lc_add(&c, y);
    cz_cs_enforce(cs, &a, &b, &c);
    cz_lc_free(&a);
    cz_lc_free(&b);
    cz_lc_free(&c);
  }
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  cz_pce *p = NULL, *q = NULL;
  CHECK_EQ_INT(cz_cs_take_pce(cs, &p), CZ_OK);
  cz_cs_free(cs);
  cz_pce_info a, b;
  cz_pce_get_info(p, &a);
  CHECK_EQ_INT(a.code_bytes, 4);
  uint8_t key[CZ_PCE_KEY_BYTES] = {1};
  char path[128], msg[256] = "";
  snprintf(path, sizeof path, "%s/wide.pce", dir);
  CHECK_EQ_INT(cz_pce_save(p, path, key, msg, sizeof msg), CZ_OK);
  CHECK_EQ_INT(cz_pce_load(path, key, &q, msg, sizeof msg), CZ_PCE_FILE_OK);
  if (q) {
    cz_pce_get_info(q, &b);
    CHECK_EQ_INT(b.code_bytes, 4);
    CHECK_EQ_INT(b.n_coeffs, a.n_coeffs);
    /* x = 5, y: the same a/b/c from both shapes. */
    cz_assignment w1 = {0}, w2 = {0};
    cz_fr vals[3] = {CZ_FR_ONE, bits_fr(5), bits_fr(9)};
    for (int t = 0; t < 2; t++) {
      cz_assignment *w = t ? &w2 : &w1;
      w->n_inputs = 1;
      w->n_aux = 2;
      w->n_constraints = 70000;
      w->inputs = malloc(sizeof(cz_fr));
      w->inputs[0] = vals[0];
      CHECK_EQ_INT(cz_fr_packed_from(&w->aux, vals + 1, 2), CZ_OK);
      CHECK_EQ_INT(cz_pce_eval(t ? q : p, w, 2), CZ_OK);
    }
    CHECK(assign_eq(&w1, &w2));
    cz_assignment_free(&w1);
    cz_assignment_free(&w2);
    cz_pce_free(q);
  }
  unlink(path);
  cz_pce_free(p);
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/cz-pce-file.XXXXXX");
  if (!mkdtemp(dir)) return 1;
  test_round_trip();
  test_wide();
  rmdir(dir);
  return check_report("test_pce_file");
}
