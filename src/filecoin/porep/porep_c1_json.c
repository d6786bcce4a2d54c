/* C1 JSON: filecoin-proofs' serde JSON of SealCommitPhase1Output and
 * Curio's base64 wrapper (see cuzk/porep.h).
 *
 * The serde shapes (rust-fil-proofs, rust-filecoin-proofs-api):
 *   SealCommitPhase1Output {registered_proof: "StackedDrg2KiBV1_1",
 *     vanilla_proofs: {"StackedDrg2KiBV1": [[Proof; challenges]; partitions]},
 *     comm_r, comm_d, replica_id, seed, ticket}        (api src/seal.rs)
 *   Proof {comm_d_proofs, comm_r_last_proof, replica_column_proofs,
 *     labeling_proofs, encoding_proof}      (porep stacked/vanilla/params.rs)
 *   ReplicaColumnProof {c_x, drg_parents, exp_parents}; ColumnProof {column,
 *     inclusion_proof}; Column {index, rows, _h: null} (its PhantomData is
 *     not skipped, so serde writes and requires "_h": null);
 *   LabelingProof / EncodingProof {parents, layer_index, node}
 *   MerkleProof {data: {"Single": {root, leaf, path}} | {"Sub": {base_proof,
 *     sub_proof, root, leaf}} | {"Top": {base_proof, sub_proof, top_proof,
 *     root, leaf}}}; InclusionPath {path: [PathElement {hashes, index}]}
 *                                          (core src/merkle/proof.rs)
 * Every domain value and [u8; 32] is an array of 32 numbers 0..255 (the
 * little-endian Fr bytes). serde_json accepts the fields of a struct in
 * any order and rejects duplicates and missing ones; unlike serde, unknown
 * fields are rejected here too (the header's contract).
 *
 * A 32 GiB C1 is ~50 MB of such arrays, so this is a single pass over the
 * buffer straight into the model: no DOM, no copies. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/porep.h"

#ifndef MAP_POPULATE
#define MAP_POPULATE 0 /* read-ahead is only a hint */
#endif

/* ---- Parser state and errors --------------------------------------------- */

/* One step of the path printed in error messages: ".key" or "[idx]". */
typedef struct {
  const char *key;
  uint64_t idx;
} jp_frame;

#define JP_MAX_DEPTH 24

typedef struct {
  const char *start, *p, *end;
  cz_err err;
  char *msg;
  size_t msg_len;
  const char *prefix; /* "Phase1Out: " inside Curio's wrapper */
  jp_frame stack[JP_MAX_DEPTH];
  int depth;
} jp;

static void push_key(jp *j, const char *k) {
  if (j->depth < JP_MAX_DEPTH) j->stack[j->depth] = (jp_frame){k, 0};
  j->depth++;
}
static void push_idx(jp *j, uint64_t i) {
  if (j->depth < JP_MAX_DEPTH) j->stack[j->depth] = (jp_frame){NULL, i};
  j->depth++;
}
static void set_idx(jp *j, uint64_t i) {
  if (j->depth - 1 < JP_MAX_DEPTH) j->stack[j->depth - 1].idx = i;
}
static void pop(jp *j) { j->depth--; }

/* Record the first error as "<prefix><path>: <what>"; returns false. */
static bool fail(jp *j, cz_err e, const char *fmt, ...) {
  if (j->err != CZ_OK) return false;
  j->err = e;
  if (!j->msg || j->msg_len == 0) return false;
  size_t n = 0, cap = j->msg_len;
#define APPEND(...)                                                  \
  do {                                                               \
    int w_ = snprintf(j->msg + n, cap - n, __VA_ARGS__);             \
    if (w_ > 0) n = (size_t)w_ < cap - n ? n + (size_t)w_ : cap - 1; \
  } while (0)
  APPEND("%s", j->prefix ? j->prefix : "");
  int depth = j->depth < JP_MAX_DEPTH ? j->depth : JP_MAX_DEPTH;
  for (int i = 0; i < depth; i++) {
    if (j->stack[i].key) APPEND("%s%s", i ? "." : "", j->stack[i].key);
    else APPEND("[%llu]", (unsigned long long)j->stack[i].idx);
  }
  if (depth) APPEND(": ");
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(j->msg + n, cap - n, fmt, ap);
  va_end(ap);
#undef APPEND
  /* One line, whatever a decoded key held. */
  for (char *c = j->msg; *c; c++)
    if ((unsigned char)*c < 0x20) *c = '?';
  return false;
}

static size_t offset(const jp *j) { return (size_t)(j->p - j->start); }

/* A syntax error at the current position. */
static bool syntax(jp *j, const char *expected) {
  if (j->p >= j->end) return fail(j, CZ_ERR_PARSE, "unexpected end of input (expected %s)", expected);
  return fail(j, CZ_ERR_PARSE, "expected %s at byte %zu", expected, offset(j));
}

/* ---- Tokens ----------------------------------------------------------------- */

static inline void ws(jp *j) {
  while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t'))
    j->p++;
}

static inline bool eat(jp *j, char c) {
  ws(j);
  if (j->p < j->end && *j->p == c) {
    j->p++;
    return true;
  }
  return false;
}

static inline bool expect(jp *j, char c, const char *what) { return eat(j, c) || syntax(j, what); }

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static bool hex4(const char *s, unsigned *v) {
  *v = 0;
  for (int i = 0; i < 4; i++) {
    int h = hexval(s[i]);
    if (h < 0) return false;
    *v = *v << 4 | (unsigned)h;
  }
  return true;
}

/* A JSON string: on success [*s, *s + *n) is its raw body (escapes not
 * decoded) and *esc says whether it holds any. Escapes and control
 * characters are checked as JSON requires. */
static bool scan_string(jp *j, const char **s, size_t *n, bool *esc) {
  ws(j);
  if (j->p >= j->end || *j->p != '"') return syntax(j, "a string");
  const char *q = ++j->p;
  *esc = false;
  for (;;) {
    const char *m = memchr(q, '"', (size_t)(j->end - q));
    if (!m) {
      j->p = j->end;
      return syntax(j, "'\"'");
    }
    /* A quote preceded by an odd run of backslashes is escaped. */
    const char *b = m;
    while (b > q && b[-1] == '\\') b--;
    if ((m - b) % 2 == 0) {
      for (const char *c = j->p; c < m; c++) {
        unsigned char ch = (unsigned char)*c;
        if (ch < 0x20) {
          j->p = c;
          return syntax(j, "no control character in a string");
        }
        if (ch == '\\') {
          *esc = true;
          c++;
          unsigned v;
          if (*c == 'u') {
            if (m - c < 5 || !hex4(c + 1, &v)) {
              j->p = c;
              return syntax(j, "a \\u escape with 4 hex digits");
            }
            c += 4;
          } else if (!strchr("\"\\/bfnrt", *c) || *c == 0) {
            j->p = c;
            return syntax(j, "a valid escape");
          }
        }
      }
      *s = j->p;
      *n = (size_t)(m - j->p);
      j->p = m + 1;
      return true;
    }
    q = m + 1;
  }
}

static void put_utf8(char *out, size_t cap, size_t *k, unsigned cp) {
  char t[4];
  size_t n;
  if (cp < 0x80) t[0] = (char)cp, n = 1;
  else if (cp < 0x800) t[0] = (char)(0xc0 | cp >> 6), t[1] = (char)(0x80 | (cp & 63)), n = 2;
  else if (cp < 0x10000)
    t[0] = (char)(0xe0 | cp >> 12), t[1] = (char)(0x80 | (cp >> 6 & 63)),
    t[2] = (char)(0x80 | (cp & 63)), n = 3;
  else
    t[0] = (char)(0xf0 | cp >> 18), t[1] = (char)(0x80 | (cp >> 12 & 63)),
    t[2] = (char)(0x80 | (cp >> 6 & 63)), t[3] = (char)(0x80 | (cp & 63)), n = 4;
  for (size_t i = 0; i < n; i++, (*k)++)
    if (*k < cap) out[*k] = t[i];
}

/* Decode a scanned string body into out (NUL-terminated, at most cap - 1
 * bytes kept); false for a lone surrogate, as serde_json refuses it. */
static bool decode_string(const char *s, size_t n, char *out, size_t cap, size_t *len) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '\\') {
      if (k < cap) out[k] = s[i];
      k++;
      continue;
    }
    char e = s[++i];
    unsigned cp;
    switch (e) {
      case 'b': cp = '\b'; break;
      case 'f': cp = '\f'; break;
      case 'n': cp = '\n'; break;
      case 'r': cp = '\r'; break;
      case 't': cp = '\t'; break;
      case 'u':
        hex4(s + i + 1, &cp);
        i += 4;
        if (cp >= 0xdc00 && cp < 0xe000) return false;
        if (cp >= 0xd800 && cp < 0xdc00) {
          unsigned lo;
          if (i + 6 >= n || s[i + 1] != '\\' || s[i + 2] != 'u' || !hex4(s + i + 3, &lo) ||
              lo < 0xdc00 || lo >= 0xe000)
            return false;
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          i += 6;
        }
        break;
      default: cp = (unsigned char)e; break;
    }
    put_utf8(out, cap, &k, cp);
  }
  *len = k;
  out[k < cap ? k : cap - 1] = 0;
  return true;
}

/* A short string (key, variant, proof name) decoded into out[cap]; longer
 * ones are cut (they never match a known name: *len says how long). */
static bool short_string(jp *j, char *out, size_t cap, size_t *len) {
  const char *s;
  size_t n;
  bool esc;
  if (!scan_string(j, &s, &n, &esc)) return false;
  if (!esc) {
    size_t k = n < cap - 1 ? n : cap - 1;
    memcpy(out, s, k);
    out[k] = 0;
    *len = n;
    return true;
  }
  if (!decode_string(s, n, out, cap, len)) return syntax(j, "no lone UTF-16 surrogate");
  return true;
}

/* After a number: a fraction or exponent makes it a float, which serde
 * refuses for an integer field. */
static bool integer_end(jp *j) {
  if (j->p < j->end && (*j->p == '.' || *j->p == 'e' || *j->p == 'E'))
    return fail(j, CZ_ERR_PARSE, "expected an integer, found a float at byte %zu", offset(j));
  return true;
}

/* A non-negative JSON integer <= max. */
static bool parse_uint(jp *j, uint64_t max, uint64_t *out) {
  ws(j);
  if (j->p < j->end && *j->p == '-')
    return fail(j, CZ_ERR_PARSE, "expected a non-negative integer at byte %zu", offset(j));
  if (j->p >= j->end || (unsigned)(*j->p - '0') > 9) return syntax(j, "an integer");
  uint64_t v = 0;
  const char *d = j->p;
  while (j->p < j->end && (unsigned)(*j->p - '0') <= 9) {
    unsigned c = (unsigned)(*j->p - '0');
    if (v > (UINT64_MAX - c) / 10) return fail(j, CZ_ERR_PARSE, "integer out of range");
    v = v * 10 + c;
    j->p++;
  }
  if (*d == '0' && j->p - d > 1) {
    j->p = d;
    return syntax(j, "a number without leading zeros");
  }
  if (!integer_end(j)) return false;
  if (v > max) return fail(j, CZ_ERR_PARSE, "integer %llu out of range (max %llu)",
                           (unsigned long long)v, (unsigned long long)max);
  *out = v;
  return true;
}

static bool parse_null(jp *j) {
  ws(j);
  if (j->end - j->p >= 4 && memcmp(j->p, "null", 4) == 0) {
    j->p += 4;
    return true;
  }
  return syntax(j, "null");
}

/* A byte-array error names the byte: path[k]. */
static bool byte_fail(jp *j, unsigned k, const char *what) {
  push_idx(j, k);
  syntax(j, what);
  pop(j);
  return false;
}

/* [u8; 32]: an array of exactly 32 integers 0..255. The hot path of the
 * whole parser (a 32 GiB C1 holds ~330k of them). */
static bool parse_bytes32(jp *j, uint8_t out[32]) {
  if (!expect(j, '[', "'[' (an array of 32 bytes)")) return false;
  for (unsigned k = 0; k < 32; k++) {
    ws(j);
    const char *p = j->p, *end = j->end;
    unsigned c, v;
    if (p >= end || (c = (unsigned)(*p - '0')) > 9) {
      if (p < end && *p == ']')
        return fail(j, CZ_ERR_PARSE, "expected 32 bytes, found %u", k);
      return byte_fail(j, k, "an integer 0..255");
    }
    v = c;
    p++;
    if (p < end && (c = (unsigned)(*p - '0')) <= 9) {
      if (v == 0) return byte_fail(j, k, "a number without leading zeros");
      v = v * 10 + c;
      p++;
      if (p < end && (c = (unsigned)(*p - '0')) <= 9) {
        v = v * 10 + c;
        p++;
        if (p < end && (unsigned)(*p - '0') <= 9) v = 256;
      }
    }
    j->p = p;
    if (v > 255) {
      push_idx(j, k);
      fail(j, CZ_ERR_PARSE, "byte value out of range 0..255");
      pop(j);
      return false;
    }
    if (p < end && (*p == '.' || *p == 'e' || *p == 'E')) {
      push_idx(j, k);
      integer_end(j);
      pop(j);
      return false;
    }
    out[k] = (uint8_t)v;
    if (p < end && *p == (k < 31 ? ',' : ']')) {
      j->p++;
      continue;
    }
    ws(j);
    if (j->p < end && *j->p == (k < 31 ? ',' : ']')) {
      j->p++;
      continue;
    }
    if (k < 31 && j->p < end && *j->p == ']')
      return fail(j, CZ_ERR_PARSE, "expected 32 bytes, found %u", k + 1);
    if (k == 31 && j->p < end && *j->p == ',')
      return fail(j, CZ_ERR_PARSE, "expected 32 bytes, found more");
    return syntax(j, k < 31 ? "',' or ']'" : "']'");
  }
  return true;
}

/* A Domain (PoseidonDomain / Sha256Domain): 32 bytes, an Fr below r. */
static bool parse_fr(jp *j, cz_fr *out) {
  uint8_t b[32];
  if (!parse_bytes32(j, b)) return false;
  if (cz_fr_from_bytes_le(out, b) != CZ_OK) return fail(j, CZ_ERR_NONCANONICAL, "value >= r");
  return true;
}

/* ---- Objects and arrays ------------------------------------------------------ */

/* Iterates the fields of a struct: each known name at most once, in any
 * order; the current field is on the path while its value is parsed. */
typedef struct {
  const char *const *names;
  unsigned n, seen;
  bool first, pushed;
} obj_it;

static bool obj_begin(jp *j, obj_it *it, const char *const *names, unsigned n) {
  *it = (obj_it){names, n, 0, true, false};
  return expect(j, '{', "'{'");
}

/* The next field's index (>= 0), -1 at the end of a complete object, -2
 * on error (recorded). */
static int obj_field(jp *j, obj_it *it) {
  if (it->pushed) pop(j), it->pushed = false;
  if (j->err != CZ_OK) return -2;
  if (!it->first) {
    if (eat(j, '}')) goto done;
    if (!expect(j, ',', "',' or '}'")) return -2;
  } else if (eat(j, '}')) {
    goto done;
  }
  it->first = false;
  char key[48];
  size_t len;
  if (!short_string(j, key, sizeof key, &len)) return -2;
  unsigned k = 0;
  while (k < it->n && !(strlen(it->names[k]) == len && memcmp(it->names[k], key, len) == 0)) k++;
  if (k == it->n) {
    fail(j, CZ_ERR_PARSE, "unknown field `%s%s`", key, len >= sizeof key ? "..." : "");
    return -2;
  }
  if (it->seen & 1u << k) {
    fail(j, CZ_ERR_PARSE, "duplicate field `%s`", key);
    return -2;
  }
  it->seen |= 1u << k;
  if (!expect(j, ':', "':'")) return -2;
  push_key(j, it->names[k]);
  it->pushed = true;
  return (int)k;
done:
  for (unsigned i = 0; i < it->n; i++)
    if (!(it->seen & 1u << i)) {
      fail(j, CZ_ERR_PARSE, "missing field `%s`", it->names[i]);
      return -2;
    }
  return -1;
}

/* Arrays of a fixed length n: call arr_next before each element (it puts
 * [i] on the path) and once more after the last, which checks the end. */
typedef struct {
  uint64_t i, n;
  const char *what;
} arr_it;

static bool arr_begin(jp *j, arr_it *it, uint64_t n, const char *what) {
  *it = (arr_it){0, n, what};
  if (!expect(j, '[', "'[' (an array)")) return false;
  push_idx(j, 0);
  return true;
}

/* True when element it->i follows; false at the end (j->err says whether
 * that is an error). */
static bool arr_next(jp *j, arr_it *it) {
  if (j->err != CZ_OK) return false;
  bool close = eat(j, ']');
  if (!close && it->i > 0 && !expect(j, ',', "',' or ']'")) return false;
  if (close) {
    pop(j);
    if (it->i != it->n)
      return fail(j, CZ_ERR_PARSE, "expected %llu %s, found %llu", (unsigned long long)it->n,
                  it->what, (unsigned long long)it->i);
    return false;
  }
  if (it->i == it->n) {
    pop(j);
    return fail(j, CZ_ERR_PARSE, "expected %llu %s, found more", (unsigned long long)it->n,
                it->what);
  }
  set_idx(j, it->i);
  it->i++;
  return true;
}

/* ---- The proof structures ------------------------------------------------------ */

/* What a Merkle proof of one tree must look like. */
typedef struct {
  cz_merkle_shape shape;
  size_t base_levels; /* levels of the base path */
} tree_spec;

static void tree_spec_init(tree_spec *t, const cz_merkle_shape *s, uint64_t nodes) {
  t->shape = *s;
  t->base_levels =
      cz_merkle_proof_levels(s, (size_t)nodes) - (s->sub_arity != 0) - (s->top_arity != 0);
}

/* InclusionPath {path: [PathElement {hashes: [arity - 1], index < arity}]}
 * into levels first .. first + n of p. */
static bool parse_inclusion_path(jp *j, cz_merkle_proof *p, size_t first, size_t n,
                                 unsigned arity) {
  static const char *const F[] = {"path"};
  static const char *const E[] = {"hashes", "index"};
  obj_it o;
  int f;
  if (!obj_begin(j, &o, F, 1)) return false;
  while ((f = obj_field(j, &o)) >= 0) {
    arr_it a;
    if (!arr_begin(j, &a, n, "path elements")) return false;
    while (arr_next(j, &a)) {
      size_t l = first + (size_t)a.i - 1;
      p->arity[l] = arity;
      obj_it e;
      int g;
      if (!obj_begin(j, &e, E, 2)) return false;
      while ((g = obj_field(j, &e)) >= 0) {
        if (g == 0) {
          arr_it h;
          if (!arr_begin(j, &h, arity - 1, "hashes")) return false;
          while (arr_next(j, &h)) parse_fr(j, &p->siblings[l][h.i - 1]);
        } else {
          uint64_t v = 0;
          if (parse_uint(j, UINT64_MAX, &v) && v >= arity)
            fail(j, CZ_ERR_PARSE, "index %llu >= arity %u", (unsigned long long)v, arity);
          p->index[l] = (unsigned)v;
        }
      }
      if (g == -2) return false;
    }
    if (j->err) return false;
  }
  return f == -1;
}

/* MerkleProof {data: ProofData}: the variant the tree's shape calls for. */
static bool parse_merkle(jp *j, const tree_spec *t, cz_merkle_proof *p) {
  static const char *const F[] = {"data"};
  static const char *const VARIANTS[] = {"Single", "Sub", "Top"};
  static const char *const SINGLE[] = {"root", "leaf", "path"};
  static const char *const SUB[] = {"base_proof", "sub_proof", "root", "leaf"};
  static const char *const TOP[] = {"base_proof", "sub_proof", "top_proof", "root", "leaf"};
  const cz_merkle_shape *s = &t->shape;
  unsigned want = s->top_arity ? 2 : s->sub_arity ? 1 : 0;
  obj_it o;
  int f;
  if (!obj_begin(j, &o, F, 1)) return false;
  while ((f = obj_field(j, &o)) >= 0) {
    /* Externally tagged enum: an object of exactly one key. */
    if (!expect(j, '{', "'{' (a Single, Sub or Top proof)")) return false;
    char v[16];
    size_t vlen;
    if (!short_string(j, v, sizeof v, &vlen)) return false;
    unsigned k = 0;
    while (k < 3 && !(strlen(VARIANTS[k]) == vlen && memcmp(VARIANTS[k], v, vlen) == 0)) k++;
    if (k == 3) return fail(j, CZ_ERR_PARSE, "unknown variant `%s`", v);
    if (k != want)
      return fail(j, CZ_ERR_PARSE, "a %s proof where this tree needs %s", VARIANTS[k],
                  VARIANTS[want]);
    if (!expect(j, ':', "':'")) return false;
    push_key(j, VARIANTS[k]);
    const char *const *names = k == 0 ? SINGLE : k == 1 ? SUB : TOP;
    unsigned nf = k == 0 ? 3 : k == 1 ? 4 : 5;
    obj_it d;
    int g;
    if (!obj_begin(j, &d, names, nf)) return false;
    while ((g = obj_field(j, &d)) >= 0) {
      const char *name = names[g];
      if (strcmp(name, "root") == 0) parse_fr(j, &p->root);
      else if (strcmp(name, "leaf") == 0) parse_fr(j, &p->leaf);
      else if (strcmp(name, "path") == 0 || strcmp(name, "base_proof") == 0)
        parse_inclusion_path(j, p, 0, t->base_levels, s->base_arity);
      else if (strcmp(name, "sub_proof") == 0)
        parse_inclusion_path(j, p, t->base_levels, 1, s->sub_arity);
      else
        parse_inclusion_path(j, p, t->base_levels + 1, 1, s->top_arity);
    }
    if (g == -2) return false;
    pop(j);
    if (!expect(j, '}', "'}' (one variant only)")) return false;
  }
  if (f == -2) return false;
  p->shape = *s;
  p->n_levels = t->base_levels + want;
  size_t c = 0, m = 1;
  for (size_t l = 0; l < p->n_levels; l++) {
    c += p->index[l] * m;
    m *= p->arity[l];
  }
  p->challenge = c;
  return true;
}

typedef struct {
  const cz_porep_kind *kind;
  tree_spec tree_d, tree_r;
} c1_spec;

/* ColumnProof {column: Column {index, rows, _h}, inclusion_proof}. */
static bool parse_column(jp *j, const c1_spec *cs, cz_porep_column *c) {
  static const char *const F[] = {"column", "inclusion_proof"};
  static const char *const COL[] = {"index", "rows", "_h"};
  obj_it o;
  int f;
  if (!obj_begin(j, &o, F, 2)) return false;
  while ((f = obj_field(j, &o)) >= 0) {
    if (f == 1) {
      parse_merkle(j, &cs->tree_r, &c->tree_c);
      continue;
    }
    obj_it q;
    int g;
    if (!obj_begin(j, &q, COL, 3)) return false;
    while ((g = obj_field(j, &q)) >= 0) {
      if (g == 0) {
        uint64_t v = 0;
        if (parse_uint(j, UINT32_MAX, &v) && v >= cs->kind->shape.nodes)
          fail(j, CZ_ERR_PARSE, "node %llu >= %llu nodes", (unsigned long long)v,
               (unsigned long long)cs->kind->shape.nodes);
        c->index = (uint32_t)v;
      } else if (g == 1) {
        arr_it a;
        if (!arr_begin(j, &a, cs->kind->shape.layers, "rows (one per layer)")) return false;
        while (arr_next(j, &a)) parse_fr(j, &c->rows[a.i - 1]);
      } else {
        parse_null(j);
      }
    }
    if (g == -2) return false;
  }
  return f == -1;
}

/* LabelingProof / EncodingProof {parents: [37], layer_index, node}. */
static bool parse_labeling(jp *j, const c1_spec *cs, cz_porep_labeling *lp, uint32_t layer) {
  static const char *const F[] = {"parents", "layer_index", "node"};
  obj_it o;
  int f;
  if (!obj_begin(j, &o, F, 3)) return false;
  while ((f = obj_field(j, &o)) >= 0) {
    uint64_t v = 0;
    if (f == 0) {
      arr_it a;
      if (!arr_begin(j, &a, CZ_POREP_LABEL_PARENTS, "parents")) return false;
      while (arr_next(j, &a)) parse_fr(j, &lp->parents[a.i - 1]);
    } else if (f == 1) {
      if (parse_uint(j, UINT32_MAX, &v) && v != layer)
        fail(j, CZ_ERR_PARSE, "layer %llu where layer %u belongs", (unsigned long long)v, layer);
      lp->layer = (uint32_t)v;
    } else {
      if (parse_uint(j, UINT64_MAX, &v) && v >= cs->kind->shape.nodes)
        fail(j, CZ_ERR_PARSE, "node %llu >= %llu nodes", (unsigned long long)v,
             (unsigned long long)cs->kind->shape.nodes);
      lp->node = v;
    }
  }
  return f == -1;
}

/* ReplicaColumnProof {c_x, drg_parents: [6], exp_parents: [8]}. */
static bool parse_replica_columns(jp *j, const c1_spec *cs, cz_porep_challenge_proof *cp) {
  static const char *const F[] = {"c_x", "drg_parents", "exp_parents"};
  obj_it o;
  int f;
  if (!obj_begin(j, &o, F, 3)) return false;
  while ((f = obj_field(j, &o)) >= 0) {
    if (f == 0) {
      parse_column(j, cs, &cp->c_x);
      continue;
    }
    arr_it a;
    cz_porep_column *cols = f == 1 ? cp->drg : cp->exp;
    if (!arr_begin(j, &a, f == 1 ? CZ_SDR_BASE_DEGREE : CZ_SDR_EXP_DEGREE, "parent columns"))
      return false;
    while (arr_next(j, &a)) parse_column(j, cs, &cols[a.i - 1]);
  }
  return f == -1;
}

/* stacked::Proof: one challenge. */
static bool parse_challenge(jp *j, const c1_spec *cs, cz_porep_challenge_proof *cp) {
  static const char *const F[] = {"comm_d_proofs", "comm_r_last_proof", "replica_column_proofs",
                                  "labeling_proofs", "encoding_proof"};
  uint32_t layers = cs->kind->shape.layers;
  obj_it o;
  int f;
  if (!obj_begin(j, &o, F, 5)) return false;
  while ((f = obj_field(j, &o)) >= 0) {
    switch (f) {
      case 0: parse_merkle(j, &cs->tree_d, &cp->tree_d); break;
      case 1: parse_merkle(j, &cs->tree_r, &cp->tree_r_last); break;
      case 2: parse_replica_columns(j, cs, cp); break;
      case 3: {
        arr_it a;
        if (!arr_begin(j, &a, layers, "labeling proofs (one per layer)")) return false;
        while (arr_next(j, &a)) parse_labeling(j, cs, &cp->labeling[a.i - 1], (uint32_t)a.i);
        break;
      }
      default: parse_labeling(j, cs, &cp->encoding, layers); break;
    }
  }
  if (f == -2) return false;
  cp->challenge = cp->tree_d.challenge;
  return true;
}

/* vanilla_proofs: {"StackedDrg<size>V1": [[Proof; challenges]; partitions]}.
 * The tag alone fixes the shapes; registered_proof must agree (checked by
 * the caller, whichever comes first). */
static bool parse_vanilla(jp *j, cz_porep_c1 *c1, const cz_porep_kind **tag_kind) {
  if (!expect(j, '{', "'{' (a StackedDrg<size>V1 variant)")) return false;
  char tag[32];
  size_t len;
  if (!short_string(j, tag, sizeof tag, &len)) return false;
  const cz_porep_kind *k = NULL;
  for (uint32_t id = 0; id < 5 && !k; id++) {
    const cz_porep_kind *c = cz_porep_kind_by_id(id);
    if (strlen(c->vanilla_tag) == len && memcmp(c->vanilla_tag, tag, len) == 0) k = c;
  }
  if (!k) return fail(j, CZ_ERR_PARSE, "unknown variant `%s`", tag);
  if (!expect(j, ':', "':'")) return false;
  if (cz_porep_c1_alloc(c1, k) != CZ_OK) return fail(j, CZ_ERR_NOMEM, "out of memory");
  *tag_kind = k;
  c1_spec cs = {.kind = k};
  static const cz_merkle_shape tree_d = {CZ_MERKLE_SHA256, 2, 0, 0};
  tree_spec_init(&cs.tree_d, &tree_d, k->shape.nodes);
  tree_spec_init(&cs.tree_r, &k->shape.tree_r, k->shape.nodes);
  arr_it pa;
  if (!arr_begin(j, &pa, c1->n_partitions, "partitions")) return false;
  while (arr_next(j, &pa)) {
    arr_it ca;
    if (!arr_begin(j, &ca, c1->n_challenges, "challenges per partition")) return false;
    while (arr_next(j, &ca)) {
      size_t at = (size_t)(pa.i - 1) * c1->n_challenges + (size_t)(ca.i - 1);
      if (!parse_challenge(j, &cs, &c1->proofs[at])) return false;
    }
    if (j->err) return false;
  }
  if (j->err) return false;
  return expect(j, '}', "'}' (one variant only)");
}

static bool all_zero(const uint8_t b[32]) {
  uint8_t o = 0;
  for (int i = 0; i < 32; i++) o |= b[i];
  return o == 0;
}

/* SealCommitPhase1Output, from its '{'. */
static bool parse_c1(jp *j, cz_porep_c1 *c1) {
  static const char *const F[] = {"registered_proof", "vanilla_proofs", "comm_r", "comm_d",
                                  "replica_id", "seed", "ticket"};
  const cz_porep_kind *kind = NULL, *tag_kind = NULL;
  uint8_t *bytes[] = {NULL, NULL, c1->comm_r, c1->comm_d, c1->replica_id, c1->seed, c1->ticket};
  uint8_t tmp[5][32] = {{0}};
  obj_it o;
  int f;
  if (!obj_begin(j, &o, F, 7)) return false;
  while ((f = obj_field(j, &o)) >= 0) {
    if (f == 0) {
      char name[64];
      size_t len;
      if (!short_string(j, name, sizeof name, &len)) return false;
      kind = len < sizeof name ? cz_porep_kind_by_name(name) : NULL;
      if (!kind)
        return fail(j, CZ_ERR_INVALID_ARG, "unknown or unsupported registered proof `%s`", name);
    } else if (f == 1) {
      if (!parse_vanilla(j, c1, &tag_kind)) return false;
    } else {
      /* c1 is (re)allocated by parse_vanilla: keep the bytes aside. */
      if (!parse_bytes32(j, tmp[f - 2])) return false;
    }
    if (kind && tag_kind && strcmp(kind->vanilla_tag, tag_kind->vanilla_tag) != 0) {
      pop(j);
      o.pushed = false;
      return fail(j, CZ_ERR_PARSE, "registered_proof %s does not match vanilla_proofs %s",
                  kind->name, tag_kind->vanilla_tag);
    }
  }
  if (f == -2) return false;
  for (int i = 2; i < 7; i++) memcpy(bytes[i], tmp[i - 2], 32);
  c1->kind = kind;
  /* comm_r, comm_d and replica_id are Fr; seed and ticket are randomness. */
  static const char *const FR_NAMES[] = {"comm_r", "comm_d", "replica_id"};
  for (int i = 0; i < 3; i++) {
    cz_fr x;
    if (cz_fr_from_bytes_le(&x, bytes[i + 2]) != CZ_OK)
      return fail(j, CZ_ERR_NONCANONICAL, "%s: value >= r", FR_NAMES[i]);
  }
  if (all_zero(c1->comm_d)) return fail(j, CZ_ERR_INVALID_ARG, "comm_d: all zero");
  if (all_zero(c1->comm_r)) return fail(j, CZ_ERR_INVALID_ARG, "comm_r: all zero");
  if (all_zero(c1->seed)) return fail(j, CZ_ERR_INVALID_ARG, "seed: all zero");
  return true;
}

/* ---- Curio's wrapper ------------------------------------------------------------ */

/* The standard base64 alphabet's values (RFC 4648 table 1), -1 elsewhere. */
static const int8_t B64[256] = {
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 62, -1, -1, -1, 63,
    52, 53, 54, 55, 56, 57, 58, 59, 60, 61, -1, -1, -1, -1, -1, -1,
    -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
    15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, -1, -1, -1, -1, -1,
    -1, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,
    41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};

/* Go's base64.StdEncoding as encoding/json decodes []byte: padded to a
 * multiple of 4, '\r' and '\n' ignored, unused trailing bits ignored; the
 * JSON escape "\/" stands for '/'. Writes at most 3 n / 4 bytes to out. */
static bool b64_decode(jp *j, const char *s, size_t n, uint8_t *out, size_t *outlen) {
  uint32_t acc = 0;
  unsigned q = 0, pad = 0;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    /* Fast path: four plain alphabet characters make three bytes. */
    while (q == 0 && i + 4 <= n) {
      int a = B64[(unsigned char)s[i]], b = B64[(unsigned char)s[i + 1]],
          c = B64[(unsigned char)s[i + 2]], d = B64[(unsigned char)s[i + 3]];
      if ((a | b | c | d) < 0) break;
      uint32_t v = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | (uint32_t)d;
      out[k] = (uint8_t)(v >> 16);
      out[k + 1] = (uint8_t)(v >> 8);
      out[k + 2] = (uint8_t)v;
      k += 3;
      i += 4;
    }
    if (i >= n) break;
    unsigned char c = (unsigned char)s[i];
    if (c == '\\') {
      char e = s[++i];
      if (e == 'n' || e == 'r') continue;
      if (e != '/') return fail(j, CZ_ERR_PARSE, "bad base64: escape \\%c at character %zu", e, i);
      c = '/';
    }
    if (c == '\r' || c == '\n') continue;
    if (c == '=') {
      if (q < 2) return fail(j, CZ_ERR_PARSE, "bad base64: '=' at character %zu", i);
      pad++;
      acc <<= 6;
      if (++q < 4) continue;
      out[k++] = (uint8_t)(acc >> 16);
      if (pad == 1) out[k++] = (uint8_t)(acc >> 8);
      q = 0;
      for (size_t r = i + 1; r < n; r++) /* padding ends the data */
        if (s[r] != '\r' && s[r] != '\n')
          return fail(j, CZ_ERR_PARSE, "bad base64: data after padding at character %zu", r);
      break;
    }
    if (pad) return fail(j, CZ_ERR_PARSE, "bad base64: data after '=' at character %zu", i);
    int v = B64[c];
    if (v < 0) return fail(j, CZ_ERR_PARSE, "bad base64: character %zu is not base64", i);
    acc = acc << 6 | (uint32_t)v;
    if (++q == 4) {
      out[k++] = (uint8_t)(acc >> 16);
      out[k++] = (uint8_t)(acc >> 8);
      out[k++] = (uint8_t)acc;
      acc = 0;
      q = 0;
    }
  }
  if (q != 0) return fail(j, CZ_ERR_PARSE, "bad base64: length is not a multiple of 4");
  *outlen = k;
  return true;
}

static bool parse_document(jp *j, cz_porep_c1 *c1);

/* {"SectorNum": N, "Phase1Out": "<base64 of the C1 JSON>", "SectorSize": S}. */
static bool parse_wrapper(jp *j, cz_porep_c1 *c1) {
  static const char *const F[] = {"SectorNum", "Phase1Out", "SectorSize"};
  uint64_t num = 0, size = 0;
  obj_it o;
  int f;
  if (!obj_begin(j, &o, F, 3)) return false;
  while ((f = obj_field(j, &o)) >= 0) {
    if (f == 0) {
      parse_uint(j, UINT64_MAX, &num);
    } else if (f == 2) {
      parse_uint(j, UINT64_MAX, &size);
    } else {
      const char *s;
      size_t n, len = 0;
      bool esc;
      if (!scan_string(j, &s, &n, &esc)) return false;
      uint8_t *buf = malloc(n / 4 * 3 + 3);
      if (!buf) return fail(j, CZ_ERR_NOMEM, "out of memory");
      if (!b64_decode(j, s, n, buf, &len)) {
        free(buf);
        return false;
      }
      jp in = {.start = (const char *)buf, .p = (const char *)buf, .end = (const char *)buf + len,
               .msg = j->msg, .msg_len = j->msg_len, .prefix = "Phase1Out: "};
      bool ok = parse_document(&in, c1);
      free(buf);
      if (!ok) {
        j->err = in.err;
        return false;
      }
    }
  }
  if (f == -2) return false;
  if (size != c1->kind->sector_size)
    return fail(j, CZ_ERR_PARSE, "SectorSize %llu does not match %s (%llu bytes)",
                (unsigned long long)size, c1->kind->name,
                (unsigned long long)c1->kind->sector_size);
  c1->has_sector_num = true;
  c1->sector_num = num;
  return true;
}

/* The C1 JSON proper (no wrapper): one object and nothing after it. */
static bool parse_document(jp *j, cz_porep_c1 *c1) {
  if (!parse_c1(j, c1)) return false;
  ws(j);
  if (j->p != j->end) return fail(j, CZ_ERR_PARSE, "trailing characters at byte %zu", offset(j));
  return true;
}

cz_err cz_porep_c1_parse(cz_porep_c1 *out, const char *json, size_t len, char *msg,
                         size_t msg_len) {
  memset(out, 0, sizeof *out);
  if (msg && msg_len) msg[0] = 0;
  if (!json) return CZ_ERR_INVALID_ARG;
  jp j = {.start = json, .p = json, .end = json + len, .msg = msg, .msg_len = msg_len};
  /* The first key tells Curio's wrapper from the C1 itself. */
  bool wrapper = false;
  j.msg = NULL; /* a failed peek says nothing: the real parse reports */
  if (eat(&j, '{')) {
    char key[16];
    size_t klen;
    ws(&j);
    if (j.p < j.end && *j.p == '"' && short_string(&j, key, sizeof key, &klen))
      wrapper = strcmp(key, "SectorNum") == 0 || strcmp(key, "Phase1Out") == 0 ||
                strcmp(key, "SectorSize") == 0;
  }
  j.p = json;
  j.err = CZ_OK;
  j.msg = msg;
  bool ok;
  if (wrapper) {
    ok = parse_wrapper(&j, out);
    ws(&j);
    if (ok && j.p != j.end) ok = fail(&j, CZ_ERR_PARSE, "trailing characters at byte %zu", offset(&j));
  } else {
    ok = parse_document(&j, out);
  }
  if (!ok) {
    cz_porep_c1_free(out);
    return j.err != CZ_OK ? j.err : CZ_ERR_PARSE;
  }
  return CZ_OK;
}

cz_err cz_porep_c1_load(cz_porep_c1 *out, const char *path, char *msg, size_t msg_len) {
  memset(out, 0, sizeof *out);
  if (msg && msg_len) msg[0] = 0;
  struct stat st;
  int fd = path ? open(path, O_RDONLY) : -1;
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    if (fd >= 0) close(fd);
    if (msg && msg_len)
      snprintf(msg, msg_len, "%s: cannot open (not a readable regular file)", path ? path : "(null)");
    return CZ_ERR_IO;
  }
  size_t size = (size_t)st.st_size;
  /* Map the file (a 32 GiB C1 is ~50 MB: no copy, pages read ahead in
   * bulk); read it when it cannot be mapped (empty files, odd filesystems). */
  void *map = size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0) : MAP_FAILED;
  if (map != MAP_FAILED) {
    close(fd);
    cz_err e = cz_porep_c1_parse(out, map, size, msg, msg_len);
    munmap(map, size);
    return e;
  }
  char *buf = malloc(size + 1);
  size_t got = 0;
  while (buf && got < size) {
    ssize_t r = read(fd, buf + got, size - got);
    if (r <= 0) break;
    got += (size_t)r;
  }
  close(fd);
  if (!buf || got != size) {
    free(buf);
    if (msg && msg_len) snprintf(msg, msg_len, "%s: %s", path, buf ? "cannot read" : "out of memory");
    return buf ? CZ_ERR_IO : CZ_ERR_NOMEM;
  }
  cz_err e = cz_porep_c1_parse(out, buf, size, msg, msg_len);
  free(buf);
  return e;
}

/* ---- Writing ------------------------------------------------------------------------ */

typedef struct {
  char *buf;
  size_t len, cap;
  bool oom;
} wbuf;

static bool reserve(wbuf *w, size_t n) {
  if (w->oom) return false;
  if (w->len + n + 1 <= w->cap) return true;
  size_t cap = w->cap ? w->cap : 1 << 16;
  while (cap < w->len + n + 1) cap *= 2;
  char *b = realloc(w->buf, cap);
  if (!b) {
    w->oom = true;
    return false;
  }
  w->buf = b;
  w->cap = cap;
  return true;
}

static void put(wbuf *w, const char *s, size_t n) {
  if (!reserve(w, n)) return;
  memcpy(w->buf + w->len, s, n);
  w->len += n;
}
#define PUT(w, lit) put((w), "" lit, sizeof(lit) - 1) /* literals only */
static void put_str(wbuf *w, const char *s) { put(w, s, strlen(s)); }

static void put_u64(wbuf *w, uint64_t v) {
  char t[24];
  int n = snprintf(t, sizeof t, "%llu", (unsigned long long)v);
  put(w, t, (size_t)n);
}

static void put_bytes32(wbuf *w, const uint8_t b[32]) {
  if (!reserve(w, 32 * 4 + 2)) return;
  char *o = w->buf + w->len;
  *o++ = '[';
  for (int i = 0; i < 32; i++) {
    unsigned v = b[i];
    if (v >= 100) *o++ = (char)('0' + v / 100);
    if (v >= 10) *o++ = (char)('0' + v / 10 % 10);
    *o++ = (char)('0' + v % 10);
    *o++ = i < 31 ? ',' : ']';
  }
  w->len = (size_t)(o - w->buf);
}

static void put_fr(wbuf *w, const cz_fr *x) {
  uint8_t b[32];
  cz_fr_to_bytes_le(b, x);
  put_bytes32(w, b);
}

static void put_path(wbuf *w, const cz_merkle_proof *p, size_t first, size_t n) {
  PUT(w, "{\"path\":[");
  for (size_t l = first; l < first + n; l++) {
    put_str(w, l > first ? ",{\"hashes\":[" : "{\"hashes\":[");
    unsigned a = p->arity[l] >= 1 && p->arity[l] <= CZ_MERKLE_MAX_ARITY ? p->arity[l] : 1;
    for (unsigned i = 0; i + 1 < a; i++) {
      if (i) PUT(w, ",");
      put_fr(w, &p->siblings[l][i]);
    }
    PUT(w, "],\"index\":");
    put_u64(w, p->index[l]);
    PUT(w, "}");
  }
  PUT(w, "]}");
}

/* The variant follows the tree's shape, as the Rust type fixes it. */
static void put_merkle(wbuf *w, const cz_merkle_shape *s, const cz_merkle_proof *p) {
  size_t extra = s->top_arity ? 2 : s->sub_arity ? 1 : 0;
  size_t n = p->n_levels <= CZ_MERKLE_MAX_LEVELS ? p->n_levels : CZ_MERKLE_MAX_LEVELS;
  size_t base = n >= extra ? n - extra : 0;
  if (extra == 0) {
    PUT(w, "{\"data\":{\"Single\":{\"root\":");
    put_fr(w, &p->root);
    PUT(w, ",\"leaf\":");
    put_fr(w, &p->leaf);
    PUT(w, ",\"path\":");
    put_path(w, p, 0, base);
  } else {
    put_str(w, extra == 1 ? "{\"data\":{\"Sub\":{\"base_proof\":" : "{\"data\":{\"Top\":{\"base_proof\":");
    put_path(w, p, 0, base);
    PUT(w, ",\"sub_proof\":");
    put_path(w, p, base, n > base ? 1 : 0);
    if (extra == 2) {
      PUT(w, ",\"top_proof\":");
      put_path(w, p, base + 1, n > base + 1 ? 1 : 0);
    }
    PUT(w, ",\"root\":");
    put_fr(w, &p->root);
    PUT(w, ",\"leaf\":");
    put_fr(w, &p->leaf);
  }
  PUT(w, "}}}");
}

static void put_column(wbuf *w, const cz_porep_kind *k, const cz_porep_column *c) {
  PUT(w, "{\"column\":{\"index\":");
  put_u64(w, c->index);
  PUT(w, ",\"rows\":[");
  for (uint32_t l = 0; l < k->shape.layers && l < CZ_POREP_MAX_LAYERS; l++) {
    if (l) PUT(w, ",");
    put_fr(w, &c->rows[l]);
  }
  PUT(w, "],\"_h\":null},\"inclusion_proof\":");
  put_merkle(w, &k->shape.tree_r, &c->tree_c);
  PUT(w, "}");
}

static void put_labeling(wbuf *w, const cz_porep_labeling *lp) {
  PUT(w, "{\"parents\":[");
  for (int i = 0; i < CZ_POREP_LABEL_PARENTS; i++) {
    if (i) PUT(w, ",");
    put_fr(w, &lp->parents[i]);
  }
  PUT(w, "],\"layer_index\":");
  put_u64(w, lp->layer);
  PUT(w, ",\"node\":");
  put_u64(w, lp->node);
  PUT(w, "}");
}

static void put_challenge(wbuf *w, const cz_porep_kind *k, const cz_porep_challenge_proof *cp) {
  static const cz_merkle_shape tree_d = {CZ_MERKLE_SHA256, 2, 0, 0};
  PUT(w, "{\"comm_d_proofs\":");
  put_merkle(w, &tree_d, &cp->tree_d);
  PUT(w, ",\"comm_r_last_proof\":");
  put_merkle(w, &k->shape.tree_r, &cp->tree_r_last);
  PUT(w, ",\"replica_column_proofs\":{\"c_x\":");
  put_column(w, k, &cp->c_x);
  PUT(w, ",\"drg_parents\":[");
  for (int i = 0; i < CZ_SDR_BASE_DEGREE; i++) {
    if (i) PUT(w, ",");
    put_column(w, k, &cp->drg[i]);
  }
  PUT(w, "],\"exp_parents\":[");
  for (int i = 0; i < CZ_SDR_EXP_DEGREE; i++) {
    if (i) PUT(w, ",");
    put_column(w, k, &cp->exp[i]);
  }
  PUT(w, "]},\"labeling_proofs\":[");
  for (uint32_t l = 0; l < k->shape.layers && l < CZ_POREP_MAX_LAYERS; l++) {
    if (l) PUT(w, ",");
    put_labeling(w, &cp->labeling[l]);
  }
  PUT(w, "],\"encoding_proof\":");
  put_labeling(w, &cp->encoding);
  PUT(w, "}");
}

cz_err cz_porep_c1_to_json(const cz_porep_c1 *c1, char **out, size_t *len) {
  *out = NULL;
  *len = 0;
  if (!c1 || !c1->kind || (!c1->proofs && c1->n_partitions && c1->n_challenges))
    return CZ_ERR_INVALID_ARG;
  const cz_porep_kind *k = c1->kind;
  wbuf w = {0};
  PUT(&w, "{\"registered_proof\":\"");
  put(&w, k->name, strlen(k->name));
  PUT(&w, "\",\"vanilla_proofs\":{\"");
  put(&w, k->vanilla_tag, strlen(k->vanilla_tag));
  PUT(&w, "\":[");
  for (uint32_t p = 0; p < c1->n_partitions; p++) {
    put_str(&w, p ? ",[" : "[");
    for (uint32_t i = 0; i < c1->n_challenges; i++) {
      if (i) PUT(&w, ",");
      put_challenge(&w, k, &c1->proofs[(size_t)p * c1->n_challenges + i]);
    }
    PUT(&w, "]");
  }
  PUT(&w, "]},\"comm_r\":");
  put_bytes32(&w, c1->comm_r);
  PUT(&w, ",\"comm_d\":");
  put_bytes32(&w, c1->comm_d);
  PUT(&w, ",\"replica_id\":");
  put_bytes32(&w, c1->replica_id);
  PUT(&w, ",\"seed\":");
  put_bytes32(&w, c1->seed);
  PUT(&w, ",\"ticket\":");
  put_bytes32(&w, c1->ticket);
  PUT(&w, "}");
  if (w.oom) {
    free(w.buf);
    return CZ_ERR_NOMEM;
  }
  w.buf[w.len] = 0;
  *out = w.buf;
  *len = w.len;
  return CZ_OK;
}

/* ---- Synthetic C1 --------------------------------------------------------------------- */

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static void rand_fr(uint64_t *s, cz_fr *x) {
  uint8_t w[64];
  for (int i = 0; i < 64; i += 8) {
    uint64_t v = splitmix(s);
    memcpy(w + i, &v, 8);
  }
  cz_fr_from_wide_le(x, w);
}

/* A canonical non-zero Fr's bytes. */
static void rand_fr_bytes(uint64_t *s, uint8_t out[32]) {
  cz_fr x;
  do rand_fr(s, &x);
  while (cz_fr_is_zero(&x));
  cz_fr_to_bytes_le(out, &x);
}

/* A Merkle proof of the shape for leaf `leaf` of a tree of `nodes` leaves. */
static void rand_merkle(uint64_t *s, const cz_merkle_shape *shape, uint64_t nodes, uint64_t leaf,
                        cz_merkle_proof *p) {
  tree_spec t;
  tree_spec_init(&t, shape, nodes);
  memset(p, 0, sizeof *p);
  p->shape = *shape;
  p->challenge = (size_t)leaf;
  p->n_levels = t.base_levels + (shape->sub_arity != 0) + (shape->top_arity != 0);
  rand_fr(s, &p->leaf);
  rand_fr(s, &p->root);
  uint64_t c = leaf;
  for (size_t l = 0; l < p->n_levels; l++) {
    unsigned a = l < t.base_levels ? shape->base_arity
                 : l == t.base_levels ? shape->sub_arity
                                      : shape->top_arity;
    p->arity[l] = a;
    p->index[l] = (unsigned)(c % a);
    c /= a;
    for (unsigned i = 0; i + 1 < a; i++) rand_fr(s, &p->siblings[l][i]);
  }
}

static void rand_column(uint64_t *s, const cz_porep_kind *k, uint32_t index, cz_porep_column *c) {
  c->index = index;
  for (uint32_t l = 0; l < k->shape.layers; l++) rand_fr(s, &c->rows[l]);
  rand_merkle(s, &k->shape.tree_r, k->shape.nodes, index, &c->tree_c);
}

static void rand_labeling(uint64_t *s, uint32_t layer, uint64_t node, cz_porep_labeling *lp) {
  lp->layer = layer;
  lp->node = node;
  for (int i = 0; i < CZ_POREP_LABEL_PARENTS; i++) rand_fr(s, &lp->parents[i]);
}

cz_err cz_porep_c1_synthetic(cz_porep_c1 *c1, const cz_porep_kind *kind, uint64_t seed) {
  cz_err e = cz_porep_c1_alloc(c1, kind);
  if (e != CZ_OK) return e;
  uint64_t s = seed;
  static const cz_merkle_shape tree_d = {CZ_MERKLE_SHA256, 2, 0, 0};
  uint64_t nodes = kind->shape.nodes;
  size_t n = (size_t)c1->n_partitions * c1->n_challenges;
  for (size_t i = 0; i < n; i++) {
    cz_porep_challenge_proof *cp = &c1->proofs[i];
    uint64_t ch = 1 + splitmix(&s) % (nodes - 1);
    cp->challenge = ch;
    rand_merkle(&s, &tree_d, nodes, ch, &cp->tree_d);
    rand_merkle(&s, &kind->shape.tree_r, nodes, ch, &cp->tree_r_last);
    rand_column(&s, kind, (uint32_t)ch, &cp->c_x);
    for (int d = 0; d < CZ_SDR_BASE_DEGREE; d++)
      rand_column(&s, kind, (uint32_t)(splitmix(&s) % ch), &cp->drg[d]);
    for (int d = 0; d < CZ_SDR_EXP_DEGREE; d++)
      rand_column(&s, kind, (uint32_t)(splitmix(&s) % nodes), &cp->exp[d]);
    for (uint32_t l = 0; l < kind->shape.layers; l++)
      rand_labeling(&s, l + 1, ch, &cp->labeling[l]);
    rand_labeling(&s, kind->shape.layers, ch, &cp->encoding);
  }
  rand_fr_bytes(&s, c1->comm_d);
  rand_fr_bytes(&s, c1->comm_r);
  rand_fr_bytes(&s, c1->replica_id);
  for (int i = 0; i < 32; i += 8) {
    uint64_t v = splitmix(&s) | 1, t = splitmix(&s);
    memcpy(c1->seed + i, &v, 8);
    memcpy(c1->ticket + i, &t, 8);
  }
  return CZ_OK;
}
