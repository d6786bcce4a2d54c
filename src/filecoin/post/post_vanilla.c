/* bincode 1 reader and writer for filecoin-proofs' FallbackPoStSectorProof,
 * the bytes filecoin-ffi's generate_single_vanilla_proof returns and
 * generate_*_post_with_vanilla takes.
 *
 * bincode::serialize with the default options: integers little-endian at
 * full width (fixint), Vec and usize as u64, enum variants as u32, [u8; 32]
 * as 32 raw bytes (a tuple: no length), struct fields in declaration order
 * with no names or tags. The layout (field order from filecoin-proofs
 * types/mod.rs, storage-proofs-post fallback/vanilla.rs and
 * storage-proofs-core merkle/proof.rs):
 *
 *   FallbackPoStSectorProof { sector_id: u64, comm_r: [u8;32],
 *                             vanilla_proof: Proof }
 *   Proof        { sectors: Vec<SectorProof> }
 *   SectorProof  { inclusion_proofs: Vec<MerkleProof>, comm_c, comm_r_last }
 *   MerkleProof  { data: ProofData }
 *   ProofData    = 0 Single { root, leaf, path: InclusionPath }
 *                | 1 Sub    { base_proof, sub_proof, root, leaf }
 *                | 2 Top    { base_proof, sub_proof, top_proof, root, leaf }
 *   InclusionPath { path: Vec<PathElement> }
 *   PathElement  { hashes: Vec<[u8;32]>, index: usize }
 *
 * PathElement's _arity is #[serde(skip)]. The 32 GiB vector is 24,960
 * bytes: 48 + 8 + 10 x (4 + (8 + 9 x 240) + (8 + 240) + 64) + 64. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/post.h"
#include "filecoin/post/post_internal.h"
#include "util/msg.h"

/* The fewest bytes one element can take, to bound a length before any
 * allocation: SectorProof = empty Vec + comm_c + comm_r_last; MerkleProof =
 * variant + empty Single path + root + leaf; PathElement = empty hashes +
 * index; a hash. */
#define MIN_SECTOR_PROOF (8 + 32 + 32)
#define MIN_MERKLE_PROOF (4 + 8 + 32 + 32)
#define MIN_PATH_ELEMENT (8 + 8)
#define HASH_BYTES 32

static const char *const variant_names[3] = {"Single", "Sub", "Top"};

/* ---- Reader --------------------------------------------------------------- */

typedef struct {
  const uint8_t *p;
  size_t left;
  char path[256]; /* the field being read: "vanilla_proofs[0].sectors[0]..." */
  size_t plen;
  char *msg;
  size_t msg_len;
} rd;

/* Append a segment to the field path; returns the length to pop back to. */
__attribute__((format(printf, 2, 3))) static size_t push(rd *r, const char *fmt, ...) {
  size_t old = r->plen;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(r->path + r->plen, sizeof r->path - r->plen, fmt, ap);
  va_end(ap);
  if (n > 0) r->plen += (size_t)n;
  if (r->plen >= sizeof r->path) r->plen = sizeof r->path - 1; /* truncated name */
  return old;
}

static void pop(rd *r, size_t old) {
  r->plen = old;
  r->path[old] = 0;
}

__attribute__((format(printf, 3, 4))) static cz_err fail(rd *r, cz_err e, const char *fmt, ...) {
  char why[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  cz_msg(r->msg, r->msg_len, "%s: %s", r->path, why);
  return e;
}

static cz_err take(rd *r, size_t n, const uint8_t **out) {
  if (r->left < n) return fail(r, CZ_ERR_TRUNCATED, "unexpected end of input");
  *out = r->p;
  r->p += n;
  r->left -= n;
  return CZ_OK;
}

static uint64_t le64(const uint8_t *b) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | b[i];
  return v;
}

/* A u64 (or usize) in field `field` (appended to the path for messages). */
static cz_err get_u64(rd *r, const char *field, uint64_t *v) {
  size_t old = push(r, "%s", field);
  const uint8_t *b = NULL;
  cz_err e = take(r, 8, &b);
  if (e == CZ_OK) *v = le64(b);
  pop(r, old);
  return e;
}

static cz_err get_fr_here(rd *r, cz_fr *v) {
  const uint8_t *b = NULL;
  cz_err e = take(r, 32, &b);
  if (e != CZ_OK) return e;
  if (cz_fr_from_bytes_le(v, b) != CZ_OK)
    return fail(r, CZ_ERR_NONCANONICAL, "not a canonical field element (value >= r)");
  return CZ_OK;
}

static cz_err get_fr(rd *r, const char *field, cz_fr *v) {
  size_t old = push(r, "%s", field);
  cz_err e = get_fr_here(r, v);
  pop(r, old);
  return e;
}

/* A Vec length at the current path, which must leave room for n elements
 * of at least min_elem bytes each: checked before anything is allocated. */
static cz_err get_len(rd *r, size_t min_elem, uint64_t *n) {
  const uint8_t *b = NULL;
  cz_err e = take(r, 8, &b);
  if (e != CZ_OK) return e;
  *n = le64(b);
  if (*n > r->left / min_elem)
    return fail(r, CZ_ERR_TRUNCATED,
                "unexpected end of input (length %llu of at least %zu bytes each, %zu left)",
                (unsigned long long)*n, min_elem, r->left);
  return CZ_OK;
}

/* One PathElement into level l of p. */
static cz_err get_element(rd *r, cz_merkle_proof *p, size_t l) {
  size_t old = push(r, ".hashes");
  uint64_t nh;
  cz_err e = get_len(r, HASH_BYTES, &nh);
  if (e == CZ_OK && nh != 1 && nh != 3 && nh != 7)
    e = fail(r, CZ_ERR_PARSE, "%llu hashes (expected 1, 3 or 7: arity 2, 4 or 8)",
             (unsigned long long)nh);
  for (uint64_t j = 0; e == CZ_OK && j < nh; j++) {
    size_t o2 = push(r, "[%llu]", (unsigned long long)j);
    e = get_fr_here(r, &p->siblings[l][j]);
    pop(r, o2);
  }
  pop(r, old);
  if (e != CZ_OK) return e;
  uint64_t idx;
  if ((e = get_u64(r, ".index", &idx)) != CZ_OK) return e;
  p->arity[l] = (unsigned)nh + 1;
  if (idx >= p->arity[l]) {
    old = push(r, ".index");
    e = fail(r, CZ_ERR_PARSE, "%llu is not below the arity %u", (unsigned long long)idx,
             p->arity[l]);
    pop(r, old);
    return e;
  }
  p->index[l] = (unsigned)idx;
  return CZ_OK;
}

/* One InclusionPath named `field`, appended to p's levels; *count gets its
 * number of elements. */
static cz_err get_path(rd *r, const char *field, cz_merkle_proof *p, uint32_t *count) {
  size_t old = push(r, "%s.path", field);
  uint64_t n;
  cz_err e = get_len(r, MIN_PATH_ELEMENT, &n);
  if (e == CZ_OK && n > CZ_MERKLE_MAX_LEVELS - p->n_levels)
    e = fail(r, CZ_ERR_PARSE, "%llu path elements exceed the %d levels a proof may hold",
             (unsigned long long)n, CZ_MERKLE_MAX_LEVELS);
  for (uint64_t i = 0; e == CZ_OK && i < n; i++) {
    size_t o2 = push(r, "[%llu]", (unsigned long long)i);
    e = get_element(r, p, p->n_levels);
    if (e == CZ_OK) p->n_levels++;
    pop(r, o2);
  }
  pop(r, old);
  if (e == CZ_OK) *count = (uint32_t)n;
  return e;
}

/* The leaf index the path spells (merkle/proof.rs path_index): mixed radix
 * over the levels' arities, least significant first. */
static cz_err set_challenge(rd *r, cz_merkle_proof *p) {
  unsigned __int128 c = 0, mult = 1; /* 40 levels of arity 8: 120 bits */
  for (size_t l = 0; l < p->n_levels; l++) {
    c += (unsigned __int128)p->index[l] * mult;
    mult *= p->arity[l];
  }
  if (c > (unsigned __int128)SIZE_MAX)
    return fail(r, CZ_ERR_PARSE, "the path's leaf index does not fit in 64 bits");
  p->challenge = (size_t)c;
  return CZ_OK;
}

static cz_err get_inclusion(rd *r, cz_post_inclusion *inc) {
  memset(inc, 0, sizeof *inc);
  cz_merkle_proof *p = &inc->proof;
  const uint8_t *b = NULL;
  cz_err e = take(r, 4, &b);
  if (e != CZ_OK) return e;
  inc->variant = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  if (inc->variant > 2)
    return fail(r, CZ_ERR_PARSE, "unknown ProofData variant %u (expected 0 Single, 1 Sub, 2 Top)",
                inc->variant);
  if (inc->variant == 0) {
    if ((e = get_fr(r, ".root", &p->root)) != CZ_OK) return e;
    if ((e = get_fr(r, ".leaf", &p->leaf)) != CZ_OK) return e;
    if ((e = get_path(r, ".path", p, &inc->n_base)) != CZ_OK) return e;
  } else {
    if ((e = get_path(r, ".base_proof", p, &inc->n_base)) != CZ_OK) return e;
    if ((e = get_path(r, ".sub_proof", p, &inc->n_sub)) != CZ_OK) return e;
    if (inc->variant == 2 && (e = get_path(r, ".top_proof", p, &inc->n_top)) != CZ_OK) return e;
    if ((e = get_fr(r, ".root", &p->root)) != CZ_OK) return e;
    if ((e = get_fr(r, ".leaf", &p->leaf)) != CZ_OK) return e;
  }
  p->shape.hasher = CZ_MERKLE_POSEIDON;
  p->shape.base_arity = inc->n_base ? p->arity[0] : 0;
  p->shape.sub_arity = inc->n_sub ? p->arity[inc->n_base] : 0;
  p->shape.top_arity = inc->n_top ? p->arity[inc->n_base + inc->n_sub] : 0;
  return set_challenge(r, p);
}

static cz_err get_sector_proof(rd *r, cz_post_sector_proof *s) {
  size_t old = push(r, ".inclusion_proofs");
  uint64_t n;
  cz_err e = get_len(r, MIN_MERKLE_PROOF, &n);
  if (e == CZ_OK && n) {
    s->inclusions = calloc((size_t)n, sizeof *s->inclusions);
    if (!s->inclusions) e = fail(r, CZ_ERR_NOMEM, "out of memory for %llu proofs",
                                 (unsigned long long)n);
  }
  for (uint64_t i = 0; e == CZ_OK && i < n; i++) {
    size_t o2 = push(r, "[%llu]", (unsigned long long)i);
    e = get_inclusion(r, &s->inclusions[i]);
    if (e == CZ_OK) s->n_inclusions++;
    pop(r, o2);
  }
  pop(r, old);
  if (e == CZ_OK) e = get_fr(r, ".comm_c", &s->comm_c);
  if (e == CZ_OK) e = get_fr(r, ".comm_r_last", &s->comm_r_last);
  return e;
}

static cz_err get_vanilla(rd *r, cz_post_vanilla *v) {
  cz_err e;
  if ((e = get_u64(r, ".sector_id", &v->sector_id)) != CZ_OK) return e;
  if ((e = get_fr(r, ".comm_r", &v->comm_r)) != CZ_OK) return e;
  size_t old = push(r, ".sectors");
  uint64_t n;
  e = get_len(r, MIN_SECTOR_PROOF, &n);
  if (e == CZ_OK && n) {
    v->sectors = calloc((size_t)n, sizeof *v->sectors);
    if (!v->sectors) e = fail(r, CZ_ERR_NOMEM, "out of memory for %llu sectors",
                              (unsigned long long)n);
  }
  /* n_sectors counts the entries begun, so that free releases a partly
   * read one too. */
  for (uint64_t i = 0; e == CZ_OK && i < n; i++) {
    size_t o2 = push(r, "[%llu]", (unsigned long long)i);
    v->n_sectors++;
    e = get_sector_proof(r, &v->sectors[i]);
    pop(r, o2);
  }
  pop(r, old);
  return e;
}

cz_err cz_post_vanilla_parse(cz_post_vanilla *out, const uint8_t *in, size_t len, size_t index,
                             char *msg, size_t msg_len) {
  if (msg && msg_len) msg[0] = 0;
  if (!out) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "vanilla proof: NULL output");
  memset(out, 0, sizeof *out);
  if (!in && len) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "vanilla proof: NULL input");
  rd r = {.p = in, .left = len, .msg = msg, .msg_len = msg_len};
  push(&r, "vanilla_proofs[%zu]", index);
  cz_err e = get_vanilla(&r, out);
  if (e == CZ_OK && r.left)
    e = fail(&r, CZ_ERR_TRAILING, "%zu bytes after the end of the proof", r.left);
  if (e != CZ_OK) cz_post_vanilla_free(out);
  return e;
}

void cz_post_vanilla_free(cz_post_vanilla *v) {
  if (!v) return;
  for (size_t i = 0; v->sectors && i < v->n_sectors; i++) free(v->sectors[i].inclusions);
  free(v->sectors);
  memset(v, 0, sizeof *v);
}

/* ---- Writer --------------------------------------------------------------- */

/* True when inc is something the parser could have produced. */
static bool inclusion_ok(const cz_post_inclusion *inc) {
  const cz_merkle_proof *p = &inc->proof;
  if (inc->variant > 2 || (inc->variant < 1 && inc->n_sub) || (inc->variant < 2 && inc->n_top))
    return false;
  if ((size_t)inc->n_base + inc->n_sub + inc->n_top != p->n_levels ||
      p->n_levels > CZ_MERKLE_MAX_LEVELS)
    return false;
  for (size_t l = 0; l < p->n_levels; l++) {
    unsigned a = p->arity[l];
    if ((a != 2 && a != 4 && a != 8) || p->index[l] >= a) return false;
  }
  return true;
}

static size_t path_bytes(const cz_merkle_proof *p, size_t from, size_t n) {
  size_t b = 8;
  for (size_t l = from; l < from + n; l++) b += 8 + (p->arity[l] - 1) * (size_t)HASH_BYTES + 8;
  return b;
}

static size_t inclusion_bytes(const cz_post_inclusion *inc) {
  const cz_merkle_proof *p = &inc->proof;
  size_t b = 4 + 2 * 32 + path_bytes(p, 0, inc->n_base);
  if (inc->variant >= 1) b += path_bytes(p, inc->n_base, inc->n_sub);
  if (inc->variant == 2) b += path_bytes(p, inc->n_base + inc->n_sub, inc->n_top);
  return b;
}

static uint8_t *put_u64(uint8_t *o, uint64_t v) {
  for (int i = 0; i < 8; i++) o[i] = (uint8_t)(v >> (8 * i));
  return o + 8;
}

static uint8_t *put_fr(uint8_t *o, const cz_fr *v) {
  cz_fr_to_bytes_le(o, v);
  return o + 32;
}

static uint8_t *put_path(uint8_t *o, const cz_merkle_proof *p, size_t from, size_t n) {
  o = put_u64(o, n);
  for (size_t l = from; l < from + n; l++) {
    o = put_u64(o, p->arity[l] - 1);
    for (unsigned j = 0; j + 1 < p->arity[l]; j++) o = put_fr(o, &p->siblings[l][j]);
    o = put_u64(o, p->index[l]);
  }
  return o;
}

static uint8_t *put_inclusion(uint8_t *o, const cz_post_inclusion *inc) {
  const cz_merkle_proof *p = &inc->proof;
  for (int i = 0; i < 4; i++) o[i] = (uint8_t)(inc->variant >> (8 * i));
  o += 4;
  if (inc->variant == 0) {
    o = put_fr(o, &p->root);
    o = put_fr(o, &p->leaf);
    return put_path(o, p, 0, inc->n_base);
  }
  o = put_path(o, p, 0, inc->n_base);
  o = put_path(o, p, inc->n_base, inc->n_sub);
  if (inc->variant == 2) o = put_path(o, p, inc->n_base + inc->n_sub, inc->n_top);
  o = put_fr(o, &p->root);
  return put_fr(o, &p->leaf);
}

size_t cz_post_vanilla_write(uint8_t *out, const cz_post_vanilla *v) {
  if (!v || (v->n_sectors && !v->sectors)) return 0;
  size_t total = 8 + 32 + 8;
  for (size_t s = 0; s < v->n_sectors; s++) {
    const cz_post_sector_proof *sp = &v->sectors[s];
    if (sp->n_inclusions && !sp->inclusions) return 0;
    total += 8 + 2 * 32;
    for (size_t i = 0; i < sp->n_inclusions; i++) {
      if (!inclusion_ok(&sp->inclusions[i])) return 0;
      total += inclusion_bytes(&sp->inclusions[i]);
    }
  }
  if (!out) return total;
  uint8_t *o = put_u64(out, v->sector_id);
  o = put_fr(o, &v->comm_r);
  o = put_u64(o, v->n_sectors);
  for (size_t s = 0; s < v->n_sectors; s++) {
    const cz_post_sector_proof *sp = &v->sectors[s];
    o = put_u64(o, sp->n_inclusions);
    for (size_t i = 0; i < sp->n_inclusions; i++) o = put_inclusion(o, &sp->inclusions[i]);
    o = put_fr(o, &sp->comm_c);
    o = put_fr(o, &sp->comm_r_last);
  }
  return (size_t)(o - out);
}

const char *cz_post_variant_name(uint32_t variant) {
  return variant < 3 ? variant_names[variant] : "unknown";
}
