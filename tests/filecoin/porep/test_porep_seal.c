/* Sealing test sectors and the native vanilla verifier: 2 KiB seals of V1
 * and V1_1 verify; every kind of tampering is caught and named; sealing is
 * deterministic; bad data is rejected; and a real sector sealed by
 * rust-fil-proofs (the polka-storage vector) is reproduced to its exact
 * comm_d and comm_r. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/poseidon.h"
#include "cuzk/porep.h"
#include "polka_sector.h"

static void input_for(cz_porep_seal_input *in, uint32_t id) {
  memset(in, 0, sizeof *in);
  in->registered = cz_registered_porep_by_id(id);
  in->sector_id = 4242;
  for (int i = 0; i < 32; i++) {
    in->prover_id[i] = (uint8_t)(i + 1);
    in->ticket[i] = (uint8_t)(0xa0 ^ i);
    in->seed[i] = (uint8_t)(0x50 + 3 * i);
  }
}

/* A deep copy (proofs are heap-owned). */
static bool c1_copy(cz_porep_c1 *dst, const cz_porep_c1 *src) {
  *dst = *src;
  size_t n = (size_t)src->n_partitions * src->n_challenges * sizeof *src->proofs;
  dst->proofs = malloc(n);
  if (!dst->proofs) return false;
  memcpy(dst->proofs, src->proofs, n);
  return true;
}

static bool fr_eq_bytes(const cz_fr *a, const uint8_t b[32]) {
  uint8_t x[32];
  cz_fr_to_bytes_le(x, a);
  return memcmp(x, b, 32) == 0;
}

/* What a correct seal must hold, checked through other code paths than the
 * sealer's own: replica_id, challenges, the three roots and comm_r, every
 * replica leaf = last label + data leaf, every column row the label. */
static void check_c1_structure(const cz_porep_c1 *c1, const cz_porep_seal_input *in,
                               const uint8_t porep_id[32]) {
  const cz_registered_porep *k = in->registered;
  CHECK(c1->registered == k);
  CHECK_EQ_INT(c1->n_partitions, k->partitions);
  CHECK_EQ_INT(c1->n_challenges, k->shape.challenges);
  uint8_t rid[32];
  cz_sdr_replica_id(rid, in->prover_id, in->sector_id, in->ticket, c1->comm_d, porep_id);
  CHECK_MEM(rid, c1->replica_id, 32);
  CHECK_MEM(c1->seed, in->seed, 32);
  CHECK_MEM(c1->ticket, in->ticket, 32);
  uint64_t ch[16];
  cz_sdr_challenges(ch, c1->n_challenges, k->shape.nodes, c1->replica_id, c1->seed, 0);
  for (uint32_t i = 0; i < c1->n_challenges; i++) {
    const cz_porep_challenge_proof *p = &c1->proofs[i];
    CHECK_EQ_INT(p->challenge, ch[i]);
    CHECK(fr_eq_bytes(&p->tree_d.root, c1->comm_d));
    CHECK(cz_merkle_verify(&p->tree_d));
    CHECK(cz_merkle_verify(&p->tree_r_last));
    CHECK(cz_merkle_verify(&p->c_x.tree_c));
    uint8_t comm_c[32], comm_r_last[32], comm_r[32];
    cz_fr_to_bytes_le(comm_c, &p->c_x.tree_c.root);
    cz_fr_to_bytes_le(comm_r_last, &p->tree_r_last.root);
    CHECK_EQ_INT(cz_sdr_comm_r(comm_r, comm_c, comm_r_last), CZ_OK);
    CHECK_MEM(comm_r, c1->comm_r, 32);
    /* The encoding: replica leaf - data leaf = the last layer's label. */
    cz_fr key;
    cz_fr_sub(&key, &p->tree_r_last.leaf, &p->tree_d.leaf);
    CHECK(cz_fr_eq(&key, &p->c_x.rows[k->shape.layers - 1]));
    /* Layer 1's first labeling parent is the first DRG parent's row. */
    CHECK(cz_fr_eq(&p->labeling[0].parents[0], &p->drg[0].rows[0]));
    CHECK(cz_fr_eq(&p->labeling[0].parents[6], &p->drg[0].rows[0]));  /* 6 repeat */
    CHECK(cz_fr_eq(&p->labeling[1].parents[6], &p->exp[0].rows[0]));  /* exp from below */
    CHECK(cz_fr_eq(&p->labeling[1].parents[14], &p->drg[0].rows[1])); /* 14 repeat */
    CHECK_EQ_INT(p->encoding.layer, k->shape.layers);
    uint32_t parents[CZ_SDR_DEGREE];
    cz_porep_config cfg;
    cz_registered_porep_config(k, &cfg);
    cz_sdr_graph g;
    CHECK_EQ_INT(cz_sdr_graph_init(&g, k->shape.nodes, porep_id, cfg.api), CZ_OK);
    cz_sdr_parents(&g, (uint32_t)p->challenge, parents);
    for (int j = 0; j < CZ_SDR_BASE_DEGREE; j++) CHECK_EQ_INT(p->drg[j].index, parents[j]);
    for (int j = 0; j < CZ_SDR_EXP_DEGREE; j++)
      CHECK_EQ_INT(p->exp[j].index, parents[CZ_SDR_BASE_DEGREE + j]);
  }
}

/* ---- Tampering ------------------------------------------------------------ */

typedef void (*tamper_fn)(cz_porep_c1 *c1);

static void bump(cz_fr *x) { cz_fr_add(x, x, &CZ_FR_ONE); }

static void t_d_sibling(cz_porep_c1 *c) { bump(&c->proofs[1].tree_d.siblings[3][0]); }
static void t_r_sibling(cz_porep_c1 *c) { bump(&c->proofs[0].tree_r_last.siblings[0][5]); }
static void t_c_sibling(cz_porep_c1 *c) { bump(&c->proofs[0].exp[2].tree_c.siblings[1][0]); }
static void t_cx_row(cz_porep_c1 *c) { bump(&c->proofs[0].c_x.rows[1]); }
static void t_drg_row(cz_porep_c1 *c) { bump(&c->proofs[1].drg[4].rows[0]); }
static void t_label_parent(cz_porep_c1 *c) { bump(&c->proofs[0].labeling[1].parents[10]); }
static void t_label_layer(cz_porep_c1 *c) { c->proofs[0].labeling[0].layer = 2; }
static void t_enc_parent(cz_porep_c1 *c) { bump(&c->proofs[1].encoding.parents[36]); }
static void t_enc_node(cz_porep_c1 *c) { c->proofs[0].encoding.node++; }
static void t_comm_r(cz_porep_c1 *c) { c->comm_r[0] ^= 1; }
static void t_comm_d(cz_porep_c1 *c) { c->comm_d[5] ^= 0x10; }
static void t_seed(cz_porep_c1 *c) { c->seed[31] ^= 0x80; }
static void t_replica_id(cz_porep_c1 *c) { c->replica_id[0] ^= 1; }
static void t_challenge(cz_porep_c1 *c) { c->proofs[1].challenge ^= 1; }
static void t_d_index(cz_porep_c1 *c) { c->proofs[0].tree_d.challenge ^= 2; }
static void t_col_index(cz_porep_c1 *c) { c->proofs[0].drg[1].index++; }
static void t_data_leaf(cz_porep_c1 *c) { bump(&c->proofs[0].tree_d.leaf); }
static void t_levels(cz_porep_c1 *c) { c->proofs[0].c_x.tree_c.n_levels--; }
static void t_comm_c_2nd(cz_porep_c1 *c) { bump(&c->proofs[1].c_x.tree_c.root); }
static void t_counts(cz_porep_c1 *c) { c->n_challenges = 1; }

static const struct {
  const char *name;
  tamper_fn fn;
  const char *want; /* a substring the message must contain */
} tampers[] = {
    {"tree D path sibling", t_d_sibling, "challenge 1: tree D inclusion proof does not verify"},
    {"tree R-last path sibling", t_r_sibling, "tree R-last inclusion proof does not verify"},
    {"tree C path sibling", t_c_sibling, "expander parent 2 column"},
    {"c_x column row", t_cx_row, "challenge column"},
    {"DRG column row", t_drg_row, "DRG parent 4 column"},
    {"labeling parent", t_label_parent, "labeling proof (layer 2): parent 10"},
    {"labeling layer", t_label_layer, "labeling proof is for layer 2"},
    {"encoding parent", t_enc_parent, "encoding proof (layer 2): parent 36"},
    {"encoding node", t_enc_node, "encoding proof is for layer"},
    {"comm_r", t_comm_r, "comm_r is not H(comm_c, comm_r_last)"},
    {"comm_d", t_comm_d, "tree D inclusion proof has another root"},
    {"seed", t_seed, "challenge index is"},
    {"replica_id", t_replica_id, "challenge index is"},
    {"challenge index", t_challenge, "partition 0 challenge 1: challenge index is"},
    {"tree D leaf index", t_d_index, "tree D inclusion proof is for another leaf"},
    {"column index", t_col_index, "DRG parent 1 column has index"},
    {"data leaf", t_data_leaf, "tree D inclusion proof does not verify"},
    {"path length", t_levels, "tree C inclusion proof has the wrong shape"},
    {"comm_c of a later proof", t_comm_c_2nd, "comm_c differs"},
    {"challenge count", t_counts, "challenges, the C1 has"},
};

static void test_tampering(const cz_porep_c1 *good) {
  for (size_t t = 0; t < sizeof tampers / sizeof tampers[0]; t++) {
    cz_porep_c1 bad;
    if (!c1_copy(&bad, good)) {
      CHECK(0);
      return;
    }
    tampers[t].fn(&bad);
    char msg[256] = "";
    cz_err e = cz_porep_vanilla_verify(&bad, msg, sizeof msg);
    bool named = strstr(msg, tampers[t].want) != NULL;
    if (e != CZ_ERR_PROOF_INVALID || !named)
      fprintf(stderr, "tamper '%s': err %d, message '%s' (want '%s')\n", tampers[t].name, e, msg,
              tampers[t].want);
    CHECK_EQ_INT(e, CZ_ERR_PROOF_INVALID);
    CHECK(named);
    bad.n_challenges = good->n_challenges;
    cz_porep_c1_free(&bad);
  }
}

/* A prover that committed tree R-last to a wrong replica (consistent paths,
 * comm_r recomputed): only the encoding check can catch it. */
static void test_wrong_replica(const cz_porep_c1 *good) {
  cz_porep_c1 bad;
  if (!c1_copy(&bad, good)) {
    CHECK(0);
    return;
  }
  const cz_registered_porep *k = good->registered;
  size_t n = (size_t)k->shape.nodes;
  cz_fr *leaves = malloc(n * sizeof *leaves);
  CHECK(leaves != NULL);
  if (!leaves) return;
  for (size_t i = 0; i < n; i++) cz_fr_from_u64(&leaves[i], 1000 + i);
  cz_merkle_tree t;
  CHECK_EQ_INT(cz_merkle_tree_build(&t, &k->shape.tree_r, leaves, n), CZ_OK);
  for (uint32_t i = 0; i < bad.n_challenges; i++)
    CHECK_EQ_INT(cz_merkle_prove(&t, bad.proofs[i].challenge, &bad.proofs[i].tree_r_last), CZ_OK);
  uint8_t comm_c[32], root[32];
  cz_fr_to_bytes_le(comm_c, &bad.proofs[0].c_x.tree_c.root);
  cz_fr_to_bytes_le(root, &t.root);
  CHECK_EQ_INT(cz_sdr_comm_r(bad.comm_r, comm_c, root), CZ_OK);
  char msg[256] = "";
  CHECK_EQ_INT(cz_porep_vanilla_verify(&bad, msg, sizeof msg), CZ_ERR_PROOF_INVALID);
  CHECK(strstr(msg, "partition 0 challenge 0: encoding: key + data leaf is not the replica leaf"));
  cz_merkle_tree_free(&t);
  free(leaves);
  cz_porep_c1_free(&bad);
}

static bool c1_equal(const cz_porep_c1 *a, const cz_porep_c1 *b) {
  return a->registered == b->registered && !memcmp(a->comm_r, b->comm_r, 32) &&
         !memcmp(a->comm_d, b->comm_d, 32) && !memcmp(a->replica_id, b->replica_id, 32) &&
         !memcmp(a->seed, b->seed, 32) && !memcmp(a->ticket, b->ticket, 32) &&
         a->n_partitions == b->n_partitions && a->n_challenges == b->n_challenges &&
         !memcmp(a->proofs, b->proofs,
                 (size_t)a->n_partitions * a->n_challenges * sizeof *a->proofs);
}

static void test_seal_2kib(uint32_t id) {
  cz_porep_seal_input in;
  input_for(&in, id);
  cz_porep_c1 c1, again;
  char msg[256] = "";
  CHECK_EQ_INT(cz_porep_seal(&in, &c1, 2, msg, sizeof msg), CZ_OK);
  if (!c1.proofs) {
    fprintf(stderr, "seal, registered proof %u: %s\n", id, msg);
    return;
  }
  uint8_t porep_id[32];
  cz_porep_id(porep_id, id, 0);
  check_c1_structure(&c1, &in, porep_id);
  CHECK_EQ_INT(cz_porep_vanilla_verify(&c1, msg, sizeof msg), CZ_OK);

  /* Deterministic, whatever the thread count. */
  CHECK_EQ_INT(cz_porep_seal(&in, &again, 1, msg, sizeof msg), CZ_OK);
  CHECK(c1_equal(&c1, &again));
  cz_porep_c1_free(&again);

  /* The same data passed explicitly gives the same C1. */
  uint8_t *data = malloc(in.registered->sector_size);
  CHECK(data != NULL);
  if (data) {
    cz_porep_default_data(data, in.registered->sector_size);
    in.data = data;
    CHECK_EQ_INT(cz_porep_seal(&in, &again, 0, msg, sizeof msg), CZ_OK);
    CHECK(c1_equal(&c1, &again));
    cz_porep_c1_free(&again);
    in.data = NULL;
    free(data);
  }

  /* A V1 proof does not verify as the V1_1 registered proof of the same size, nor the
   * other way round (porep_id and graph differ). */
  cz_porep_c1 other;
  if (c1_copy(&other, &c1)) {
    other.registered = cz_registered_porep_by_id(id < 5 ? id + 5 : id - 5);
    CHECK_EQ_INT(cz_porep_vanilla_verify(&other, msg, sizeof msg), CZ_ERR_PROOF_INVALID);
    cz_porep_c1_free(&other);
  }

  if (id == 5) {
    test_tampering(&c1);
    test_wrong_replica(&c1);
  }
  cz_porep_c1_free(&c1);
  cz_porep_c1_free(&c1); /* idempotent */
}

static void test_bad_input(void) {
  cz_porep_seal_input in;
  input_for(&in, 0);
  uint8_t data[2048];
  cz_porep_default_data(data, sizeof data);
  /* Default data: fr32-valid and distinct per chunk. */
  for (int i = 0; i < 64; i++) {
    CHECK_EQ_INT(data[32 * i + 31] & 0xc0, 0);
    if (i) CHECK(memcmp(data + 32 * i, data + 32 * (i - 1), 32) != 0);
  }
  /* Custom data seals to another comm_d; a chunk >= r is named. */
  data[100] ^= 0x5a;
  in.data = data;
  cz_porep_c1 c1, dflt;
  char msg[256] = "";
  CHECK_EQ_INT(cz_porep_seal(&in, &c1, 0, msg, sizeof msg), CZ_OK);
  in.data = NULL;
  CHECK_EQ_INT(cz_porep_seal(&in, &dflt, 0, msg, sizeof msg), CZ_OK);
  CHECK(memcmp(c1.comm_d, dflt.comm_d, 32) != 0);
  CHECK(memcmp(c1.comm_r, dflt.comm_r, 32) != 0);
  CHECK_EQ_INT(cz_porep_vanilla_verify(&c1, msg, sizeof msg), CZ_OK);
  cz_porep_c1_free(&c1);
  cz_porep_c1_free(&dflt);

  in.data = data;
  data[32 * 7 + 31] = 0x80; /* chunk 7 >= 2^255 > r */
  memset(&c1, 0x5a, sizeof c1);
  CHECK_EQ_INT(cz_porep_seal(&in, &c1, 0, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "data chunk 7 ") != NULL);
  CHECK(c1.proofs == NULL);
  /* Exactly r is not below r either. */
  static const uint8_t r_le[32] = {0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe,
                                   0xff, 0x02, 0xa4, 0xbd, 0x53, 0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8,
                                   0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};
  cz_porep_default_data(data, sizeof data);
  memcpy(data + 32 * 63, r_le, 32);
  CHECK_EQ_INT(cz_porep_seal(&in, &c1, 0, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "data chunk 63 ") != NULL);

  /* Sealing a 32 GiB sector in memory is refused, not attempted. */
  input_for(&in, 8);
  CHECK_EQ_INT(cz_porep_seal(&in, &c1, 0, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  in.registered = NULL;
  CHECK_EQ_INT(cz_porep_seal(&in, &c1, 0, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  /* A configuration of another size is refused. */
  input_for(&in, 5);
  cz_porep_config cfg;
  cz_registered_porep_config(cz_registered_porep_by_id(6), &cfg);
  CHECK_EQ_INT(cz_porep_seal_config(&in, &cfg, &c1, 0, msg, sizeof msg), CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(cz_porep_vanilla_verify(NULL, msg, sizeof msg), CZ_ERR_INVALID_ARG);
}

/* ---- The polka-storage sector --------------------------------------------- */

static bool json_hex(const char *json, const char *key, uint8_t out[32]) {
  const char *p = strstr(json, key);
  if (!p || !(p = strchr(p + strlen(key), ':')) || !(p = strchr(p, '"'))) return false;
  char hex[65];
  memcpy(hex, p + 1, 64);
  hex[64] = 0;
  return check_hex(out, 32, hex) == 32;
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = malloc(1 << 16);
  size_t n = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
  fclose(f);
  if (buf) buf[n] = 0;
  *len = n;
  return buf;
}

/* The sector behind tests/vectors/porep-2kib-v1_1: polka-storage's
 * `utils po-rep` sealed examples/test-data-big.car (2032 bytes, one piece
 * filling the sector; its commP CID in maat/generate_porep_proof.sh,
 * baga6ea4seaqbfhdvmk5qygevit25ztjwl7voyikb5k2fqcl2lsuefhaqtukuiii, has
 * digest 129c7562..., the vector's comm_d) with sector 77, prover 0, ticket
 * 0x0c.., porep_id zero and ApiVersion 1.2.0 (same graph as 1.1.0). Our
 * seal must reproduce comm_d and comm_r exactly. */
static void test_polka_sector(void) {
  size_t vlen = 0, clen = 0;
  char *vec = slurp(PR_VECTOR, &vlen);
  char *car = slurp(POLKA_CAR, &clen);
  CHECK(vec != NULL);
  CHECK(car != NULL);
  CHECK_EQ_INT(clen, 2032);
  uint8_t comm_d[32], comm_r[32], replica_id[32], ticket[32], seed[32];
  CHECK(vec && json_hex(vec, "\"comm_d_hex\"", comm_d));
  CHECK(vec && json_hex(vec, "\"comm_r_hex\"", comm_r));
  CHECK(vec && json_hex(vec, "\"replica_id_hex\"", replica_id));
  CHECK(vec && json_hex(vec, "\"ticket_hex\"", ticket));
  CHECK(vec && json_hex(vec, "\"seed_hex\"", seed));
  CHECK(vec && strstr(vec, "\"sector_id\": 77") != NULL);
  if (!vec || !car || clen != 2032) {
    free(vec);
    free(car);
    return;
  }
  uint8_t sector[2048];
  fr32_pad(sector, (const uint8_t *)car, clen);

  cz_porep_seal_input in;
  memset(&in, 0, sizeof in);
  in.registered = cz_registered_porep_by_id(5);
  in.sector_id = 77;
  memcpy(in.ticket, ticket, 32);
  memcpy(in.seed, seed, 32);
  in.data = sector;
  cz_porep_config cfg;
  cz_registered_porep_config(in.registered, &cfg);
  memset(cfg.porep_id, 0, 32);
  for (int api = CZ_API_1_1_0; api <= CZ_API_1_2_0; api++) {
    cfg.api = (cz_api_version)api;
    cz_porep_c1 c1;
    char msg[256] = "";
    CHECK_EQ_INT(cz_porep_seal_config(&in, &cfg, &c1, 0, msg, sizeof msg), CZ_OK);
    if (!c1.proofs) continue;
    CHECK_MEM(c1.comm_d, comm_d, 32);
    CHECK_MEM(c1.comm_r, comm_r, 32);
    CHECK_MEM(c1.replica_id, replica_id, 32);
    /* The vector's challenges, 37 and 29. */
    CHECK_EQ_INT(c1.proofs[0].challenge, 37);
    CHECK_EQ_INT(c1.proofs[1].challenge, 29);
    CHECK_EQ_INT(cz_porep_vanilla_verify_config(&c1, &cfg, msg, sizeof msg), CZ_OK);
    /* Under the registered proof's own porep_id it is not valid. */
    CHECK_EQ_INT(cz_porep_vanilla_verify(&c1, msg, sizeof msg), CZ_ERR_PROOF_INVALID);
    cz_porep_c1_free(&c1);
  }
  /* 1.0.0 graph semantics give another comm_r. */
  cfg.api = CZ_API_1_0_0;
  cz_porep_c1 c1;
  CHECK_EQ_INT(cz_porep_seal_config(&in, &cfg, &c1, 0, NULL, 0), CZ_OK);
  CHECK_MEM(c1.comm_d, comm_d, 32);
  CHECK(memcmp(c1.comm_r, comm_r, 32) != 0);
  cz_porep_c1_free(&c1);
  free(vec);
  free(car);
}

/* Progress: one phase "seal" of nodes x (layers + 3) + one per challenge,
 * counted to its end. Reports may come from several threads. */
typedef struct {
  _Atomic uint64_t calls, max_done;
  uint64_t total;
  bool other_phase;
} seal_seen;

static void seal_record(void *ctx, const char *phase, const char *unit, uint64_t done,
                        uint64_t total) {
  seal_seen *s = ctx;
  if (strcmp(phase, "seal") || strcmp(unit, "nodes")) s->other_phase = true;
  uint64_t cur = atomic_load(&s->max_done);
  while (done > cur && !atomic_compare_exchange_weak(&s->max_done, &cur, done)) {
  }
  s->total = total;
  atomic_fetch_add(&s->calls, 1);
}

static void test_seal_progress(void) {
  cz_porep_seal_input in;
  input_for(&in, 5);
  seal_seen s = {0};
  cz_progress pr = {seal_record, &s};
  in.progress = &pr;
  cz_porep_c1 c1;
  char msg[256];
  CHECK(cz_porep_seal(&in, &c1, 2, msg, sizeof msg) == CZ_OK);
  /* 2 KiB: 64 nodes, 2 layers; 2 challenges x 1 partition (seal 5). */
  uint64_t want = 64 * (2 + 3) + (uint64_t)c1.n_partitions * c1.n_challenges;
  CHECK_EQ_INT(s.total, want);
  CHECK_EQ_INT(atomic_load(&s.max_done), want);
  CHECK(atomic_load(&s.calls) >= 6 && !s.other_phase);
  cz_porep_c1_free(&c1);
}

int main(void) {
  test_seal_progress();
  test_seal_2kib(0);
  test_seal_2kib(5);
  test_bad_input();
  test_polka_sector();
  return check_report("porep_seal");
}
