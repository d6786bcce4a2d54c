/* bincode 1 primitives and rust-fil-proofs' MerkleProof, read and written
 * (layout in bincode.h). Moved here from post/post_vanilla.c when the
 * SnapDeals PartitionProof reader needed the same MerkleProof. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "filecoin/bincode/bincode.h"
#include "util/msg.h"

/* PathElement = empty hashes + index. */
#define MIN_PATH_ELEMENT (8 + 8)

static const char *const variant_names[3] = {"Single", "Sub", "Top"};

const char *cz_bc_variant_name(uint32_t variant) {
  return variant < 3 ? variant_names[variant] : "unknown";
}

/* ---- Reader --------------------------------------------------------------- */

void cz_bc_init(cz_bc_reader *r, const uint8_t *in, size_t len, char *msg, size_t msg_len) {
  memset(r, 0, sizeof *r);
  r->p = in;
  r->left = len;
  r->msg = msg;
  r->msg_len = msg_len;
}

size_t cz_bc_push(cz_bc_reader *r, const char *fmt, ...) {
  size_t old = r->plen;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(r->path + r->plen, sizeof r->path - r->plen, fmt, ap);
  va_end(ap);
  if (n > 0) r->plen += (size_t)n;
  if (r->plen >= sizeof r->path) r->plen = sizeof r->path - 1; /* truncated name */
  return old;
}

void cz_bc_pop(cz_bc_reader *r, size_t old) {
  r->plen = old;
  r->path[old] = 0;
}

cz_err cz_bc_fail(cz_bc_reader *r, cz_err e, const char *fmt, ...) {
  char why[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  cz_msg(r->msg, r->msg_len, "%s: %s", r->path, why);
  return e;
}

static cz_err take(cz_bc_reader *r, size_t n, const uint8_t **out) {
  if (r->left < n) return cz_bc_fail(r, CZ_ERR_TRUNCATED, "unexpected end of input");
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

cz_err cz_bc_u64(cz_bc_reader *r, const char *field, uint64_t *v) {
  size_t old = cz_bc_push(r, "%s", field);
  const uint8_t *b = NULL;
  cz_err e = take(r, 8, &b);
  if (e == CZ_OK) *v = le64(b);
  cz_bc_pop(r, old);
  return e;
}

cz_err cz_bc_fr(cz_bc_reader *r, const char *field, cz_fr *v) {
  size_t old = cz_bc_push(r, "%s", field);
  const uint8_t *b = NULL;
  cz_err e = take(r, 32, &b);
  if (e == CZ_OK && cz_fr_from_bytes_le(v, b) != CZ_OK)
    e = cz_bc_fail(r, CZ_ERR_NONCANONICAL, "not a canonical field element (value >= r)");
  cz_bc_pop(r, old);
  return e;
}

cz_err cz_bc_len(cz_bc_reader *r, size_t min_elem, uint64_t *n) {
  const uint8_t *b = NULL;
  cz_err e = take(r, 8, &b);
  if (e != CZ_OK) return e;
  *n = le64(b);
  if (*n > r->left / min_elem)
    return cz_bc_fail(r, CZ_ERR_TRUNCATED,
                      "unexpected end of input (length %llu of at least %zu bytes each, %zu "
                      "left)",
                      (unsigned long long)*n, min_elem, r->left);
  return CZ_OK;
}

/* One PathElement into level l of p. */
static cz_err get_element(cz_bc_reader *r, cz_merkle_proof *p, size_t l) {
  size_t old = cz_bc_push(r, ".hashes");
  uint64_t nh;
  cz_err e = cz_bc_len(r, CZ_BC_HASH, &nh);
  if (e == CZ_OK && nh != 1 && nh != 3 && nh != 7)
    e = cz_bc_fail(r, CZ_ERR_PARSE, "%llu hashes (expected 1, 3 or 7: arity 2, 4 or 8)",
                   (unsigned long long)nh);
  for (uint64_t j = 0; e == CZ_OK && j < nh; j++) {
    char idx[24];
    snprintf(idx, sizeof idx, "[%llu]", (unsigned long long)j);
    e = cz_bc_fr(r, idx, &p->siblings[l][j]);
  }
  cz_bc_pop(r, old);
  if (e != CZ_OK) return e;
  uint64_t idx;
  if ((e = cz_bc_u64(r, ".index", &idx)) != CZ_OK) return e;
  p->arity[l] = (unsigned)nh + 1;
  if (idx >= p->arity[l]) {
    old = cz_bc_push(r, ".index");
    e = cz_bc_fail(r, CZ_ERR_PARSE, "%llu is not below the arity %u", (unsigned long long)idx,
                   p->arity[l]);
    cz_bc_pop(r, old);
    return e;
  }
  p->index[l] = (unsigned)idx;
  return CZ_OK;
}

/* One InclusionPath named `field`, appended to p's levels; *count gets its
 * number of elements. */
static cz_err get_path(cz_bc_reader *r, const char *field, cz_merkle_proof *p, uint32_t *count) {
  size_t old = cz_bc_push(r, "%s.path", field);
  uint64_t n;
  cz_err e = cz_bc_len(r, MIN_PATH_ELEMENT, &n);
  if (e == CZ_OK && n > CZ_MERKLE_MAX_LEVELS - p->n_levels)
    e = cz_bc_fail(r, CZ_ERR_PARSE, "%llu path elements exceed the %d levels a proof may hold",
                   (unsigned long long)n, CZ_MERKLE_MAX_LEVELS);
  for (uint64_t i = 0; e == CZ_OK && i < n; i++) {
    size_t o2 = cz_bc_push(r, "[%llu]", (unsigned long long)i);
    e = get_element(r, p, p->n_levels);
    if (e == CZ_OK) p->n_levels++;
    cz_bc_pop(r, o2);
  }
  cz_bc_pop(r, old);
  if (e == CZ_OK) *count = (uint32_t)n;
  return e;
}

/* The leaf index the path spells (merkle/proof.rs path_index): mixed radix
 * over the levels' arities, least significant first. */
static cz_err set_challenge(cz_bc_reader *r, cz_merkle_proof *p) {
  unsigned __int128 c = 0, mult = 1; /* 40 levels of arity 8: 120 bits */
  for (size_t l = 0; l < p->n_levels; l++) {
    c += (unsigned __int128)p->index[l] * mult;
    mult *= p->arity[l];
  }
  if (c > (unsigned __int128)SIZE_MAX)
    return cz_bc_fail(r, CZ_ERR_PARSE, "the path's leaf index does not fit in 64 bits");
  p->challenge = (size_t)c;
  return CZ_OK;
}

cz_err cz_bc_merkle(cz_bc_reader *r, cz_merkle_hasher h, cz_vanilla_merkle *m) {
  memset(m, 0, sizeof *m);
  cz_merkle_proof *p = &m->proof;
  const uint8_t *b = NULL;
  cz_err e = take(r, 4, &b);
  if (e != CZ_OK) return e;
  m->variant = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  if (m->variant > 2)
    return cz_bc_fail(r, CZ_ERR_PARSE,
                      "unknown ProofData variant %u (expected 0 Single, 1 Sub, 2 Top)", m->variant);
  if (m->variant == 0) {
    if ((e = cz_bc_fr(r, ".root", &p->root)) != CZ_OK) return e;
    if ((e = cz_bc_fr(r, ".leaf", &p->leaf)) != CZ_OK) return e;
    if ((e = get_path(r, ".path", p, &m->n_base)) != CZ_OK) return e;
  } else {
    if ((e = get_path(r, ".base_proof", p, &m->n_base)) != CZ_OK) return e;
    if ((e = get_path(r, ".sub_proof", p, &m->n_sub)) != CZ_OK) return e;
    if (m->variant == 2 && (e = get_path(r, ".top_proof", p, &m->n_top)) != CZ_OK) return e;
    if ((e = cz_bc_fr(r, ".root", &p->root)) != CZ_OK) return e;
    if ((e = cz_bc_fr(r, ".leaf", &p->leaf)) != CZ_OK) return e;
  }
  p->shape.hasher = h;
  p->shape.base_arity = m->n_base ? p->arity[0] : 0;
  p->shape.sub_arity = m->n_sub ? p->arity[m->n_base] : 0;
  p->shape.top_arity = m->n_top ? p->arity[m->n_base + m->n_sub] : 0;
  return set_challenge(r, p);
}

cz_err cz_bc_merkle_prove(const cz_merkle_tree *t, uint64_t challenge, cz_vanilla_merkle *out) {
  if (!out) return CZ_ERR_INVALID_ARG;
  memset(out, 0, sizeof *out);
  if (!t || !t->nodes || challenge >= t->n_leaves) return CZ_ERR_INVALID_ARG;
  cz_err e = cz_merkle_prove(t, (size_t)challenge, &out->proof);
  if (e != CZ_OK) return e;
  const cz_merkle_shape *s = &t->shape;
  out->variant = s->top_arity ? 2u : s->sub_arity ? 1u : 0u;
  out->n_sub = s->sub_arity ? 1u : 0u;
  out->n_top = s->top_arity ? 1u : 0u;
  out->n_base = (uint32_t)out->proof.n_levels - out->n_sub - out->n_top;
  /* A bincode PathElement holds arity 2, 4 or 8. */
  for (size_t l = 0; l < out->proof.n_levels; l++)
    if (out->proof.arity[l] != 2 && out->proof.arity[l] != 4 && out->proof.arity[l] != 8) {
      memset(out, 0, sizeof *out);
      return CZ_ERR_INVALID_ARG;
    }
  return CZ_OK;
}

/* ---- Writer --------------------------------------------------------------- */

bool cz_bc_merkle_ok(const cz_vanilla_merkle *m) {
  const cz_merkle_proof *p = &m->proof;
  if (m->variant > 2 || (m->variant < 1 && m->n_sub) || (m->variant < 2 && m->n_top)) return false;
  if ((size_t)m->n_base + m->n_sub + m->n_top != p->n_levels || p->n_levels > CZ_MERKLE_MAX_LEVELS)
    return false;
  for (size_t l = 0; l < p->n_levels; l++) {
    unsigned a = p->arity[l];
    if ((a != 2 && a != 4 && a != 8) || p->index[l] >= a) return false;
  }
  return true;
}

static size_t path_bytes(const cz_merkle_proof *p, size_t from, size_t n) {
  size_t b = 8;
  for (size_t l = from; l < from + n; l++) b += 8 + (p->arity[l] - 1) * (size_t)CZ_BC_HASH + 8;
  return b;
}

size_t cz_bc_merkle_bytes(const cz_vanilla_merkle *m) {
  const cz_merkle_proof *p = &m->proof;
  size_t b = 4 + 2 * 32 + path_bytes(p, 0, m->n_base);
  if (m->variant >= 1) b += path_bytes(p, m->n_base, m->n_sub);
  if (m->variant == 2) b += path_bytes(p, m->n_base + m->n_sub, m->n_top);
  return b;
}

uint8_t *cz_bc_put_u64(uint8_t *o, uint64_t v) {
  for (int i = 0; i < 8; i++) o[i] = (uint8_t)(v >> (8 * i));
  return o + 8;
}

uint8_t *cz_bc_put_fr(uint8_t *o, const cz_fr *v) {
  cz_fr_to_bytes_le(o, v);
  return o + 32;
}

static uint8_t *put_path(uint8_t *o, const cz_merkle_proof *p, size_t from, size_t n) {
  o = cz_bc_put_u64(o, n);
  for (size_t l = from; l < from + n; l++) {
    o = cz_bc_put_u64(o, p->arity[l] - 1);
    for (unsigned j = 0; j + 1 < p->arity[l]; j++) o = cz_bc_put_fr(o, &p->siblings[l][j]);
    o = cz_bc_put_u64(o, p->index[l]);
  }
  return o;
}

uint8_t *cz_bc_put_merkle(uint8_t *o, const cz_vanilla_merkle *m) {
  const cz_merkle_proof *p = &m->proof;
  for (int i = 0; i < 4; i++) o[i] = (uint8_t)(m->variant >> (8 * i));
  o += 4;
  if (m->variant == 0) {
    o = cz_bc_put_fr(o, &p->root);
    o = cz_bc_put_fr(o, &p->leaf);
    return put_path(o, p, 0, m->n_base);
  }
  o = put_path(o, p, 0, m->n_base);
  o = put_path(o, p, m->n_base, m->n_sub);
  if (m->variant == 2) o = put_path(o, p, m->n_base + m->n_sub, m->n_top);
  o = cz_bc_put_fr(o, &p->root);
  return cz_bc_put_fr(o, &p->leaf);
}

cz_err cz_bc_read_all(const uint8_t *in, size_t len, size_t index,
                      cz_err (*get)(cz_bc_reader *r, void *out), void *out, char *msg,
                      size_t msg_len) {
  cz_bc_reader r;
  cz_bc_init(&r, in, len, msg, msg_len);
  cz_bc_push(&r, "vanilla_proofs[%zu]", index);
  cz_err e = get(&r, out);
  if (e == CZ_OK && r.left)
    e = cz_bc_fail(&r, CZ_ERR_TRAILING, "%zu bytes after the end of the proof", r.left);
  return e;
}
