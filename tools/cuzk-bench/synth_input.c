/* Inputs of the real shape for the synthesis benchmarks (synth_input.h). */
#include "synth_input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/progress_out.h"
#include "cuzk/porep.h"
#include "cuzk/post.h"
#include "cuzk/post_circuit.h"
#include "cuzk/snap.h"
#include "cuzk/snap_circuit.h"

struct synth_input {
  syn_circuit kind;
  uint32_t partition;
  cz_porep_c1 c1;                 /* PoRep */
  const cz_registered_post *post; /* PoSt */
  size_t n_sectors, n_challenges;
  cz_merkle_proof *proofs;
  cz_post_slot *slots;
  const cz_registered_snap *snap; /* update */
  cz_snap_partition_proof snap_proof;
  cz_snap_public snap_pub;
};

bool synth_circuit_parse(const char *name, syn_circuit *out) {
  static const char *const names[] = {"porep", "winning-post", "window-post", "update"};
  for (int i = 0; i < 4; i++)
    if (name && !strcmp(name, names[i])) {
      *out = (syn_circuit)i;
      return true;
    }
  return false;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rand64(void) {
  uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* A random field element: four random limbs reduced, like a hash output. */
static cz_fr rand_fr(void) {
  uint8_t w[64];
  for (int i = 0; i < 64; i += 8) {
    uint64_t v = rand64();
    memcpy(w + i, &v, 8);
  }
  cz_fr r;
  cz_fr_from_wide_le(&r, w);
  return r;
}

/* A random path of tree shape t (leaves) to leaf `leaf`: right indices and
 * arities, random nodes. */
static void fake_path(const cz_merkle_shape *t, size_t leaves, size_t leaf, cz_merkle_proof *p) {
  size_t levels = cz_merkle_proof_levels(t, leaves);
  size_t base = levels - (t->sub_arity != 0) - (t->top_arity != 0);
  memset(p, 0, sizeof *p);
  p->shape = *t;
  p->n_levels = levels;
  p->challenge = leaf;
  p->leaf = rand_fr();
  p->root = rand_fr();
  size_t rest = leaf;
  for (size_t l = 0; l < levels; l++) {
    unsigned a = l < base ? t->base_arity : l == base ? t->sub_arity : t->top_arity;
    p->arity[l] = a;
    p->index[l] = (unsigned)(rest % a);
    rest /= a;
    for (unsigned j = 0; j + 1 < a; j++) p->siblings[l][j] = rand_fr();
  }
}

/* ---- PoRep ----------------------------------------------------------------- */

static bool make_porep(synth_input *in, const synth_spec *s, char *why, size_t whylen) {
  char msg[512] = "";
  cz_err e;
  if (s->c1_path) {
    e = cz_porep_c1_load(&in->c1, s->c1_path, msg, sizeof msg);
  } else if (s->sector_size) {
    const cz_registered_porep *k = cz_registered_porep_by_sector_size(s->sector_size, true);
    if (!k) {
      snprintf(why, whylen, "no PoRep of %llu bytes", (unsigned long long)s->sector_size);
      return false;
    }
    e = cz_porep_c1_synthetic(&in->c1, k, 0x5eed);
    if (e != CZ_OK) snprintf(msg, sizeof msg, "out of memory");
  } else {
    cz_porep_seal_input si = {0};
    si.registered = cz_registered_porep_by_id(5); /* StackedDrg2KiBV1_1 */
    si.sector_id = 1;
    si.progress = cz_bench_progress();
    memset(si.ticket, 0x0c, 32);
    memset(si.seed, 0x0d, 32);
    fprintf(stderr, "synth: sealing a 2 KiB test sector in process\n");
    e = cz_porep_seal(&si, &in->c1, s->threads, msg, sizeof msg);
  }
  if (e != CZ_OK) {
    snprintf(why, whylen, "%s: %s", cz_err_str(e), msg);
    return false;
  }
  if (s->partition >= in->c1.n_partitions) {
    snprintf(why, whylen, "--partition %u: the C1 has %u partitions", s->partition,
             in->c1.n_partitions);
    return false;
  }
  in->partition = s->partition;
  return true;
}

/* ---- PoSt ------------------------------------------------------------------ */

static bool make_post(synth_input *in, const synth_spec *s, char *why, size_t whylen) {
  uint64_t size = s->sector_size ? s->sector_size : 2048;
  bool winning = s->kind == SYN_WINNING;
  for (uint32_t id = winning ? 0 : 10; id < (winning ? 5u : 15u) && !in->post; id++)
    if (cz_registered_post_by_id(id)->sector_size == size) in->post = cz_registered_post_by_id(id);
  if (!in->post) {
    snprintf(why, whylen, "no %s PoSt of %llu bytes", winning ? "Winning" : "Window",
             (unsigned long long)size);
    return false;
  }
  const cz_registered_post *k = in->post;
  in->n_sectors = s->post_sectors ? s->post_sectors : k->sector_count;
  in->n_challenges = s->post_challenges ? s->post_challenges : k->challenge_count;
  size_t leaves = (size_t)(k->sector_size / 32), n = in->n_sectors * in->n_challenges;
  in->proofs = malloc(n * sizeof *in->proofs);
  in->slots = malloc(in->n_sectors * sizeof *in->slots);
  if (!in->proofs || !in->slots) {
    snprintf(why, whylen, "out of memory");
    return false;
  }
  for (size_t i = 0; i < n; i++)
    fake_path(&k->tree_r, leaves, (size_t)(rand64() % leaves), &in->proofs[i]);
  for (size_t j = 0; j < in->n_sectors; j++)
    in->slots[j] =
        (cz_post_slot){rand_fr(), rand_fr(), rand_fr(), &in->proofs[j * in->n_challenges]};
  return true;
}

/* ---- SnapDeals ------------------------------------------------------------- */

static void fake_vanilla(cz_vanilla_merkle *m, const cz_merkle_shape *t, size_t leaves,
                         size_t leaf) {
  memset(m, 0, sizeof *m);
  fake_path(t, leaves, leaf, &m->proof);
}

static bool make_update(synth_input *in, const synth_spec *s, char *why, size_t whylen) {
  in->snap = cz_registered_snap_by_sector_size(s->sector_size ? s->sector_size : 2048);
  if (!in->snap) {
    snprintf(why, whylen, "no update of %llu bytes", (unsigned long long)s->sector_size);
    return false;
  }
  const cz_snap_shape *sh = &in->snap->shape;
  static const cz_merkle_shape tree_d = {CZ_MERKLE_SHA256, 2, 0, 0};
  cz_snap_partition_proof *p = &in->snap_proof;
  p->comm_c = rand_fr();
  p->n_apex = sh->apex_leaves;
  p->n_challenges = sh->challenges;
  p->apex_leaves = malloc(p->n_apex * sizeof *p->apex_leaves);
  p->challenges = calloc(p->n_challenges, sizeof *p->challenges);
  if (!p->apex_leaves || !p->challenges) {
    snprintf(why, whylen, "out of memory");
    return false;
  }
  for (size_t i = 0; i < p->n_apex; i++) p->apex_leaves[i] = rand_fr();
  size_t nodes = (size_t)sh->nodes;
  for (size_t c = 0; c < p->n_challenges; c++) {
    size_t leaf = (size_t)(rand64() % nodes);
    fake_vanilla(&p->challenges[c].proof_r_old, &sh->tree_r, nodes, leaf);
    fake_vanilla(&p->challenges[c].proof_r_new, &sh->tree_r, nodes, leaf);
    fake_vanilla(&p->challenges[c].proof_d_new, &tree_d, nodes, leaf);
  }
  /* k = 0 with the first h_select bit (k_and_h_select = 1 << partition bits). */
  unsigned kbits = 0;
  while ((1u << kbits) < sh->partitions) kbits++;
  cz_fr_from_u64(&in->snap_pub.k_and_h_select, (uint64_t)1 << kbits);
  in->snap_pub.comm_r_old = rand_fr();
  in->snap_pub.comm_d_new = rand_fr();
  in->snap_pub.comm_r_new = rand_fr();
  return true;
}

/* ---- the interface --------------------------------------------------------- */

synth_input *synth_input_make(const synth_spec *s, char *why, size_t whylen) {
  synth_input *in = calloc(1, sizeof *in);
  if (!in) {
    snprintf(why, whylen, "out of memory");
    return NULL;
  }
  in->kind = s->kind;
  bool ok = s->kind == SYN_POREP    ? make_porep(in, s, why, whylen)
            : s->kind == SYN_UPDATE ? make_update(in, s, why, whylen)
                                    : make_post(in, s, why, whylen);
  if (!ok) {
    synth_input_free(in);
    return NULL;
  }
  return in;
}

void synth_input_free(synth_input *in) {
  if (!in) return;
  cz_porep_c1_free(&in->c1);
  free(in->proofs);
  free(in->slots);
  free(in->snap_proof.apex_leaves);
  free(in->snap_proof.challenges);
  free(in);
}

const char *synth_input_name(const synth_input *in) {
  return in->kind == SYN_POREP    ? in->c1.registered->name
         : in->kind == SYN_UPDATE ? in->snap->name
                                  : in->post->name;
}

cz_err synth_input_run(const synth_input *in, cz_cs_mode mode, const cz_cs_config *cfg,
                       const cz_pce *shape, unsigned n_threads, cz_assignment *out, char *msg,
                       size_t msg_len) {
  cz_cs_mode k = shape ? CZ_CS_WITNESS : mode;
  cz_err e;
  if (in->kind == SYN_POREP) {
    e = cz_porep_witness(k, &in->c1, in->partition, cfg, n_threads, out, msg, msg_len);
  } else if (in->kind == SYN_UPDATE) {
    e = cz_snap_witness(k, &in->snap->shape, &in->snap_pub, &in->snap_proof, n_threads, out, msg,
                        msg_len);
  } else {
    const cz_registered_post *p = in->post;
    e = cz_post_witness(&(cz_post_dims){&p->tree_r, (size_t)(p->sector_size / 32), in->n_sectors,
                                        in->n_challenges},
                        in->slots, k, n_threads, out, msg, msg_len);
  }
  if (e == CZ_OK && shape && (e = cz_pce_eval(shape, out, n_threads)) != CZ_OK) {
    cz_assignment_free(out);
    snprintf(msg, msg_len, "the recorded shape is not this circuit's (%s)", cz_err_str(e));
  }
  return e;
}

cz_err synth_input_record(const synth_input *in, cz_pce **out, char *msg, size_t msg_len) {
  if (in->kind == SYN_POREP) return cz_porep_record_shape(in->c1.registered, out, msg, msg_len);
  if (in->kind == SYN_UPDATE) return cz_snap_record_shape(&in->snap->shape, out, msg, msg_len);
  if (in->n_sectors != in->post->sector_count || in->n_challenges != in->post->challenge_count) {
    snprintf(msg, msg_len, "a shape is recorded for the registered %u sectors x %u challenges only",
             in->post->sector_count, in->post->challenge_count);
    return CZ_ERR_INVALID_ARG;
  }
  return cz_post_record_shape(in->post, out, msg, msg_len);
}

/* The PoRep circuit of partition p cut to its challenge i alone (the header
 * and that challenge's subcircuit: the partition's circuit is the header
 * and the challenges side by side, sharing only the header's variables). */
static cz_err porep_one_challenge(cz_cs *cs, const cz_porep_c1 *c1, uint32_t p, uint32_t i) {
  cz_registered_porep k = *c1->registered;
  k.shape.challenges = 1;
  cz_porep_c1 one = *c1;
  one.registered = &k;
  one.n_partitions = 1;
  one.n_challenges = 1;
  one.proofs = &c1->proofs[(size_t)p * c1->n_challenges + i];
  return cz_porep_circuit(cs, &k.shape, &one, 0);
}

int synth_input_check(const synth_input *in, long challenge) {
  if (in->kind != SYN_POREP) {
    fprintf(stderr, "synth-only: --check is for PoRep\n");
    return 2;
  }
  if (challenge >= (long)in->c1.n_challenges) {
    fprintf(stderr, "synth-only: --challenge %ld: a partition has %u\n", challenge,
            in->c1.n_challenges);
    return 2;
  }
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  if (!cs) {
    fprintf(stderr, "synth-only: out of memory\n");
    return 2;
  }
  cz_err e = challenge < 0 ? cz_porep_circuit(cs, &in->c1.registered->shape, &in->c1, in->partition)
                           : porep_one_challenge(cs, &in->c1, in->partition, (uint32_t)challenge);
  int rc = 2;
  if (e != CZ_OK) {
    fprintf(stderr, "synth-only: TEST synthesis of partition %u: %s: %s\n", in->partition,
            cz_err_str(e), cz_cs_errmsg(cs));
  } else {
    size_t i = 0;
    const char *bad = cz_cs_which_is_unsatisfied(cs, &i);
    if (bad) printf("unsatisfied constraint %zu of %zu: %s\n", i, cz_cs_num_constraints(cs), bad);
    else printf("satisfied yes\nconstraints %zu count\n", cz_cs_num_constraints(cs));
    rc = bad ? 1 : 0;
  }
  cz_cs_free(cs);
  return rc;
}
