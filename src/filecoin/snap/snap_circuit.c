/* The empty-sector-update circuit (storage-proofs-update circuit.rs
 * EmptySectorUpdateCircuit::synthesize, gadgets.rs), in its allocation
 * order (cuzk/snap_circuit.h). Its constraint counts are rust-fil-proofs'
 * tests/circuit.rs assertions (tests/filecoin/snap/test_snap_circuit.c):
 * 2 KiB 1,705,039, of which 10 x 3 SHA-256 levels to the apex leaves and 7
 * apex-tree hashes dominate (each SHA-256 hash2 is about 27.9k). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/cs_slots.h"
#include "cuzk/por.h"
#include "cuzk/poseidon_gadget.h"
#include "cuzk/snap_circuit.h"
#include "util/msg.h"

static const cz_merkle_shape TREE_D = {CZ_MERKLE_SHA256, 2, 0, 0};

/* 16 partitions at most (constants.rs partition_count). */
#define MAX_PARTITION_BITS 4

static unsigned log2u64(uint64_t v) {
  unsigned k = 0;
  while (k < 63 && (1ull << k) < v) k++;
  return k;
}

/* (sum coeff[i] * a[i]) * b = c, named; coeff NULL means all ones. The LCs
 * are built only when the system keeps them, but the constraint always
 * counts. */
static void enforce_sum(cz_cs *cs, const cz_var *a, const cz_fr *coeff, size_t n, cz_var b,
                        cz_var c, const char *name) {
  cz_lc la, lb, lc;
  bool build = cz_cs_needs_constraints(cs);
  cz_lc_init_layout(&la, CZ_LC_VEC, 0, NULL);
  cz_lc_init_layout(&lb, CZ_LC_VEC, 0, NULL);
  cz_lc_init_layout(&lc, CZ_LC_VEC, 0, NULL);
  if (build) {
    for (size_t i = 0; i < n; i++) cz_lc_add_term(&la, a[i], coeff ? &coeff[i] : &CZ_FR_ONE);
    cz_lc_add(&lb, b);
    cz_lc_add(&lc, c);
  }
  CZ_ENFORCE(cs, &la, &lb, &lc, "%s", name);
  cz_lc_free(&la);
  cz_lc_free(&lb);
  cz_lc_free(&lc);
}

static void alloc_named(cz_cs *cs, cz_anum *out, const cz_fr *value, const char *ns) {
  CZ_PUSH_NS(cs, "%s", ns);
  cz_cs_sticky(cz_anum_alloc(cs, out, value ? value : &CZ_FR_ZERO));
  CZ_POP_NS(cs);
}

static void pow2_table(cz_fr *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (i == 0) p[0] = CZ_FR_ONE;
    else cz_fr_add(&p[i], &p[i - 1], &p[i - 1]);
  }
}

/* genrand(a, b) in namespace ns. */
static cz_err genrand(cz_cs *cs, const cz_anum *a, const cz_anum *b, cz_anum *out, const char *ns) {
  cz_anum in[2] = {*a, *b};
  CZ_PUSH_NS(cs, "%s", ns);
  cz_err e = cz_poseidon_hash_circuit(cs, cz_snap_genrand_params(), in, out);
  CZ_POP_NS(cs);
  return e;
}

/* The synthesis state: the sizes, and the variables every challenge uses. */
typedef struct {
  cz_cs *cs;
  const cz_snap_shape *s;
  const cz_snap_partition_proof *w; /* NULL without values */
  unsigned challenge_bits, partition_bits, apex_bits;
  size_t r_levels;
  unsigned r_arity[CZ_MERKLE_MAX_LEVELS];
  cz_abit kh_bits[MAX_PARTITION_BITS + CZ_SNAP_N_HS]; /* partition bits, then h_select bits */
  cz_anum comm_r_new, phi, root_r_old, root_r_new, partition;
  cz_anum apex[CZ_SELECT_MAX];
} snap_ctx;

/* ---- Checks ---------------------------------------------------------------- */

static bool shape_known(const cz_snap_shape *s) {
  cz_snap_shape want;
  return s && cz_snap_shape_of(s->nodes, &want) && memcmp(&want, s, sizeof want) == 0;
}

static bool path_ok(const cz_vanilla_merkle *m, const unsigned *arity, size_t levels) {
  if (m->proof.n_levels != levels) return false;
  for (size_t l = 0; l < levels; l++)
    if (m->proof.arity[l] != arity[l]) return false;
  return true;
}

static bool witness_ok(const snap_ctx *x, const cz_snap_public *pub) {
  const cz_snap_partition_proof *w = x->w;
  if (!pub || !w || w->n_apex != x->s->apex_leaves || w->n_challenges != x->s->challenges ||
      !w->apex_leaves || !w->challenges)
    return false;
  /* k_and_h_select: k, exactly one h_select bit, nothing above. */
  uint8_t b[32];
  cz_fr_to_bytes_le(b, &pub->k_and_h_select);
  unsigned ones = 0, top = x->partition_bits + CZ_SNAP_N_HS;
  for (unsigned i = 0; i < 256; i++) {
    bool bit = b[i / 8] >> (i % 8) & 1;
    if (bit && i >= top) return false;
    ones += bit && i >= x->partition_bits;
  }
  if (ones != 1) return false;
  unsigned d_arity[CZ_MERKLE_MAX_LEVELS];
  for (size_t l = 0; l < x->challenge_bits; l++) d_arity[l] = 2;
  for (size_t i = 0; i < w->n_challenges; i++) {
    const cz_snap_challenge_proof *c = &w->challenges[i];
    if (!path_ok(&c->proof_r_old, x->r_arity, x->r_levels) ||
        !path_ok(&c->proof_r_new, x->r_arity, x->r_levels) ||
        !path_ok(&c->proof_d_new, d_arity, x->challenge_bits))
      return false;
  }
  return true;
}

/* ---- Steps 1-3: public inputs, k and h_select, phi, the private roots ------ */

static void alloc_input(cz_cs *cs, cz_anum *out, const cz_fr *v, const char *name,
                        const char *input_ns) {
  alloc_named(cs, out, v, name);
  CZ_PUSH_NS(cs, "%s", input_ns);
  cz_cs_sticky(cz_anum_inputize(cs, out));
  CZ_POP_NS(cs);
}

/* Step 1: k_and_h_select and its bits, k packed, the commitments, phi.
 * comm_r_old and comm_d_new go to *comm_r_old / *comm_d_new. */
static cz_err inputs_part(snap_ctx *x, const cz_snap_public *pub, cz_anum *comm_r_old,
                          cz_anum *comm_d_new) {
  cz_cs *cs = x->cs;
  bool vals = x->w != NULL;
  cz_anum kh;
  alloc_input(cs, &kh, vals ? &pub->k_and_h_select : NULL, "k_and_h_select",
              "k_and_h_select (public input)");
  unsigned nb = x->partition_bits + CZ_SNAP_N_HS;
  uint8_t kb[32] = {0};
  if (vals) cz_fr_to_bytes_le(kb, &pub->k_and_h_select);
  cz_var vars[MAX_PARTITION_BITS + CZ_SNAP_N_HS];
  cz_fr pow2[MAX_PARTITION_BITS + CZ_SNAP_N_HS];
  pow2_table(pow2, nb);
  for (unsigned i = 0; i < nb && i < MAX_PARTITION_BITS + CZ_SNAP_N_HS; i++) {
    CZ_PUSH_NS(cs, "k_and_h_select_bit_%u", i);
    cz_cs_sticky(cz_abit_alloc(cs, &x->kh_bits[i], kb[i / 8] >> (i % 8) & 1));
    CZ_POP_NS(cs);
    vars[i] = x->kh_bits[i].var;
  }
  enforce_sum(cs, vars, pow2, nb, CZ_VAR_ONE, kh.var, "k_and_h_select binary decomp");
  cz_bool pbits[MAX_PARTITION_BITS];
  for (unsigned i = 0; i < x->partition_bits && i < MAX_PARTITION_BITS; i++)
    pbits[i] = cz_bool_from_bit(x->kh_bits[i]);
  CZ_PUSH_NS(cs, "pack partition bits");
  cz_cs_sticky(cz_pack_bits(cs, &x->partition, pbits, x->partition_bits));
  CZ_POP_NS(cs);
  alloc_input(cs, comm_r_old, vals ? &pub->comm_r_old : NULL, "comm_r_old", "comm_r_old_input");
  alloc_input(cs, comm_d_new, vals ? &pub->comm_d_new : NULL, "comm_d_new", "comm_d_new_input");
  alloc_input(cs, &x->comm_r_new, vals ? &pub->comm_r_new : NULL, "comm_r_new", "comm_r_new_input");
  return genrand(cs, comm_d_new, comm_r_old, &x->phi, "phi");
}

/* comm_r == Poseidon-2(comm_c, root) (hash2_circuit of tree R's hasher). */
static cz_err comm_r_check(cz_cs *cs, const cz_anum *comm_c, const cz_anum *root,
                           const cz_anum *comm_r, const char *ns, const char *name) {
  cz_anum calc;
  CZ_PUSH_NS(cs, "%s", ns);
  cz_err e = cz_merkle_hash2_circuit(cs, CZ_MERKLE_POSEIDON, comm_c, root, &calc);
  CZ_POP_NS(cs);
  if (e == CZ_OK) enforce_sum(cs, &calc.var, NULL, 1, CZ_VAR_ONE, comm_r->var, name);
  return e;
}

/* Step 4, gadgets.rs apex_por: the apex tree over x->apex, then its root's
 * path (ppath, indexed by k's bits) up to comm_d_new. */
static cz_err apex_part(snap_ctx *x, const cz_anum *ppath, const cz_anum *comm_d_new) {
  cz_cs *cs = x->cs;
  CZ_PUSH_NS(cs, "apex_gadget");
  cz_anum row[CZ_SELECT_MAX];
  memcpy(row, x->apex, x->s->apex_leaves * sizeof *row);
  cz_err e = CZ_OK;
  for (unsigned r = 0, n = x->s->apex_leaves; e == CZ_OK && r < x->apex_bits; r++, n /= 2)
    for (unsigned i = 0; e == CZ_OK && i < n / 2; i++) {
      cz_anum a = row[2 * i], b = row[2 * i + 1];
      CZ_PUSH_NS(cs, "apex_tree generation hash (tree_row=%u, siblings=%u)", r, i);
      e = cz_merkle_hash2_circuit(cs, CZ_MERKLE_SHA256, &a, &b, &row[i]);
      CZ_POP_NS(cs);
    }
  if (e != CZ_OK) {
    CZ_POP_NS(cs);
    return e;
  }
  CZ_PUSH_NS(cs, "partition-tree por");
  /* One partition: no path, por_no_challenge_input's last constraint alone. */
  if (x->partition_bits == 0)
    enforce_sum(cs, &row[0].var, NULL, 1, CZ_VAR_ONE, comm_d_new->var,
                "calculated root == provided root");
  else
    e = cz_por_no_challenge_input(cs, &TREE_D, (size_t)1 << x->partition_bits, x->kh_bits, &row[0],
                                  ppath, comm_d_new);
  CZ_POP_NS(cs);
  CZ_POP_NS(cs);
  return e;
}

/* Steps 1-4. */
static cz_err public_part(snap_ctx *x, const cz_snap_public *pub) {
  cz_cs *cs = x->cs;
  const cz_snap_partition_proof *w = x->w;
  cz_anum comm_r_old, comm_d_new, comm_c;
  cz_err e = inputs_part(x, pub, &comm_r_old, &comm_d_new);
  if (e != CZ_OK) return e;
  /* Step 2: the private inputs but the challenges' paths. */
  alloc_named(cs, &comm_c, w ? &w->comm_c : NULL, "comm_c");
  alloc_named(cs, &x->root_r_old, w ? &w->challenges[0].proof_r_old.proof.root : NULL,
              "root_r_old");
  alloc_named(cs, &x->root_r_new, w ? &w->challenges[0].proof_r_new.proof.root : NULL,
              "root_r_new");
  for (uint32_t i = 0; i < x->s->apex_leaves; i++) {
    CZ_PUSH_NS(cs, "apex_leaf_%u", i);
    cz_cs_sticky(cz_anum_alloc(cs, &x->apex[i], w ? &w->apex_leaves[i] : &CZ_FR_ZERO));
    CZ_POP_NS(cs);
  }
  cz_anum ppath[MAX_PARTITION_BITS];
  const cz_merkle_proof *d0 = w ? &w->challenges[0].proof_d_new.proof : NULL;
  for (unsigned i = 0; i < x->partition_bits && i < MAX_PARTITION_BITS; i++) {
    CZ_PUSH_NS(cs, "partition_path_sibling_%u", i);
    unsigned l = x->challenge_bits - x->partition_bits + i;
    cz_cs_sticky(cz_anum_alloc(cs, &ppath[i], d0 ? &d0->siblings[l][0] : &CZ_FR_ZERO));
    CZ_POP_NS(cs);
  }
  /* Step 3. */
  e = comm_r_check(cs, &comm_c, &x->root_r_old, &comm_r_old, "comm_r_old_calc",
                   "enforce comm_r_old_calc == comm_r_old");
  if (e == CZ_OK)
    e = comm_r_check(cs, &comm_c, &x->root_r_new, &x->comm_r_new, "comm_r_new_calc",
                     "enforce comm_r_new_calc == comm_r_new");
  return e != CZ_OK ? e : apex_part(x, ppath, &comm_d_new);
}

/* ---- Step 5: the challenges ----------------------------------------------- */

cz_err cz_snap_gen_challenge_bits(cz_cs *cs, const cz_anum *comm_r_new, const cz_anum *partition,
                                  size_t challenges, unsigned bits, cz_abit *out) {
  if (!cs || !comm_r_new || !partition || !out || bits < 1 || bits > CZ_FR_CAPACITY)
    return CZ_ERR_INVALID_ARG;
  const size_t per_digest = CZ_FR_CAPACITY / bits;
  const uint64_t digests = (challenges + per_digest - 1) / per_digest;
  bool vals = cz_cs_needs_values(cs);
  cz_fr pow2[CZ_FR_NUM_BITS];
  pow2_table(pow2, CZ_FR_NUM_BITS);
  size_t made = 0;
  cz_err e = CZ_OK;
  for (uint64_t j = 0; e == CZ_OK && j < digests; j++) {
    cz_fr dj, fj, idx = CZ_FR_ZERO;
    cz_fr_from_u64(&dj, digests);
    cz_fr_from_u64(&fj, j);
    if (vals) {
      cz_fr_mul(&idx, &partition->value, &dj);
      cz_fr_add(&idx, &idx, &fj);
    }
    cz_anum digest_index, digest;
    CZ_PUSH_NS(cs, "digest_index_%llu", (unsigned long long)j);
    cz_cs_sticky(cz_anum_alloc(cs, &digest_index, &idx));
    CZ_POP_NS(cs);
    char name[96];
    snprintf(name, sizeof name, "digest_index_%llu == k * digests_per_partition + %llu",
             (unsigned long long)j, (unsigned long long)j);
    cz_var lin[2] = {partition->var, CZ_VAR_ONE};
    cz_fr co[2] = {dj, fj};
    enforce_sum(cs, lin, co, 2, CZ_VAR_ONE, digest_index.var, name);
    snprintf(name, sizeof name, "digest_%llu", (unsigned long long)j);
    if ((e = genrand(cs, comm_r_new, &digest_index, &digest, name)) != CZ_OK) break;
    /* allocated_num_to_allocated_bits */
    cz_abit b[CZ_FR_NUM_BITS];
    cz_var bv[CZ_FR_NUM_BITS];
    CZ_PUSH_NS(cs, "digest_%llu_bits", (unsigned long long)j);
    cz_cs_sticky(cz_field_into_allocated_bits_le(cs, b, vals ? &digest.value : NULL));
    for (int i = 0; i < CZ_FR_NUM_BITS; i++) bv[i] = b[i].var;
    enforce_sum(cs, bv, pow2, CZ_FR_NUM_BITS, CZ_VAR_ONE, digest.var, "binary decomp");
    CZ_POP_NS(cs);
    size_t take = j == digests - 1 ? challenges - made : per_digest;
    memcpy(out + made * bits, b, take * bits * sizeof *b);
    made += take;
  }
  return e != CZ_OK ? e : cz_cs_error(cs);
}

/* gadgets.rs get_challenge_high_bits: the h = dot(hs, h_select) high bits
 * of c_bits, packed. */
static void challenge_high(snap_ctx *x, const cz_abit *c_bits, cz_anum *out) {
  cz_cs *cs = x->cs;
  const cz_abit *hsel = x->kh_bits + x->partition_bits;
  unsigned len = x->challenge_bits;
  cz_anum or_zero[CZ_SNAP_N_HS];
  cz_var ov[CZ_SNAP_N_HS];
  cz_fr sum = CZ_FR_ZERO;
  for (unsigned k = 0; k < CZ_SNAP_N_HS; k++) {
    unsigned h = x->s->hs[k];
    cz_bool hb[32];
    for (unsigned i = 0; i < h; i++) hb[i] = cz_bool_from_bit(c_bits[len - h + i]);
    cz_anum high;
    CZ_PUSH_NS(cs, "c_high (h=%u, k=%u)", h, k);
    cz_cs_sticky(cz_pack_bits(cs, &high, hb, h));
    CZ_POP_NS(cs);
    char name[96];
    snprintf(name, sizeof name, "c_high_or_zero (h=%u, k=%u)", h, k);
    alloc_named(cs, &or_zero[k], hsel[k].value ? &high.value : &CZ_FR_ZERO, name);
    snprintf(name, sizeof name, "c_high_or_zero == c_high * h_select_bit (h=%u, k=%u)", h, k);
    enforce_sum(cs, &high.var, NULL, 1, hsel[k].var, or_zero[k].var, name);
    ov[k] = or_zero[k].var;
    cz_fr_add(&sum, &sum, &or_zero[k].value);
  }
  alloc_named(cs, out, &sum, "c_high_selected");
  enforce_sum(cs, ov, NULL, CZ_SNAP_N_HS, CZ_VAR_ONE, out->var,
              "c_high_selected == dot(c_highs, h_select_bits)");
}

/* The siblings of m's first `levels` levels (arities `arity`), allocated in
 * order, each in namespace "<what> sibling (c_index, tree_row,
 * sibling_index)"; m NULL without values. Returns the count. */
static size_t alloc_path(snap_ctx *x, const cz_vanilla_merkle *m, const unsigned *arity,
                         size_t levels, const char *what, size_t c, cz_anum *out) {
  size_t n = 0;
  for (size_t l = 0; l < levels; l++)
    for (unsigned j = 0; j + 1 < arity[l]; j++, n++) {
      CZ_PUSH_NS(x->cs, "%s sibling (c_index=%zu, tree_row=%zu, sibling_index=%u)", what, c, l, j);
      cz_cs_sticky(cz_anum_alloc(x->cs, &out[n], m ? &m->proof.siblings[l][j] : &CZ_FR_ZERO));
      CZ_POP_NS(x->cs);
    }
  return n;
}

/* gadgets.rs label_r_new: out = old + new_data * rho (two constraints). */
static void label_r_new(cz_cs *cs, const cz_anum *old, const cz_anum *data, const cz_anum *rho,
                        cz_anum *out) {
  cz_anum prod;
  CZ_PUSH_NS(cs, "label_d_new * rho");
  cz_cs_sticky(cz_anum_mul(cs, &prod, data, rho));
  CZ_POP_NS(cs);
  cz_fr v;
  cz_fr_add(&v, &old->value, &prod.value);
  alloc_named(cs, out, &v, "label_r_new");
  cz_var sum[2] = {old->var, prod.var};
  enforce_sum(cs, sum, NULL, 2, CZ_VAR_ONE, out->var,
              "label_r_new == label_r_old + label_d_new * rho");
}

/* Step 5 for challenge c, whose random bits are rand_bits. */
static cz_err challenge(snap_ctx *x, size_t c, const cz_abit *rand_bits) {
  cz_cs *cs = x->cs;
  const cz_snap_challenge_proof *w = x->w ? &x->w->challenges[c] : NULL;
  cz_abit c_bits[64];
  unsigned rb = x->challenge_bits - x->partition_bits;
  memcpy(c_bits, rand_bits, rb * sizeof *c_bits);
  memcpy(c_bits + rb, x->kh_bits, x->partition_bits * sizeof *c_bits);

  cz_anum high, rho, leaf_r_old, leaf_d_new, leaf_r_new;
  CZ_PUSH_NS(cs, "get_challenge_high_bits (c_index=%zu)", c);
  challenge_high(x, c_bits, &high);
  CZ_POP_NS(cs);
  char ns[96];
  snprintf(ns, sizeof ns, "rho (c_index=%zu)", c);
  cz_err e = genrand(cs, &x->phi, &high, &rho, ns);
  if (e != CZ_OK) return e;
  snprintf(ns, sizeof ns, "leaf_r_old (c_index=%zu)", c);
  alloc_named(cs, &leaf_r_old, w ? &w->proof_r_old.proof.leaf : NULL, ns);
  snprintf(ns, sizeof ns, "leaf_d_new (c_index=%zu)", c);
  alloc_named(cs, &leaf_d_new, w ? &w->proof_d_new.proof.leaf : NULL, ns);

  CZ_PUSH_NS(cs, "leaf_r_new (c_index=%zu)", c);
  label_r_new(cs, &leaf_r_old, &leaf_d_new, &rho, &leaf_r_new);
  CZ_POP_NS(cs);

  cz_anum path[CZ_MERKLE_MAX_LEVELS * (CZ_MERKLE_MAX_ARITY - 1)];
  alloc_path(x, w ? &w->proof_r_old : NULL, x->r_arity, x->r_levels, "path_r_old", c, path);
  CZ_PUSH_NS(cs, "por tree_r_old (c_index=%zu)", c);
  e = cz_por_no_challenge_input(cs, &x->s->tree_r, x->s->nodes, c_bits, &leaf_r_old, path,
                                &x->root_r_old);
  CZ_POP_NS(cs);
  if (e != CZ_OK) return e;
  alloc_path(x, w ? &w->proof_r_new : NULL, x->r_arity, x->r_levels, "path_r_new", c, path);
  CZ_PUSH_NS(cs, "por tree_r_new (c_index=%zu)", c);
  e = cz_por_no_challenge_input(cs, &x->s->tree_r, x->s->nodes, c_bits, &leaf_r_new, path,
                                &x->root_r_new);
  CZ_POP_NS(cs);
  if (e != CZ_OK) return e;

  unsigned to_apex = x->challenge_bits - x->partition_bits - x->apex_bits;
  cz_bool sel[8];
  for (unsigned i = 0; i < x->apex_bits; i++) sel[i] = cz_bool_from_bit(c_bits[to_apex + i]);
  cz_anum apex_leaf;
  CZ_PUSH_NS(cs, "select_apex_leaf (c_index=%zu)", c);
  e = cz_select(cs, &apex_leaf, x->apex, x->s->apex_leaves, sel, x->apex_bits);
  CZ_POP_NS(cs);
  if (e != CZ_OK) return e;
  for (unsigned l = 0; l < to_apex; l++) {
    CZ_PUSH_NS(cs, "path_to_apex_leaf sibling (c_index=%zu, tree_row=%u)", c, l);
    cz_cs_sticky(
        cz_anum_alloc(cs, &path[l], w ? &w->proof_d_new.proof.siblings[l][0] : &CZ_FR_ZERO));
    CZ_POP_NS(cs);
  }
  CZ_PUSH_NS(cs, "por to_apex_leaf (c_index=%zu)", c);
  e = cz_por_no_challenge_input(cs, &TREE_D, (size_t)1 << to_apex, c_bits, &leaf_d_new, path,
                                &apex_leaf);
  CZ_POP_NS(cs);
  return e;
}

/* The circuit as a header (the public part and every challenge's random
 * bits) and one slot per challenge (cz_slots_run / cz_slots_synthesize). */
typedef struct {
  snap_ctx x; /* the header's variables; x.cs is the system of the call */
  const cz_snap_public *pub;
  cz_abit *bits; /* challenges x (challenge_bits - partition_bits), by the header */
} snap_slots;

static cz_err snap_header(cz_cs *cs, void *ctx) {
  snap_slots *ss = ctx;
  snap_ctx *x = &ss->x;
  x->cs = cs;
  cz_err e = public_part(x, ss->pub);
  if (e != CZ_OK) return e;
  CZ_PUSH_NS(cs, "gen_challenge_bits");
  e = cz_snap_gen_challenge_bits(cs, &x->comm_r_new, &x->partition, x->s->challenges,
                                 x->challenge_bits - x->partition_bits, ss->bits);
  CZ_POP_NS(cs);
  return e != CZ_OK ? e : cz_cs_error(cs);
}

/* Challenge c on a copy of the header's state: slots run on many threads. */
static cz_err snap_challenge(cz_cs *cs, const void *ctx, size_t c) {
  const snap_slots *ss = ctx;
  snap_ctx *x = malloc(sizeof *x);
  if (!x) return CZ_ERR_NOMEM;
  *x = ss->x;
  x->cs = cs;
  cz_err e = challenge(x, c, ss->bits + c * (x->challenge_bits - x->partition_bits));
  free(x);
  return e != CZ_OK ? e : cz_cs_error(cs);
}

/* The sizes, the witness' checks, and room for the random bits. */
static cz_err snap_init(snap_slots *ss, const cz_snap_shape *s, const cz_snap_public *pub,
                        const cz_snap_partition_proof *w, bool vals) {
  memset(ss, 0, sizeof *ss);
  if (!shape_known(s)) return CZ_ERR_INVALID_ARG;
  snap_ctx *x = &ss->x;
  x->s = s;
  x->w = vals ? w : NULL;
  x->challenge_bits = log2u64(s->nodes);
  x->partition_bits = log2u64(s->partitions);
  x->apex_bits = log2u64(s->apex_leaves);
  x->r_levels = cz_merkle_proof_levels(&s->tree_r, s->nodes);
  size_t base = x->r_levels - (s->tree_r.sub_arity != 0) - (s->tree_r.top_arity != 0);
  for (size_t l = 0; l < x->r_levels; l++)
    x->r_arity[l] = l < base                           ? s->tree_r.base_arity
                    : l == base && s->tree_r.sub_arity ? s->tree_r.sub_arity
                                                       : s->tree_r.top_arity;
  if (vals && !witness_ok(x, pub)) return CZ_ERR_INVALID_ARG;
  ss->pub = pub;
  size_t n_bits = (size_t)s->challenges * (x->challenge_bits - x->partition_bits);
  ss->bits = malloc((n_bits ? n_bits : 1) * sizeof *ss->bits);
  return ss->bits ? CZ_OK : CZ_ERR_NOMEM;
}

cz_err cz_snap_circuit(cz_cs *cs, const cz_snap_shape *s, const cz_snap_public *pub,
                       const cz_snap_partition_proof *w) {
  if (!cs) return CZ_ERR_INVALID_ARG;
  snap_slots *ss = malloc(sizeof *ss);
  if (!ss) return CZ_ERR_NOMEM;
  cz_err e = snap_init(ss, s, pub, w, cz_cs_needs_values(cs));
  if (e == CZ_OK) {
    cz_slotted_circuit c = {s->challenges, snap_header, snap_challenge, ss};
    e = cz_slots_run(cs, &c, NULL, 0);
  }
  free(ss->bits);
  free(ss);
  return e != CZ_OK ? e : cz_cs_error(cs);
}

cz_err cz_snap_witness(cz_cs_mode mode, const cz_snap_shape *s, const cz_snap_public *pub,
                       const cz_snap_partition_proof *w, unsigned n_threads, cz_assignment *out,
                       char *msg, size_t msg_len) {
  if (!out) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "out: missing");
  memset(out, 0, sizeof *out);
  snap_slots *ss = malloc(sizeof *ss);
  if (!ss) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  cz_err e = snap_init(ss, s, pub, w, true);
  if (e == CZ_ERR_NOMEM) cz_msg(msg, msg_len, "out of memory");
  else if (e != CZ_OK) cz_msg(msg, msg_len, "the proof is not of this circuit's shape");
  else {
    cz_slotted_circuit c = {s->challenges, snap_header, snap_challenge, ss};
    e = cz_slots_synthesize(mode, NULL, &c, n_threads, out, msg, msg_len);
  }
  free(ss->bits);
  free(ss);
  return e;
}
