/* C1 JSON out: cz_porep_c1_to_json writes filecoin-proofs' serde JSON of
 * SealCommitPhase1Output (the shapes are listed in porep_c1_read.c), with
 * no whitespace, fields in the order serde writes them: the form the
 * reader and filecoin-proofs itself read. One pass into a doubling buffer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/porep.h"
#include "filecoin/porep/porep_c1_trees.h"

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
    put_str(w, extra == 1 ? "{\"data\":{\"Sub\":{\"base_proof\":"
                          : "{\"data\":{\"Top\":{\"base_proof\":");
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

static void put_column(wbuf *w, const cz_registered_porep *k, const cz_porep_column *c) {
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

static void put_challenge(wbuf *w, const cz_registered_porep *k,
                          const cz_porep_challenge_proof *cp) {
  PUT(w, "{\"comm_d_proofs\":");
  put_merkle(w, &CZ_POREP_TREE_D_SHAPE, &cp->tree_d);
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
  if (!c1 || !c1->registered || (!c1->proofs && c1->n_partitions && c1->n_challenges))
    return CZ_ERR_INVALID_ARG;
  const cz_registered_porep *k = c1->registered;
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
