/* One PoSt partition from bincode vanilla proofs to a verified Groth16
 * proof (cz_post_partition_parse, cz_post_prove) under test parameters
 * made here, on sectors whose trees are built here: WinningPoSt 2 KiB, and
 * WindowPoSt 2 KiB with 3 sectors (2 partitions, the second padded). Each
 * proof is checked again by the plain verifier with the public inputs of
 * cz_post_public_inputs, and refused under other randomness. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cs_eq.h"
#include "cuzk/groth16.h"
#include "cuzk/poseidon.h"
#include "cuzk/post.h"

/* A sector over 64 leaves of its own, with the vanilla proof of the
 * challenges the verifier derives for it at sector_index, as bincode. */
typedef struct {
  cz_merkle_tree tree;
  uint8_t *bytes;
  size_t len;
} sector;

static void make_sector(sector *s, const cz_registered_post *k, const uint8_t randomness[32],
                        uint64_t sector_id, uint64_t sector_index) {
  cz_fr leaves[64];
  for (int i = 0; i < 64; i++) cz_fr_from_u64(&leaves[i], sector_id * 1000003u + (uint64_t)i);
  CHECK_EQ_INT(cz_merkle_tree_build(&s->tree, &k->tree_r, leaves, 64), CZ_OK);
  size_t nc = k->config_challenge_count;
  cz_post_inclusion *inc = calloc(nc, sizeof *inc);
  uint64_t *ch = calloc(nc, sizeof *ch);
  cz_post_sector_proof sp = {.inclusions = inc, .n_inclusions = nc, .comm_r_last = s->tree.root};
  cz_fr_from_u64(&sp.comm_c, 77 + sector_id);
  cz_post_vanilla v = {.sector_id = sector_id, .sectors = &sp, .n_sectors = 1};
  cz_fr pair[2] = {sp.comm_c, sp.comm_r_last};
  CHECK_EQ_INT(cz_poseidon_hash(2, pair, &v.comm_r), CZ_OK);
  char msg[256];
  CHECK_EQ_INT(cz_post_sector_challenges(k, randomness, sector_index, sector_id, ch, msg,
                                         sizeof msg),
               CZ_OK);
  for (size_t i = 0; i < nc; i++) {
    CHECK_EQ_INT(cz_merkle_prove(&s->tree, ch[i], &inc[i].proof), CZ_OK);
    inc[i].n_base = 2; /* 64 leaves, arity 8: two Single levels */
  }
  s->len = cz_post_vanilla_write(NULL, &v);
  s->bytes = malloc(s->len);
  CHECK_EQ_INT(cz_post_vanilla_write(s->bytes, &v), s->len);
  free(inc);
  free(ch);
}

static void free_sector(sector *s) {
  cz_merkle_tree_free(&s->tree);
  free(s->bytes);
}

static cz_groth16_params params_for(const cz_registered_post *k) {
  cz_groth16_params p;
  cz_params_store_opts o = {.no_official = true,
                            .no_test_cache = true,
                            .keygen = cz_post_keygen,
                            .keygen_ctx = (void *)k,
                            .test_tag = CZ_POST_CIRCUIT_REVISION,
                            .who = "test_post_prove"};
  char msg[256] = "";
  cz_err e = cz_post_params_get(&p, k, &o, NULL, msg, sizeof msg);
  if (e != CZ_OK) fprintf(stderr, "params: %s\n", msg);
  CHECK_EQ_INT(e, CZ_OK);
  return p;
}

/* Prove the partition of the n sectors s, then check the proof as a
 * chain verifier would, and under wrong randomness. */
static void prove_and_check(const cz_registered_post *k, const cz_groth16_params *params,
                            const uint8_t randomness[32], uint32_t partition, sector *s, size_t n) {
  uint8_t prover_id[32];
  cz_prover_id_of_miner(prover_id, 1000);
  const uint8_t *vp[8];
  size_t lens[8];
  for (size_t i = 0; i < n; i++) vp[i] = s[i].bytes, lens[i] = s[i].len;
  cz_post_partition p;
  char msg[256] = "";
  CHECK_EQ_INT(
      cz_post_partition_parse(&p, &(cz_post_challenge_seed){k, randomness, prover_id, partition},
                              vp, lens, n, msg, sizeof msg),
      CZ_OK);
  /* The recorded-shape path makes the plain path's assignment bit for bit
   * (both with the slots in parallel; test_post_circuit holds them to a
   * serial run). */
  cz_pce *shape = NULL;
  CHECK_EQ_INT(cz_post_record_shape(k, &shape, msg, sizeof msg), CZ_OK);
  cz_assignment plain, pce;
  CHECK_EQ_INT(cz_post_synthesize(&p, 2, &plain, msg, sizeof msg), CZ_OK);
  CHECK_EQ_INT(cz_post_synthesize_pce(&p, shape, 2, &pce, msg, sizeof msg), CZ_OK);
  CHECK(assign_eq(&plain, &pce));
  cz_assignment_free(&plain);
  cz_assignment_free(&pce);
  cz_pce_free(shape);
  uint8_t out[CZ_GROTH16_PROOF_BYTES];
  cz_prove_timing quiet = {.quiet = true};
  cz_prove_ctx pc = {.params = params, .timing = &quiet};
  cz_err e = cz_post_prove(&p, &pc, out, msg, sizeof msg);
  if (e != CZ_OK) fprintf(stderr, "%s: %s\n", k->name, msg);
  CHECK_EQ_INT(e, CZ_OK);
  size_t ni = cz_post_public_input_count(k);
  cz_fr *in = malloc(ni * sizeof *in);
  CHECK_EQ_INT(cz_post_public_inputs(&(cz_post_challenge_seed){.registered = k,
                                                               .randomness = randomness,
                                                               .partition = partition},
                                     p.sectors, n, in, ni, msg, sizeof msg),
               CZ_OK);
  cz_groth16_proof proof;
  CHECK_EQ_INT(cz_groth16_proof_read(&proof, out), CZ_OK);
  CHECK_EQ_INT(cz_groth16_verify(&params->vk, in, ni, &proof), CZ_OK);
  uint8_t other[32];
  memcpy(other, randomness, 32);
  other[0] ^= 1;
  CHECK_EQ_INT(cz_post_public_inputs(&(cz_post_challenge_seed){.registered = k,
                                                               .randomness = other,
                                                               .partition = partition},
                                     p.sectors, n, in, ni, msg, sizeof msg),
               CZ_OK);
  CHECK(cz_groth16_verify(&params->vk, in, ni, &proof) != CZ_OK);
  free(in);
  /* The same vanilla proofs under other randomness are refused before
   * anything is synthesized. */
  cz_post_partition q;
  CHECK_EQ_INT(cz_post_partition_parse(&q,
                                       &(cz_post_challenge_seed){k, other, prover_id, partition},
                                       vp, lens, n, msg, sizeof msg),
               CZ_OK);
  CHECK_EQ_INT(cz_post_prove(&q, &pc, out, msg, sizeof msg), CZ_ERR_PROOF_INVALID);
  CHECK(strstr(msg, "is not the challenge") != NULL);
  cz_post_partition_free(&q);
  cz_post_partition_free(&p);
}

static void test_winning(const uint8_t randomness[32]) {
  const cz_registered_post *k = cz_registered_post_by_id(0); /* StackedDrgWinning2KiBV1 */
  cz_groth16_params params = params_for(k);
  CHECK_EQ_INT(params.vk.n_ic, 133); /* as the official key */
  sector s;
  make_sector(&s, k, randomness, 7, 0);
  prove_and_check(k, &params, randomness, 0, &s, 1);
  /* Two vanilla proofs for a WinningPoSt: one clear line, nothing proved. */
  uint8_t prover_id[32];
  cz_prover_id_of_miner(prover_id, 1000);
  const uint8_t *vp[2] = {s.bytes, s.bytes};
  size_t lens[2] = {s.len, s.len};
  cz_post_partition p;
  char msg[256];
  CHECK_EQ_INT(cz_post_partition_parse(&p, &(cz_post_challenge_seed){k, randomness, prover_id, 0},
                                       vp, lens, 2, msg, sizeof msg),
               CZ_ERR_INVALID_ARG);
  CHECK(p.proofs == NULL && msg[0]);
  /* Truncated bincode names the field. */
  lens[0] = s.len - 1;
  CHECK(cz_post_partition_parse(&p, &(cz_post_challenge_seed){k, randomness, prover_id, 0}, vp,
                                lens, 1, msg, sizeof msg) != CZ_OK);
  CHECK(strstr(msg, "vanilla_proofs[0]") != NULL);
  free_sector(&s);
  cz_groth16_params_free(&params);
}

static void test_window(const uint8_t randomness[32]) {
  const cz_registered_post *k = cz_registered_post_by_id(10); /* StackedDrgWindow2KiBV1_1 */
  CHECK_EQ_INT(k->sector_count, 2);
  cz_groth16_params params = params_for(k);
  sector s[3];
  for (uint64_t i = 0; i < 3; i++) make_sector(&s[i], k, randomness, 11 + i, i);
  prove_and_check(k, &params, randomness, 0, &s[0], 2);
  prove_and_check(k, &params, randomness, 1, &s[2], 1); /* padded */
  /* ApiVersion 1.0.0 (Window V1, 5) shares the parameters, not the
   * challenges of a sector past the first. */
  const cz_registered_post *v1 = cz_registered_post_by_id(5);
  uint8_t prover_id[32];
  cz_prover_id_of_miner(prover_id, 1000);
  const uint8_t *vp[2] = {s[0].bytes, s[1].bytes};
  size_t lens[2] = {s[0].len, s[1].len};
  cz_post_partition p;
  char msg[256];
  CHECK_EQ_INT(cz_post_partition_parse(&p, &(cz_post_challenge_seed){v1, randomness, prover_id, 0},
                                       vp, lens, 2, msg, sizeof msg),
               CZ_OK);
  CHECK_EQ_INT(cz_post_partition_verify(&p, msg, sizeof msg), CZ_ERR_PROOF_INVALID);
  cz_post_partition_free(&p);
  /* Three sectors do not fit one partition of two. */
  const uint8_t *vp3[3] = {s[0].bytes, s[1].bytes, s[2].bytes};
  size_t lens3[3] = {s[0].len, s[1].len, s[2].len};
  CHECK_EQ_INT(cz_post_partition_parse(&p, &(cz_post_challenge_seed){k, randomness, prover_id, 0},
                                       vp3, lens3, 3, msg, sizeof msg),
               CZ_ERR_INVALID_ARG);
  for (int i = 0; i < 3; i++) free_sector(&s[i]);
  cz_groth16_params_free(&params);
}

int main(void) {
  uint8_t randomness[32] = {0x2a, 0x07, 0x33};
  test_winning(randomness);
  test_window(randomness);
  /* Randomness must be a canonical Fr: r's top byte is 0x73. */
  uint8_t bad[32];
  memset(bad, 0xff, sizeof bad);
  cz_post_partition p;
  char msg[256];
  uint8_t prover_id[32] = {0};
  CHECK_EQ_INT(cz_post_partition_parse(&p,
                                       &(cz_post_challenge_seed){cz_registered_post_by_id(0), bad,
                                                                 prover_id, 0},
                                       NULL, NULL, 0, msg, sizeof msg),
               CZ_ERR_INVALID_ARG); /* no proofs: the count comes first */
  const uint8_t one = 0;
  const uint8_t *vp[1] = {&one};
  size_t len1 = 1;
  CHECK_EQ_INT(cz_post_partition_parse(&p,
                                       &(cz_post_challenge_seed){cz_registered_post_by_id(0), bad,
                                                                 prover_id, 0},
                                       vp, &len1, 1, msg, sizeof msg),
               CZ_ERR_NONCANONICAL);
  CHECK(strstr(msg, "randomness") != NULL);
  return check_report("test_post_prove");
}
