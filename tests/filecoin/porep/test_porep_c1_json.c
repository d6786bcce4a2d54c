/* C1 JSON (porep_c1_json.c): round trips of synthetic C1s of every shape,
 * Curio's base64 wrapper, truncations, and tampered fields with the error
 * each must give. The serde shapes are those of rust-fil-proofs and
 * rust-filecoin-proofs-api (see the top of porep_c1_json.c); no real C1
 * JSON is public, so the fixtures are our own writer's output, edited. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cuzk/porep.h"

#define MSG 512

static bool same_c1(const cz_porep_c1 *a, const cz_porep_c1 *b) {
  if (a->registered != b->registered || a->n_partitions != b->n_partitions ||
      a->n_challenges != b->n_challenges || a->has_sector_num != b->has_sector_num ||
      a->sector_num != b->sector_num)
    return false;
  if (memcmp(a->comm_r, b->comm_r, 32) || memcmp(a->comm_d, b->comm_d, 32) ||
      memcmp(a->replica_id, b->replica_id, 32) || memcmp(a->seed, b->seed, 32) ||
      memcmp(a->ticket, b->ticket, 32))
    return false;
  size_t n = (size_t)a->n_partitions * a->n_challenges;
  return memcmp(a->proofs, b->proofs, n * sizeof *a->proofs) == 0;
}

/* JSON text from a C1 model (malloc'd, NUL-terminated). */
static char *to_json(const cz_porep_c1 *c1, size_t *len) {
  char *s = NULL;
  size_t n = 0;
  CHECK(cz_porep_c1_to_json(c1, &s, &n) == CZ_OK);
  if (len) *len = n;
  return s;
}

/* Parse and expect error e whose message contains want (or equals it when
 * exact). */
static void expect_err(const char *json, size_t len, cz_err e, const char *want, bool exact,
                       int line) {
  cz_porep_c1 c1;
  char msg[MSG];
  cz_err got = cz_porep_c1_parse(&c1, json, len, msg, sizeof msg);
  bool ok = got == e && (exact ? strcmp(msg, want) == 0 : strstr(msg, want) != NULL);
  if (!ok)
    fprintf(stderr, "line %d: want %s \"%s\", got %s \"%s\"\n", line, cz_err_str(e), want,
            cz_err_str(got), msg);
  CHECK(ok);
  CHECK(c1.proofs == NULL && c1.registered == NULL);
}
#define EXPECT_ERR(json, e, want) expect_err((json), strlen(json), (e), (want), false, __LINE__)
#define EXPECT_MSG(json, e, want) expect_err((json), strlen(json), (e), (want), true, __LINE__)

/* s with the first occurrence of `from` replaced by `to` (malloc'd). */
static char *replace1(const char *s, const char *from, const char *to) {
  const char *at = strstr(s, from);
  CHECK(at != NULL);
  if (!at) return strdup(s);
  size_t a = (size_t)(at - s), f = strlen(from), t = strlen(to), n = strlen(s);
  char *r = malloc(n - f + t + 1);
  memcpy(r, s, a);
  memcpy(r + a, to, t);
  memcpy(r + a + t, at + f, n - a - f + 1);
  return r;
}

/* ---- A test-side JSON rewriter: every object's members in reverse order,
 * optionally pretty (spaces and newlines), so key order and whitespace are
 * exercised on a whole C1. Input: well-formed JSON from our writer. */
typedef struct {
  char *b;
  size_t n, cap;
} sbuf;
static void sb_put(sbuf *s, const char *p, size_t n) {
  if (s->n + n + 1 > s->cap) {
    s->cap = (s->n + n + 1) * 2;
    s->b = realloc(s->b, s->cap);
  }
  memcpy(s->b + s->n, p, n);
  s->n += n;
  s->b[s->n] = 0;
}
static const char *skip_value(const char *p) {
  if (*p == '"') {
    for (p++; *p != '"'; p++)
      if (*p == '\\') p++;
    return p + 1;
  }
  if (*p == '{' || *p == '[') {
    int depth = 0;
    do {
      if (*p == '"') {
        p = skip_value(p);
        continue;
      }
      if (*p == '{' || *p == '[') depth++;
      if (*p == '}' || *p == ']') depth--;
      p++;
    } while (depth);
    return p;
  }
  while (*p && !strchr(",]}", *p)) p++;
  return p;
}
static const char *rewrite(const char *p, sbuf *o, bool pretty) {
  const char *sep = pretty ? ",\n  " : ",", *colon = pretty ? " : " : ":";
  if (*p == '[') {
    sb_put(o, pretty ? "[ " : "[", pretty ? 2 : 1);
    p++;
    while (*p != ']') {
      p = rewrite(p, o, pretty);
      if (*p == ',') sb_put(o, sep, strlen(sep)), p++;
    }
    sb_put(o, pretty ? " ]" : "]", pretty ? 2 : 1);
    return p + 1;
  }
  if (*p != '{') {
    const char *e = skip_value(p);
    sb_put(o, p, (size_t)(e - p));
    return e;
  }
  const char *key[16], *val[16];
  int n = 0;
  p++;
  while (*p != '}') {
    key[n] = p;
    p = skip_value(p); /* the key */
    val[n++] = ++p;    /* past ':' */
    p = skip_value(p);
    if (*p == ',') p++;
  }
  sb_put(o, "{", 1);
  for (int i = n - 1; i >= 0; i--) {
    sb_put(o, key[i], (size_t)(skip_value(key[i]) - key[i]));
    sb_put(o, colon, strlen(colon));
    rewrite(val[i], o, pretty);
    if (i) sb_put(o, sep, strlen(sep));
  }
  sb_put(o, "}", 1);
  return p + 1;
}

/* ---- base64 (the test's own encoder, for Curio's wrapper) ---------------- */
static char *b64(const uint8_t *in, size_t n, int line_every) {
  static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  char *o = malloc(n / 3 * 4 + 8 + (line_every ? n / 3 * 2 : 0)), *w = o;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) |
                 (i + 2 < n ? in[i + 2] : 0);
    *w++ = A[v >> 18 & 63];
    *w++ = A[v >> 12 & 63];
    *w++ = i + 1 < n ? A[v >> 6 & 63] : '=';
    *w++ = i + 2 < n ? A[v & 63] : '=';
    if (line_every && (i / 3 + 1) % (size_t)line_every == 0) *w++ = '\\', *w++ = 'n';
  }
  *w = 0;
  return o;
}

static char *wrapper(const char *json, uint64_t num, uint64_t size, int line_every) {
  char *enc = b64((const uint8_t *)json, strlen(json), line_every);
  size_t cap = strlen(enc) + 128;
  char *w = malloc(cap);
  snprintf(w, cap, "{\"SectorNum\":%llu,\"Phase1Out\":\"%s\",\"SectorSize\":%llu}",
           (unsigned long long)num, enc, (unsigned long long)size);
  free(enc);
  return w;
}

/* ---- The tests ----------------------------------------------------------- */

/* to_json -> parse -> the same model, and the same text again. */
static void round_trip(uint32_t id, uint64_t seed) {
  const cz_registered_porep *k = cz_registered_porep_by_id(id);
  cz_porep_c1 a, b;
  CHECK(cz_porep_c1_synthetic(&a, k, seed) == CZ_OK);
  size_t n1, n2;
  char *j1 = to_json(&a, &n1), msg[MSG];
  cz_err e = cz_porep_c1_parse(&b, j1, n1, msg, sizeof msg);
  if (e != CZ_OK) fprintf(stderr, "%s: %s\n", k->name, msg);
  CHECK(e == CZ_OK);
  CHECK(same_c1(&a, &b));
  CHECK_EQ_INT(b.n_partitions, k->partitions);
  CHECK_EQ_INT(b.n_challenges, k->shape.challenges);
  /* Paths spell their challenges. */
  for (size_t i = 0; e == CZ_OK && i < (size_t)b.n_partitions * b.n_challenges; i++) {
    const cz_porep_challenge_proof *p = &b.proofs[i];
    CHECK(p->tree_d.challenge == p->challenge && p->tree_r_last.challenge == p->challenge);
    CHECK(p->drg[2].tree_c.challenge == p->drg[2].index);
    CHECK_EQ_INT(p->tree_r_last.n_levels,
                 cz_merkle_proof_levels(&k->shape.tree_r, (size_t)k->shape.nodes));
  }
  char *j2 = to_json(&b, &n2);
  CHECK(n1 == n2 && memcmp(j1, j2, n1) == 0);
  free(j1);
  free(j2);
  cz_porep_c1_free(&a);
  cz_porep_c1_free(&b);
}

/* Whole-document edits: keys reversed everywhere, pretty whitespace. */
static void reorder_and_whitespace(const char *json, const cz_porep_c1 *ref) {
  for (int pretty = 0; pretty < 2; pretty++) {
    sbuf o = {0};
    rewrite(json, &o, pretty);
    CHECK(strcmp(o.b, json) != 0);
    CHECK(strncmp(o.b, "{\"ticket\":", 10) == 0 || strncmp(o.b, "{\"ticket\" : ", 12) == 0);
    cz_porep_c1 c;
    char msg[MSG];
    cz_err e = cz_porep_c1_parse(&c, o.b, o.n, msg, sizeof msg);
    if (e != CZ_OK) fprintf(stderr, "reordered (pretty %d): %s\n", pretty, msg);
    CHECK(e == CZ_OK);
    CHECK(same_c1(&c, ref));
    cz_porep_c1_free(&c);
    free(o.b);
  }
}

static void truncations(const char *json, size_t n) {
  /* Every cut in the first and last 1500 bytes, a stride in between (every
   * cut of all 100 kB would cost n^2 / 2 parse steps). */
  size_t tried = 0, refused = 0;
  for (size_t cut = 0; cut < n; cut += (cut < 1500 || cut + 1500 > n) ? 1 : 61) {
    cz_porep_c1 c;
    char msg[MSG];
    tried++;
    cz_err e = cz_porep_c1_parse(&c, json, cut, msg, sizeof msg);
    if (e != CZ_ERR_PARSE || c.proofs != NULL || msg[0] == 0) {
      fprintf(stderr, "cut %zu: %s (proofs %s) '%s'\n", cut, cz_err_str(e),
              c.proofs ? "kept" : "NULL", msg);
      break;
    }
    refused++;
  }
  /* Every cut refused with a message, and the cuts did cover both ends. */
  CHECK_EQ_INT(refused, tried);
  CHECK(tried > 3000);
}

/* The test encoder against RFC 4648 section 10. */
static void wrapper_encoder(void) {
  static const char *const V[][2] = {{"", ""},
                                     {"f", "Zg=="},
                                     {"fo", "Zm8="},
                                     {"foo", "Zm9v"},
                                     {"foob", "Zm9vYg=="},
                                     {"fooba", "Zm9vYmE="},
                                     {"foobar", "Zm9vYmFy"}};
  for (int i = 0; i < 7; i++) {
    char *e = b64((const uint8_t *)V[i][0], strlen(V[i][0]), 0);
    CHECK(strcmp(e, V[i][1]) == 0);
    free(e);
  }
}

/* Curio's wrapper of json parses to ref and its sector number, with and
 * without line breaks in the base64, and with its fields in another order
 * and "\/" escapes as Go may write them. */
static void wrapper_parses(const char *json, const cz_porep_c1 *ref) {
  uint64_t size = ref->registered->sector_size;
  char msg[MSG];
  for (int lines = 0; lines < 2; lines++) {
    char *w = wrapper(json, 1234567, size, lines ? 19 : 0);
    cz_porep_c1 c;
    cz_err e = cz_porep_c1_parse(&c, w, strlen(w), msg, sizeof msg);
    if (e != CZ_OK) fprintf(stderr, "wrapper: %s\n", msg);
    CHECK(e == CZ_OK);
    CHECK(c.has_sector_num && c.sector_num == 1234567);
    c.has_sector_num = false;
    c.sector_num = 0;
    CHECK(same_c1(&c, ref));
    cz_porep_c1_free(&c);
    free(w);
  }
  char *enc = b64((const uint8_t *)json, strlen(json), 0);
  size_t cap = strlen(enc) * 2 + 128, k = 0;
  char *w = malloc(cap);
  k += (size_t)snprintf(w, cap, "{ \"SectorSize\" : %llu, \"Phase1Out\" : \"",
                        (unsigned long long)size);
  for (const char *p = enc; *p; p++) {
    if (*p == '/') w[k++] = '\\';
    w[k++] = *p;
  }
  snprintf(w + k, cap - k, "\", \"SectorNum\" : 9 }\n");
  cz_porep_c1 c;
  cz_err e = cz_porep_c1_parse(&c, w, strlen(w), msg, sizeof msg);
  if (e != CZ_OK) fprintf(stderr, "wrapper reordered: %s\n", msg);
  CHECK(e == CZ_OK && c.sector_num == 9);
  cz_porep_c1_free(&c);
  free(w);
  free(enc);
}

/* Cuts of the wrapper: in its keys, inside the base64 (which then is not
 * a multiple of 4, or decodes to a cut C1) and at its end. */
static void wrapper_cuts(const char *json, uint64_t size) {
  char msg[MSG];
  char *full = wrapper(json, 5, size, 0);
  size_t n = strlen(full);
  bool all = true;
  for (size_t cut = 0; cut < n; cut += (cut < 200 || cut + 100 > n) ? 1 : 4099) {
    cz_porep_c1 c;
    cz_err e = cz_porep_c1_parse(&c, full, cut, msg, sizeof msg);
    if (e != CZ_ERR_PARSE || c.proofs) {
      fprintf(stderr, "wrapper cut %zu: %s %s\n", cut, cz_err_str(e), msg);
      all = false;
      break;
    }
  }
  CHECK(all);
  free(full);
}

/* Wrong wrappers, and wrapped C1s that are wrong inside, each with its
 * error. */
static void wrapper_errors(const char *json, uint64_t size) {
  char *w = wrapper(json, 5, size * 2, 0);
  EXPECT_ERR(w, CZ_ERR_PARSE, "SectorSize 4096 does not match StackedDrg2KiBV1_1 (2048 bytes)");
  free(w);
  w = wrapper(json, 5, size, 0);
  char *bad = replace1(w, "\"Phase1Out\":\"ey", "\"Phase1Out\":\"e*");
  EXPECT_MSG(bad, CZ_ERR_PARSE, "Phase1Out: bad base64: character 1 is not base64");
  free(bad);
  bad = replace1(w, "\",\"SectorSize\"", "A\",\"SectorSize\"");
  EXPECT_ERR(bad, CZ_ERR_PARSE, "bad base64");
  free(bad);
  bad = replace1(w, "\"SectorNum\":5,", "");
  EXPECT_MSG(bad, CZ_ERR_PARSE, "missing field `SectorNum`");
  free(bad);
  bad = replace1(w, "\"SectorNum\":5,", "\"SectorNum\":5,\"Extra\":1,");
  EXPECT_MSG(bad, CZ_ERR_PARSE, "unknown field `Extra`");
  free(bad);
  free(w);
  /* The wrapped JSON's own errors carry the Phase1Out prefix. */
  char *inner = replace1(json, ",\"_h\":null", "");
  w = wrapper(inner, 5, size, 0);
  EXPECT_MSG(
      w, CZ_ERR_PARSE,
      "Phase1Out: vanilla_proofs[0][0].replica_column_proofs.c_x.column: missing field `_h`");
  free(w);
  free(inner);
  /* base64 of "{}" decodes fine; the C1 inside is then incomplete. */
  EXPECT_MSG("{\"SectorNum\":1,\"Phase1Out\":\"e30=\",\"SectorSize\":2048}", CZ_ERR_PARSE,
             "Phase1Out: missing field `registered_proof`");
  EXPECT_ERR("{\"SectorNum\":1,\"Phase1Out\":\"e30\",\"SectorSize\":2048}", CZ_ERR_PARSE,
             "not a multiple of 4");
  EXPECT_ERR("{\"SectorNum\":1,\"Phase1Out\":\"e3=0\",\"SectorSize\":2048}", CZ_ERR_PARSE,
             "bad base64");
  EXPECT_ERR("{\"SectorNum\":1,\"Phase1Out\":\"e30=e30=\",\"SectorSize\":2048}", CZ_ERR_PARSE,
             "data after padding");
}

static void curio_wrapper(const char *json, const cz_porep_c1 *ref) {
  wrapper_encoder();
  wrapper_parses(json, ref);
  wrapper_cuts(json, ref->registered->sector_size);
  wrapper_errors(json, ref->registered->sector_size);
}

/* r, little-endian: the smallest value that must be refused. */
static const char R_BYTES[] =
    "[1,0,0,0,255,255,255,255,254,91,254,255,2,164,189,83,5,216,161,9,8,216,57,51,72,125,157,41,"
    "83,167,237,115]";

/* One text edit of a good C1 and the error it must give: the first
 * `from` replaced by `to`; the message equals want (exact) or contains it. */
typedef struct {
  const char *from, *to;
  cz_err err;
  bool exact;
  const char *want;
  int line;
} c1_edit;
#define EDIT(from, to, err, exact, want) \
  { from, to, err, exact, want, __LINE__ }

static const c1_edit REFUSED[] = {
    /* registered proof against the tag; unknown proofs and variants */
    EDIT("\"StackedDrg2KiBV1_1\"", "\"StackedDrg8MiBV1_1\"", CZ_ERR_PARSE, true,
         "registered_proof StackedDrg8MiBV1_1 does not match vanilla_proofs StackedDrg2KiBV1"),
    EDIT("\"StackedDrg2KiBV1_1\"", "\"StackedDrg2KiBV1_3\"", CZ_ERR_INVALID_ARG, true,
         "registered_proof: unknown or unsupported registered proof `StackedDrg2KiBV1_3`"),
    /* a synthetic C1 has V1_1's one partition; an NI-PoRep C1 needs 13 */
    EDIT("\"StackedDrg2KiBV1_1\"", "\"StackedDrg2KiBV1_2_Feat_NonInteractivePoRep\"", CZ_ERR_PARSE,
         false, "13"),
    EDIT("{\"StackedDrg2KiBV1\":", "{\"StackedDrg4KiBV1\":", CZ_ERR_PARSE, true,
         "vanilla_proofs: unknown variant `StackedDrg4KiBV1`"),
    /* sizes and shapes */
    EDIT("\"rows\":[", "\"rows\":[[1,2],", CZ_ERR_PARSE, true,
         "vanilla_proofs[0][0].replica_column_proofs.c_x.column.rows[0]: expected 32 bytes, "
         "found 2"),
    EDIT("],\"index\":", "],\"index\":2", CZ_ERR_PARSE, false,
         "comm_d_proofs.data.Single.path.path[0].index: index 2"),
    EDIT("{\"data\":{\"Single\"", "{\"data\":{\"Sub\"", CZ_ERR_PARSE, true,
         "vanilla_proofs[0][0].comm_d_proofs.data: a Sub proof where this tree needs Single"),
    /* missing, duplicated, unknown keys; wrong types */
    EDIT(",\"_h\":null", "", CZ_ERR_PARSE, true,
         "vanilla_proofs[0][0].replica_column_proofs.c_x.column: missing field `_h`"),
    EDIT("\"_h\":null", "\"_h\":null,\"_h\":null", CZ_ERR_PARSE, true,
         "vanilla_proofs[0][0].replica_column_proofs.c_x.column: duplicate field `_h`"),
    EDIT("\"_h\":null", "\"_h\":0", CZ_ERR_PARSE, false, "column._h: expected null"),
    EDIT(",\"ticket\":[", ",\"seed\":[", CZ_ERR_PARSE, true, "duplicate field `seed`"),
    EDIT("{\"registered_proof\"", "{\"extra\":1,\"registered_proof\"", CZ_ERR_PARSE, true,
         "unknown field `extra`"),
    EDIT("\"layer_index\":1,", "\"layer_index\":1.0,", CZ_ERR_PARSE, false,
         "labeling_proofs[0].layer_index: expected an integer, found a float"),
    EDIT("\"layer_index\":1,", "\"layer_index\":\"1\",", CZ_ERR_PARSE, false,
         "labeling_proofs[0].layer_index: expected an integer"),
    EDIT("\"seed\":[", "\"seed\":[256,", CZ_ERR_PARSE, true,
         "seed[0]: byte value out of range 0..255"),
    EDIT("\"seed\":[", "\"seed\":[-1,", CZ_ERR_PARSE, false, "seed[0]: expected an integer 0..255"),
    EDIT("\"seed\":[", "\"seed\":[07,", CZ_ERR_PARSE, false, "leading zeros"),
    EDIT("\"seed\":[", "\"seed\":[1,", CZ_ERR_PARSE, true, "seed: expected 32 bytes, found more"),
    /* a key spelled with a bad escape */
    EDIT("\"ticket\"", "\"tick\\x65t\"", CZ_ERR_PARSE, false, "expected a valid escape"),
};

/* Edits that must parse: to the kind with this id, or (-1) to the same C1. */
static const struct {
  const char *from, *to;
  int registered_id;
} ACCEPTED[] = {
    {"\"StackedDrg2KiBV1_1\"", "\"StackedDrg2KiBV1\"", 0}, /* V1 shares the tag */
    {"\"StackedDrg2KiBV1_1\"", "\"StackedDrg2KiBV1_1_Feat_SyntheticPoRep\"",
     10},                                   /* one partition */
    {"\"ticket\"", "\"tick\\u0065t\"", -1}, /* an escaped key is the same key, as in serde_json */
};

static void edits(const char *json, const cz_porep_c1 *c1) {
  for (size_t i = 0; i < sizeof REFUSED / sizeof REFUSED[0]; i++) {
    const c1_edit *x = &REFUSED[i];
    char *t = replace1(json, x->from, x->to);
    expect_err(t, strlen(t), x->err, x->want, x->exact, x->line);
    free(t);
  }
  for (size_t i = 0; i < sizeof ACCEPTED / sizeof ACCEPTED[0]; i++) {
    char *t = replace1(json, ACCEPTED[i].from, ACCEPTED[i].to);
    cz_porep_c1 got;
    char msg[MSG];
    CHECK(cz_porep_c1_parse(&got, t, strlen(t), msg, sizeof msg) == CZ_OK);
    if (ACCEPTED[i].registered_id >= 0)
      CHECK(got.registered == cz_registered_porep_by_id(ACCEPTED[i].registered_id));
    else CHECK(same_c1(&got, c1));
    cz_porep_c1_free(&got);
    free(t);
  }
}

/* A value >= r deep inside (the message names the exact field); comm_r >=
 * r; zero commitments and seed. */
static void bad_values(const cz_registered_porep *k) {
  cz_porep_c1 m;
  CHECK(cz_porep_c1_synthetic(&m, k, 99) == CZ_OK);
  uint8_t marker[32];
  for (int i = 0; i < 32; i++) marker[i] = (uint8_t)(i == 31 ? 0x11 : 0xaa);
  CHECK(cz_fr_from_bytes_le(&m.proofs[1].drg[3].rows[1], marker) == CZ_OK);
  char *mj = to_json(&m, NULL);
  char mtext[200];
  size_t n = 0;
  mtext[n++] = '[';
  for (int i = 0; i < 32; i++) n += (size_t)sprintf(mtext + n, i < 31 ? "%u," : "%u]", marker[i]);
  char *t = replace1(mj, mtext, R_BYTES);
  EXPECT_MSG(
      t, CZ_ERR_NONCANONICAL,
      "vanilla_proofs[0][1].replica_column_proofs.drg_parents[3].column.rows[1]: value >= r");
  free(t);
  free(mj);
  cz_porep_c1_free(&m);

  CHECK(cz_porep_c1_synthetic(&m, k, 99) == CZ_OK);
  static const char *const want[] = {"comm_d: all zero", "comm_r: all zero", "seed: all zero",
                                     "comm_r: value >= r"};
  for (int f = 0; f < 4; f++) {
    uint8_t *b = f == 0 ? m.comm_d : f == 1 ? m.comm_r : m.seed;
    uint8_t save[32];
    memcpy(save, b, 32);
    memset(b, 0, 32);
    if (f == 3)
      memcpy(m.comm_r,
             "\x01\0\0\0\xff\xff\xff\xff\xfe\x5b\xfe\xff\x02\xa4\xbd\x53"
             "\x05\xd8\xa1\x09\x08\xd8\x39\x33\x48\x7d\x9d\x29\x53\xa7\xed\x73",
             32);
    mj = to_json(&m, NULL);
    EXPECT_MSG(mj, f == 3 ? CZ_ERR_NONCANONICAL : CZ_ERR_INVALID_ARG, want[f]);
    free(mj);
    memcpy(b, save, 32);
  }
  cz_porep_c1_free(&m);
}

/* Counts: challenges, partitions, path lengths, arities, layers, nodes. */
static void bad_counts(const cz_registered_porep *k) {
  cz_porep_c1 m;
  CHECK(cz_porep_c1_synthetic(&m, k, 99) == CZ_OK);
  char *mj;
#define EXPECT_MODEL(want) (mj = to_json(&m, NULL), EXPECT_MSG(mj, CZ_ERR_PARSE, want), free(mj))
  m.n_challenges = 1;
  EXPECT_MODEL("vanilla_proofs[0]: expected 2 challenges per partition, found 1");
  m.n_challenges = 2;
  m.n_partitions = 0;
  EXPECT_MODEL("vanilla_proofs: expected 1 partitions, found 0");
  m.n_partitions = 1;
  m.proofs[0].drg[0].tree_c.n_levels = 1;
  EXPECT_MODEL(
      "vanilla_proofs[0][0].replica_column_proofs.drg_parents[0].inclusion_proof.data."
      "Single.path.path: expected 2 path elements, found 1");
  m.proofs[0].drg[0].tree_c.n_levels = 2;
  m.proofs[0].tree_d.arity[0] = 3; /* three hashes where binary has one */
  EXPECT_MODEL(
      "vanilla_proofs[0][0].comm_d_proofs.data.Single.path.path[0].hashes: expected 1 "
      "hashes, found more");
  m.proofs[0].tree_d.arity[0] = 2;
  m.proofs[0].labeling[1].layer = 7;
  EXPECT_MODEL(
      "vanilla_proofs[0][0].labeling_proofs[1].layer_index: layer 7 where layer 2 belongs");
  m.proofs[0].labeling[1].layer = 2;
  m.proofs[0].exp[7].index = 64;
  EXPECT_MODEL(
      "vanilla_proofs[0][0].replica_column_proofs.exp_parents[7].column.index: node 64 >= "
      "64 nodes");
#undef EXPECT_MODEL
  cz_porep_c1_free(&m);
}

/* The document's ends: a cut before `ticket`, trailing text, empty ones. */
static void bad_ends(const char *json) {
  size_t cut = (size_t)(strstr(json, ",\"ticket\":") - json), n = strlen(json);
  char *m = malloc(n + 3);
  memcpy(m, json, cut);
  strcpy(m + cut, "}");
  EXPECT_MSG(m, CZ_ERR_PARSE, "missing field `ticket`");
  memcpy(m, json, n);
  memcpy(m + n, " x", 3);
  EXPECT_ERR(m, CZ_ERR_PARSE, "trailing characters");
  memcpy(m + n, " \n", 3);
  cz_porep_c1 c;
  CHECK(cz_porep_c1_parse(&c, m, n + 2, NULL, 0) == CZ_OK); /* trailing whitespace is fine */
  cz_porep_c1_free(&c);
  free(m);
  EXPECT_MSG("", CZ_ERR_PARSE, "unexpected end of input (expected '{')");
  EXPECT_MSG("[]", CZ_ERR_PARSE, "expected '{' at byte 0");
  EXPECT_MSG("{}", CZ_ERR_PARSE, "missing field `registered_proof`");
}

static void tampered(const cz_registered_porep *k) {
  cz_porep_c1 c1;
  CHECK(cz_porep_c1_synthetic(&c1, k, 99) == CZ_OK);
  char *json = to_json(&c1, NULL);
  bad_values(k);
  edits(json, &c1);
  bad_counts(k);
  bad_ends(json);
  reorder_and_whitespace(json, &c1);
  truncations(json, strlen(json));
  curio_wrapper(json, &c1);
  free(json);
  cz_porep_c1_free(&c1);
}

/* A 32 GiB partition count check: 9 partitions where 10 belong. */
static void big_counts(void) {
  const cz_registered_porep *k = cz_registered_porep_by_id(8);
  cz_porep_c1 m;
  CHECK(cz_porep_c1_synthetic(&m, k, 5) == CZ_OK);
  m.n_partitions = 9;
  char *mj = to_json(&m, NULL);
  EXPECT_MSG(mj, CZ_ERR_PARSE, "vanilla_proofs: expected 10 partitions, found 9");
  free(mj);
  cz_porep_c1_free(&m);
}

/* A sector sealed by porep_seal.c goes through JSON unchanged, and its
 * vanilla proofs still verify after the trip; an edited sibling hash
 * still parses (the parser checks structure, not proofs) but no longer
 * verifies. */
static void sealed(uint32_t id) {
  cz_porep_seal_input in = {.registered = cz_registered_porep_by_id(id), .sector_id = 7};
  memset(in.ticket, 3, 32);
  memset(in.seed, 4, 32);
  cz_porep_c1 a, b;
  char msg[MSG];
  cz_err e = cz_porep_seal(&in, &a, 0, msg, sizeof msg);
  CHECK(e == CZ_OK);
  if (e != CZ_OK) return;
  size_t n;
  char *j = to_json(&a, &n);
  CHECK(cz_porep_c1_parse(&b, j, n, msg, sizeof msg) == CZ_OK);
  CHECK(same_c1(&a, &b));
  e = cz_porep_vanilla_verify(&b, msg, sizeof msg);
  if (e != CZ_OK) fprintf(stderr, "sealed %u: %s\n", id, msg);
  CHECK(e == CZ_OK);
  cz_porep_c1_free(&b);
  /* The first sibling of the first tree-D path: change its least
   * significant byte (the value stays below 2^254, so canonical). */
  char *at = strstr(j, "{\"hashes\":[[");
  CHECK(at != NULL);
  if (at) {
    at += strlen("{\"hashes\":[[");
    char *t = malloc(n + 4);
    size_t pre = (size_t)(at - j), digits = strspn(at, "0123456789");
    memcpy(t, j, pre);
    int w = sprintf(t + pre, "%d", atoi(at) == 7 ? 8 : 7);
    memcpy(t + pre + (size_t)w, at + digits, n - pre - digits + 1);
    CHECK(cz_porep_c1_parse(&b, t, strlen(t), msg, sizeof msg) == CZ_OK);
    CHECK(cz_porep_vanilla_verify(&b, msg, sizeof msg) == CZ_ERR_PROOF_INVALID);
    cz_porep_c1_free(&b);
    free(t);
  }
  free(j);
  cz_porep_c1_free(&a);
}

int main(void) {
  sealed(5);        /* 2 KiB V1_1 */
  sealed(0);        /* 2 KiB V1 */
  round_trip(5, 1); /* 2 KiB V1_1 */
  round_trip(0, 2); /* 2 KiB V1 */
  round_trip(1, 3); /* 8 MiB V1 */
  round_trip(8, 4); /* 32 GiB: Sub proofs, 10 x 18 challenges, 11 layers */
  round_trip(9, 5); /* 64 GiB: Top proofs */
  tampered(cz_registered_porep_by_id(5));
  big_counts();
  cz_porep_c1 c;
  char msg[MSG];
  CHECK(cz_porep_c1_load(&c, "/nonexistent/c1.json", msg, sizeof msg) == CZ_ERR_IO);
  CHECK(strstr(msg, "/nonexistent/c1.json") != NULL);
  CHECK(cz_porep_c1_load(&c, "tests", msg, sizeof msg) == CZ_ERR_IO); /* a directory */
  CHECK(c.proofs == NULL);
  /* A file round trip through cz_porep_c1_load. */
  {
    cz_porep_c1 a;
    CHECK(cz_porep_c1_synthetic(&a, cz_registered_porep_by_id(5), 77) == CZ_OK);
    size_t n;
    char *j = to_json(&a, &n), path[] = "/tmp/cuzk-test-c1-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    CHECK(f && fwrite(j, 1, n, f) == n);
    if (f) fclose(f);
    CHECK(cz_porep_c1_load(&c, path, msg, sizeof msg) == CZ_OK);
    CHECK(same_c1(&a, &c));
    cz_porep_c1_free(&c);
    unlink(path);
    free(j);
    cz_porep_c1_free(&a);
  }
  /* A key holding a newline still gives a one-line message. */
  EXPECT_MSG("{\"a\\nb\":1}", CZ_ERR_PARSE, "unknown field `a?b`");
  return check_report("porep_c1_json");
}
