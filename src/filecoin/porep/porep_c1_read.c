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
 * A 32 GiB C1 is ~39 MB of such arrays, so this is a single pass over the
 * buffer straight into the model (util/json_scan.h): no DOM, no copies.
 * The writer is porep_c1_write.c, the synthetic C1 porep_c1_synthetic.c. */
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/porep.h"
#include "filecoin/porep/porep_c1_trees.h"
#include "util/json_scan.h"
#include "util/msg.h"

#ifndef MAP_POPULATE
#define MAP_POPULATE 0 /* read-ahead is only a hint */
#endif

/* A Domain (PoseidonDomain / Sha256Domain): 32 bytes, an Fr below r. */
static bool parse_fr(cz_json *j, cz_fr *out) {
  uint8_t b[32];
  if (!cz_json_bytes32(j, b)) return false;
  if (cz_fr_from_bytes_le(out, b) != CZ_OK)
    return cz_json_fail(j, CZ_ERR_NONCANONICAL, "value >= r");
  return true;
}

/* InclusionPath {path: [PathElement {hashes: [arity - 1], index < arity}]}
 * into levels first .. first + n of p. */
static bool parse_inclusion_path(cz_json *j, cz_merkle_proof *p, size_t first, size_t n,
                                 unsigned arity) {
  static const char *const F[] = {"path"};
  static const char *const E[] = {"hashes", "index"};
  cz_json_obj o;
  int f;
  if (!cz_json_obj_begin(j, &o, F, 1)) return false;
  while ((f = cz_json_obj_field(j, &o)) >= 0) {
    cz_json_arr a;
    if (!cz_json_arr_begin(j, &a, n, "path elements")) return false;
    while (cz_json_arr_next(j, &a)) {
      size_t l = first + (size_t)a.i - 1;
      p->arity[l] = arity;
      cz_json_obj e;
      int g;
      if (!cz_json_obj_begin(j, &e, E, 2)) return false;
      while ((g = cz_json_obj_field(j, &e)) >= 0) {
        if (g == 0) {
          cz_json_arr h;
          if (!cz_json_arr_begin(j, &h, arity - 1, "hashes")) return false;
          while (cz_json_arr_next(j, &h)) parse_fr(j, &p->siblings[l][h.i - 1]);
        } else {
          uint64_t v = 0;
          if (cz_json_uint(j, UINT64_MAX, &v) && v >= arity)
            cz_json_fail(j, CZ_ERR_PARSE, "index %llu >= arity %u", (unsigned long long)v, arity);
          p->index[l] = (unsigned)v;
        }
      }
      if (g == CZ_JSON_ERROR) return false;
    }
    if (j->ep.err) return false;
  }
  return f == CZ_JSON_END;
}

/* MerkleProof {data: ProofData}: the variant the tree's shape calls for. */
static bool parse_merkle(cz_json *j, const cz_porep_tree_spec *t, cz_merkle_proof *p) {
  static const char *const F[] = {"data"};
  static const char *const VARIANTS[] = {"Single", "Sub", "Top"};
  static const char *const SINGLE[] = {"root", "leaf", "path"};
  static const char *const SUB[] = {"base_proof", "sub_proof", "root", "leaf"};
  static const char *const TOP[] = {"base_proof", "sub_proof", "top_proof", "root", "leaf"};
  const cz_merkle_shape *s = &t->shape;
  unsigned want = s->top_arity ? 2 : s->sub_arity ? 1 : 0;
  cz_json_obj o;
  int f;
  if (!cz_json_obj_begin(j, &o, F, 1)) return false;
  while ((f = cz_json_obj_field(j, &o)) >= 0) {
    /* Externally tagged enum: an object of exactly one key. */
    if (!cz_json_expect(j, '{', "'{' (a Single, Sub or Top proof)")) return false;
    char v[16];
    size_t vlen;
    if (!cz_json_short_string(j, v, sizeof v, &vlen)) return false;
    unsigned k = 0;
    while (k < 3 && !(strlen(VARIANTS[k]) == vlen && memcmp(VARIANTS[k], v, vlen) == 0)) k++;
    if (k == 3) return cz_json_fail(j, CZ_ERR_PARSE, "unknown variant `%s`", v);
    if (k != want)
      return cz_json_fail(j, CZ_ERR_PARSE, "a %s proof where this tree needs %s", VARIANTS[k],
                          VARIANTS[want]);
    if (!cz_json_expect(j, ':', "':'")) return false;
    cz_errpath_push_key(&j->ep, VARIANTS[k]);
    const char *const *names = k == 0 ? SINGLE : k == 1 ? SUB : TOP;
    unsigned nf = k == 0 ? 3 : k == 1 ? 4 : 5;
    cz_json_obj d;
    int g;
    if (!cz_json_obj_begin(j, &d, names, nf)) return false;
    while ((g = cz_json_obj_field(j, &d)) >= 0) {
      const char *name = names[g];
      if (strcmp(name, "root") == 0) parse_fr(j, &p->root);
      else if (strcmp(name, "leaf") == 0) parse_fr(j, &p->leaf);
      else if (strcmp(name, "path") == 0 || strcmp(name, "base_proof") == 0)
        parse_inclusion_path(j, p, 0, t->base_levels, s->base_arity);
      else if (strcmp(name, "sub_proof") == 0)
        parse_inclusion_path(j, p, t->base_levels, 1, s->sub_arity);
      else parse_inclusion_path(j, p, t->base_levels + 1, 1, s->top_arity);
    }
    if (g == CZ_JSON_ERROR) return false;
    cz_errpath_pop(&j->ep);
    if (!cz_json_expect(j, '}', "'}' (one variant only)")) return false;
  }
  if (f == CZ_JSON_ERROR) return false;
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
  const cz_registered_porep *registered;
  cz_porep_tree_spec tree_d, tree_r;
} c1_spec;

/* ColumnProof {column: Column {index, rows, _h}, inclusion_proof}. */
static bool parse_column(cz_json *j, const c1_spec *cs, cz_porep_column *c) {
  static const char *const F[] = {"column", "inclusion_proof"};
  static const char *const COL[] = {"index", "rows", "_h"};
  cz_json_obj o;
  int f;
  if (!cz_json_obj_begin(j, &o, F, 2)) return false;
  while ((f = cz_json_obj_field(j, &o)) >= 0) {
    if (f == 1) {
      parse_merkle(j, &cs->tree_r, &c->tree_c);
      continue;
    }
    cz_json_obj q;
    int g;
    if (!cz_json_obj_begin(j, &q, COL, 3)) return false;
    while ((g = cz_json_obj_field(j, &q)) >= 0) {
      if (g == 0) {
        uint64_t v = 0;
        if (cz_json_uint(j, UINT32_MAX, &v) && v >= cs->registered->shape.nodes)
          cz_json_fail(j, CZ_ERR_PARSE, "node %llu >= %llu nodes", (unsigned long long)v,
                       (unsigned long long)cs->registered->shape.nodes);
        c->index = (uint32_t)v;
      } else if (g == 1) {
        cz_json_arr a;
        if (!cz_json_arr_begin(j, &a, cs->registered->shape.layers, "rows (one per layer)"))
          return false;
        while (cz_json_arr_next(j, &a)) parse_fr(j, &c->rows[a.i - 1]);
      } else {
        cz_json_null(j);
      }
    }
    if (g == CZ_JSON_ERROR) return false;
  }
  return f == CZ_JSON_END;
}

/* LabelingProof / EncodingProof {parents: [37], layer_index, node}. */
static bool parse_labeling(cz_json *j, const c1_spec *cs, cz_porep_labeling *lp, uint32_t layer) {
  static const char *const F[] = {"parents", "layer_index", "node"};
  cz_json_obj o;
  int f;
  if (!cz_json_obj_begin(j, &o, F, 3)) return false;
  while ((f = cz_json_obj_field(j, &o)) >= 0) {
    uint64_t v = 0;
    if (f == 0) {
      cz_json_arr a;
      if (!cz_json_arr_begin(j, &a, CZ_POREP_LABEL_PARENTS, "parents")) return false;
      while (cz_json_arr_next(j, &a)) parse_fr(j, &lp->parents[a.i - 1]);
    } else if (f == 1) {
      if (cz_json_uint(j, UINT32_MAX, &v) && v != layer)
        cz_json_fail(j, CZ_ERR_PARSE, "layer %llu where layer %u belongs", (unsigned long long)v,
                     layer);
      lp->layer = (uint32_t)v;
    } else {
      if (cz_json_uint(j, UINT64_MAX, &v) && v >= cs->registered->shape.nodes)
        cz_json_fail(j, CZ_ERR_PARSE, "node %llu >= %llu nodes", (unsigned long long)v,
                     (unsigned long long)cs->registered->shape.nodes);
      lp->node = v;
    }
  }
  return f == CZ_JSON_END;
}

/* ReplicaColumnProof {c_x, drg_parents: [6], exp_parents: [8]}. */
static bool parse_replica_columns(cz_json *j, const c1_spec *cs, cz_porep_challenge_proof *cp) {
  static const char *const F[] = {"c_x", "drg_parents", "exp_parents"};
  cz_json_obj o;
  int f;
  if (!cz_json_obj_begin(j, &o, F, 3)) return false;
  while ((f = cz_json_obj_field(j, &o)) >= 0) {
    if (f == 0) {
      parse_column(j, cs, &cp->c_x);
      continue;
    }
    cz_json_arr a;
    cz_porep_column *cols = f == 1 ? cp->drg : cp->exp;
    uint64_t n = f == 1 ? CZ_SDR_BASE_DEGREE : CZ_SDR_EXP_DEGREE;
    if (!cz_json_arr_begin(j, &a, n, "parent columns")) return false;
    while (cz_json_arr_next(j, &a)) parse_column(j, cs, &cols[a.i - 1]);
  }
  return f == CZ_JSON_END;
}

/* stacked::Proof: one challenge. */
static bool parse_challenge(cz_json *j, const c1_spec *cs, cz_porep_challenge_proof *cp) {
  static const char *const F[] = {"comm_d_proofs", "comm_r_last_proof", "replica_column_proofs",
                                  "labeling_proofs", "encoding_proof"};
  uint32_t layers = cs->registered->shape.layers;
  cz_json_obj o;
  int f;
  if (!cz_json_obj_begin(j, &o, F, 5)) return false;
  while ((f = cz_json_obj_field(j, &o)) >= 0) {
    switch (f) {
      case 0: parse_merkle(j, &cs->tree_d, &cp->tree_d); break;
      case 1: parse_merkle(j, &cs->tree_r, &cp->tree_r_last); break;
      case 2: parse_replica_columns(j, cs, cp); break;
      case 3: {
        cz_json_arr a;
        if (!cz_json_arr_begin(j, &a, layers, "labeling proofs (one per layer)")) return false;
        while (cz_json_arr_next(j, &a))
          parse_labeling(j, cs, &cp->labeling[a.i - 1], (uint32_t)a.i);
        break;
      }
      default: parse_labeling(j, cs, &cp->encoding, layers); break;
    }
  }
  if (f == CZ_JSON_ERROR) return false;
  cp->challenge = cp->tree_d.challenge;
  return true;
}

/* vanilla_proofs: {"StackedDrg<size>V1": [[Proof; challenges]; partitions]}.
 * The tag fixes the proofs' shapes; the partitions are the registered
 * proof's (known when registered_proof came first), else anything from
 * the interactive count to NI-PoRep's, checked by the caller once
 * registered_proof is read. */
static bool parse_vanilla(cz_json *j, cz_porep_c1 *c1, const cz_registered_porep *known,
                          const cz_registered_porep **tag_registered) {
  if (!cz_json_expect(j, '{', "'{' (a StackedDrg<size>V1 variant)")) return false;
  char tag[32];
  size_t len;
  if (!cz_json_short_string(j, tag, sizeof tag, &len)) return false;
  const cz_registered_porep *k = NULL;
  for (uint32_t id = 0; id < 5 && !k; id++) {
    const cz_registered_porep *c = cz_registered_porep_by_id(id);
    if (strlen(c->vanilla_tag) == len && memcmp(c->vanilla_tag, tag, len) == 0) k = c;
  }
  if (!k) return cz_json_fail(j, CZ_ERR_PARSE, "unknown variant `%s`", tag);
  if (!cz_json_expect(j, ':', "':'")) return false;
  /* The largest partition count of the tag's registered proofs (NI-PoRep's), or the
   * registered proof's own. */
  const cz_registered_porep *room = k;
  for (uint32_t id = 0; id < CZ_REGISTERED_POREP_COUNT; id++) {
    const cz_registered_porep *c = cz_registered_porep_by_id(id);
    if (!strcmp(c->vanilla_tag, k->vanilla_tag) && c->partitions > room->partitions) room = c;
  }
  bool exact = known && !strcmp(known->vanilla_tag, k->vanilla_tag);
  if (exact) room = known;
  if (cz_porep_c1_alloc(c1, room) != CZ_OK) return cz_json_fail(j, CZ_ERR_NOMEM, "out of memory");
  *tag_registered = k;
  c1_spec cs = {.registered = k};
  cz_porep_tree_spec_init(&cs.tree_d, &CZ_POREP_TREE_D_SHAPE, k->shape.nodes);
  cz_porep_tree_spec_init(&cs.tree_r, &k->shape.tree_r, k->shape.nodes);
  cz_json_arr pa;
  if (!cz_json_arr_begin_range(j, &pa, exact ? room->partitions : k->partitions, room->partitions,
                               "partitions"))
    return false;
  while (cz_json_arr_next(j, &pa)) {
    cz_json_arr ca;
    if (!cz_json_arr_begin(j, &ca, c1->n_challenges, "challenges per partition")) return false;
    while (cz_json_arr_next(j, &ca)) {
      size_t at = (size_t)(pa.i - 1) * c1->n_challenges + (size_t)(ca.i - 1);
      if (!parse_challenge(j, &cs, &c1->proofs[at])) return false;
    }
    if (j->ep.err) return false;
  }
  if (j->ep.err) return false;
  c1->n_partitions = (uint32_t)pa.i;
  return cz_json_expect(j, '}', "'}' (one variant only)");
}

static bool all_zero(const uint8_t b[32]) {
  uint8_t o = 0;
  for (int i = 0; i < 32; i++) o |= b[i];
  return o == 0;
}

/* SealCommitPhase1Output, from its '{'. */
static bool parse_c1(cz_json *j, cz_porep_c1 *c1) {
  static const char *const F[] = {"registered_proof", "vanilla_proofs", "comm_r", "comm_d",
                                  "replica_id",       "seed",           "ticket"};
  const cz_registered_porep *registered = NULL, *tag_registered = NULL;
  uint8_t *bytes[] = {NULL, NULL, c1->comm_r, c1->comm_d, c1->replica_id, c1->seed, c1->ticket};
  uint8_t tmp[5][32] = {{0}};
  cz_json_obj o;
  int f;
  if (!cz_json_obj_begin(j, &o, F, 7)) return false;
  while ((f = cz_json_obj_field(j, &o)) >= 0) {
    if (f == 0) {
      char name[64];
      size_t len;
      if (!cz_json_short_string(j, name, sizeof name, &len)) return false;
      registered = len < sizeof name ? cz_registered_porep_by_name(name) : NULL;
      if (!registered)
        return cz_json_fail(j, CZ_ERR_INVALID_ARG, "unknown or unsupported registered proof `%s`",
                            name);
    } else if (f == 1) {
      if (!parse_vanilla(j, c1, registered, &tag_registered)) return false;
    } else {
      /* c1 is (re)allocated by parse_vanilla: keep the bytes aside. */
      if (!cz_json_bytes32(j, tmp[f - 2])) return false;
    }
    if (registered && tag_registered &&
        strcmp(registered->vanilla_tag, tag_registered->vanilla_tag) != 0) {
      cz_json_obj_leave_field(j, &o);
      return cz_json_fail(j, CZ_ERR_PARSE, "registered_proof %s does not match vanilla_proofs %s",
                          registered->name, tag_registered->vanilla_tag);
    }
  }
  if (f == CZ_JSON_ERROR) return false;
  if (registered && tag_registered && c1->n_partitions != registered->partitions)
    return cz_json_fail(j, CZ_ERR_PARSE, "vanilla_proofs: %s has %u partitions, found %u",
                        registered->name, (unsigned)registered->partitions,
                        (unsigned)c1->n_partitions);
  for (int i = 2; i < 7; i++) memcpy(bytes[i], tmp[i - 2], 32);
  c1->registered = registered;
  /* comm_r, comm_d and replica_id are Fr; seed and ticket are randomness. */
  static const char *const FR_NAMES[] = {"comm_r", "comm_d", "replica_id"};
  for (int i = 0; i < 3; i++) {
    cz_fr x;
    if (cz_fr_from_bytes_le(&x, bytes[i + 2]) != CZ_OK)
      return cz_json_fail(j, CZ_ERR_NONCANONICAL, "%s: value >= r", FR_NAMES[i]);
  }
  if (all_zero(c1->comm_d)) return cz_json_fail(j, CZ_ERR_INVALID_ARG, "comm_d: all zero");
  if (all_zero(c1->comm_r)) return cz_json_fail(j, CZ_ERR_INVALID_ARG, "comm_r: all zero");
  if (all_zero(c1->seed)) return cz_json_fail(j, CZ_ERR_INVALID_ARG, "seed: all zero");
  return true;
}

static bool parse_document(cz_json *j, cz_porep_c1 *c1);

/* {"SectorNum": N, "Phase1Out": "<base64 of the C1 JSON>", "SectorSize": S}. */
static bool parse_wrapper(cz_json *j, cz_porep_c1 *c1) {
  static const char *const F[] = {"SectorNum", "Phase1Out", "SectorSize"};
  uint64_t num = 0, size = 0;
  cz_json_obj o;
  int f;
  if (!cz_json_obj_begin(j, &o, F, 3)) return false;
  while ((f = cz_json_obj_field(j, &o)) >= 0) {
    if (f == 0) {
      cz_json_uint(j, UINT64_MAX, &num);
    } else if (f == 2) {
      cz_json_uint(j, UINT64_MAX, &size);
    } else {
      const char *s;
      size_t n, len = 0;
      bool esc;
      if (!cz_json_scan_string(j, &s, &n, &esc)) return false;
      uint8_t *buf = malloc(n / 4 * 3 + 3);
      if (!buf) return cz_json_fail(j, CZ_ERR_NOMEM, "out of memory");
      if (!cz_json_base64(j, s, n, buf, &len)) {
        free(buf);
        return false;
      }
      cz_json in;
      cz_json_init(&in, (const char *)buf, len, j->ep.msg, j->ep.msg_len, "Phase1Out: ");
      bool ok = parse_document(&in, c1);
      free(buf);
      if (!ok) {
        j->ep.err = in.ep.err;
        return false;
      }
    }
  }
  if (f == CZ_JSON_ERROR) return false;
  if (size != c1->registered->sector_size)
    return cz_json_fail(j, CZ_ERR_PARSE, "SectorSize %llu does not match %s (%llu bytes)",
                        (unsigned long long)size, c1->registered->name,
                        (unsigned long long)c1->registered->sector_size);
  c1->has_sector_num = true;
  c1->sector_num = num;
  return true;
}

/* The C1 JSON proper (no wrapper): one object and nothing after it. */
static bool parse_document(cz_json *j, cz_porep_c1 *c1) {
  return parse_c1(j, c1) && cz_json_end(j);
}

cz_err cz_porep_c1_parse(cz_porep_c1 *out, const char *json, size_t len, char *msg,
                         size_t msg_len) {
  memset(out, 0, sizeof *out);
  if (msg && msg_len) msg[0] = 0;
  if (!json) return CZ_ERR_INVALID_ARG;
  /* The first key tells Curio's wrapper from the C1 itself. The peek
   * writes no message (msg NULL): the real parse reports. */
  bool wrapper = false;
  cz_json j;
  cz_json_init(&j, json, len, NULL, 0, NULL);
  if (cz_json_eat(&j, '{')) {
    char key[16];
    size_t klen;
    cz_json_ws(&j);
    if (j.p < j.end && *j.p == '"' && cz_json_short_string(&j, key, sizeof key, &klen))
      wrapper = strcmp(key, "SectorNum") == 0 || strcmp(key, "Phase1Out") == 0 ||
                strcmp(key, "SectorSize") == 0;
  }
  cz_json_init(&j, json, len, msg, msg_len, NULL);
  bool ok = wrapper ? parse_wrapper(&j, out) && cz_json_end(&j) : parse_document(&j, out);
  if (!ok) {
    cz_porep_c1_free(out);
    return j.ep.err != CZ_OK ? j.ep.err : CZ_ERR_PARSE;
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
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "%s: cannot open (not a readable regular file)",
                      path ? path : "(null)");
  }
  size_t size = (size_t)st.st_size;
  /* Map the file (a 32 GiB C1 is ~39 MB: no copy, pages read ahead in
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
    cz_err e = buf ? CZ_ERR_IO : CZ_ERR_NOMEM;
    free(buf);
    return cz_msg_err(msg, msg_len, e, "%s: %s", path,
                      e == CZ_ERR_IO ? "cannot read" : "out of memory");
  }
  cz_err e = cz_porep_c1_parse(out, buf, size, msg, msg_len);
  free(buf);
  return e;
}
