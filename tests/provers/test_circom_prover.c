/* The CIRCOM kind through the engine (no gRPC): keys loaded while the
 * engine runs and charged to its budget, proofs of a committed witness
 * that verify against the key, the refusals, UnloadKey. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "cuzk/circom.h"
#include "cuzk/circom_keys.h"
#include "cuzk/sha256.h"
#include "cuzk/zkey.h"

#define DATA "tests/data/circom/"

static cz_engine *engine(uint64_t budget, cz_circom_keys **keys) {
  cz_engine_config cfg;
  cz_engine_config_default(&cfg);
  cfg.n_workers = 1;
  cfg.memory_budget = budget;
  cfg.timeline = false;
  cz_engine *e = NULL;
  CHECK(cz_engine_create(&e, &cfg, NULL, 0) == CZ_OK);
  cz_provers_config pc = {.prove_threads = 2};
  char msg[256] = "";
  CHECK(cz_circom_prover_register(e, &pc, keys, msg, sizeof msg) == CZ_OK);
  CHECK(cz_engine_start(e) == CZ_OK);
  return e;
}

static uint8_t *file(const char *path, size_t *len) {
  char *text = NULL;
  CHECK(cz_read_file(path, &text, len, NULL, 0) == CZ_OK);
  return (uint8_t *)text;
}

/* Submit wtns with key and await it. */
static cz_err prove(cz_engine *e, const uint8_t key[32], const uint8_t *wtns, size_t len,
                    cz_job_result *res, char *msg) {
  cz_job_request r = {.kind = CZ_KIND_CIRCOM, .vanilla_proof = {wtns, len}, .key_id = {key, 32}};
  char id[CZ_JOB_ID_MAX];
  cz_err err = cz_engine_submit(e, &r, id, NULL, msg, 256);
  if (err == CZ_OK) CHECK(cz_engine_await(e, id, 0, res) == CZ_OK);
  return err;
}

/* The answer is a proof of the witness's public signals under the key. */
static void check_answer(const char *dir, const cz_job_result *res, const uint8_t *wtns,
                         size_t len) {
  char path[256];
  snprintf(path, sizeof path, DATA "%s/circuit.zkey", dir);
  cz_zkey *z = NULL;
  CHECK(cz_zkey_load(&z, path, 0, 0, NULL, 0) == CZ_OK);
  cz_zkey_info zi;
  cz_zkey_get_info(z, &zi);
  CHECK_EQ_INT(res->proof_len, CZ_CIRCOM_ANSWER_BYTES(zi.n_public));
  cz_wtns w = {0};
  CHECK(cz_wtns_read(&w, wtns, len, NULL, 0) == CZ_OK);
  cz_fr *pub = calloc(zi.n_public + 1, sizeof *pub);
  bool same = true;
  for (size_t i = 0; i < zi.n_public; i++) {
    CHECK(cz_fr_from_bytes_le(&pub[i], res->proof + 192 + 32 * i) == CZ_OK);
    same &= memcmp(&pub[i], &w.v[1 + i], sizeof pub[i]) == 0;
  }
  CHECK(same);
  cz_groth16_proof p;
  CHECK(cz_groth16_proof_read(&p, res->proof) == CZ_OK);
  CHECK(cz_groth16_verify(cz_zkey_vk(z), pub, zi.n_public, &p) == CZ_OK);
  free(pub);
  cz_wtns_free(&w);
  cz_zkey_free(z);
}

static const cz_srs_status *srs_of(const cz_engine_stats *st, const char *id) {
  for (size_t i = 0; i < st->n_srs; i++)
    if (!strcmp(st->srs[i].circuit_id, id)) return &st->srs[i];
  return NULL;
}

static void test_load_prove_unload(void) {
  cz_circom_keys *k = NULL;
  cz_engine *e = engine(256ull << 20, &k);
  char msg[256] = "";
  cz_circom_key_info info;
  bool already = true;
  cz_circom_key_spec spec = {"many", DATA "many_public/circuit.zkey", false};
  CHECK(cz_circom_key_load(k, &spec, &info, &already, NULL, msg, sizeof msg) == CZ_OK);
  CHECK(!already);
  size_t zlen;
  uint8_t *zkey = file(spec.path, &zlen), digest[32];
  cz_sha256_digest(digest, zkey, zlen);
  uint8_t id[32];
  CHECK(cz_circom_key_id_parse(info.key_id, id) && !memcmp(id, digest, 32));
  CHECK_EQ_INT(info.file_bytes, zlen);
  CHECK(info.resident_bytes > zlen && info.n_public == 601);
  CHECK(cz_circom_key_load(k, &spec, NULL, &already, NULL, msg, sizeof msg) == CZ_OK && already);

  cz_engine_stats *st = malloc(sizeof *st);
  cz_engine_get_stats(e, st);
  const cz_srs_status *s = srs_of(st, info.circuit_id);
  CHECK(s && s->tier == CZ_SRS_HOT && s->size_bytes == zlen); /* the file; charged: resident */
  CHECK(st->memory_used >= info.resident_bytes);

  size_t wlen;
  uint8_t *wtns = file(DATA "many_public/witness.wtns", &wlen);
  cz_job_result res;
  CHECK(prove(e, id, wtns, wlen, &res, msg) == CZ_OK);
  CHECK_EQ_INT(res.status, CZ_JOB_COMPLETED);
  CHECK_EQ_INT(res.kind, CZ_KIND_CIRCOM);
  if (res.status == CZ_JOB_COMPLETED) check_answer("many_public", &res, wtns, wlen);
  free(res.proof);

  /* Refusals: at submit (one line), or the job FAILED with the reason. */
  CHECK(prove(e, id, wtns, wlen - 1, &res, msg) == CZ_ERR_INVALID_ARG && !strchr(msg, '\n'));
  uint8_t other[32] = {1};
  CHECK(prove(e, other, wtns, wlen, &res, msg) == CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "no such key") != NULL);
  wtns[wlen - 1] ^= 1; /* the last signal changed: the circuit refuses it */
  CHECK(prove(e, id, wtns, wlen, &res, msg) == CZ_OK);
  CHECK_EQ_INT(res.status, CZ_JOB_FAILED);
  CHECK(strstr(res.error, "does not satisfy") != NULL);
  free(res.proof);

  bool was = false;
  uint64_t freed = 0;
  CHECK(cz_circom_key_unload(k, info.key_id, &was, &freed, msg, sizeof msg) == CZ_OK);
  CHECK(was && freed == info.resident_bytes);
  CHECK(!cz_circom_key_find(k, info.key_id, NULL));
  CHECK(cz_circom_key_unload(k, info.key_id, &was, &freed, msg, sizeof msg) == CZ_ERR_NOT_FOUND);
  cz_engine_get_stats(e, st);
  CHECK(srs_of(st, info.circuit_id) == NULL);
  CHECK_EQ_INT(cz_circom_key_list(k, &info, 1), 0);
  /* Loaded again, it proves again. */
  CHECK(cz_circom_key_load(k, &spec, &info, &already, NULL, msg, sizeof msg) == CZ_OK && !already);
  wtns[wlen - 1] ^= 1;
  CHECK(prove(e, id, wtns, wlen, &res, msg) == CZ_OK);
  CHECK_EQ_INT(res.status, CZ_JOB_COMPLETED);
  free(res.proof);
  CHECK_EQ_INT(info.proofs, 0);
  CHECK(cz_circom_key_find(k, info.key_id, &info) && info.proofs == 1);
  free(st);
  free(wtns);
  free(zkey);
  cz_engine_destroy(e);
}

static void test_refused_keys(void) {
  cz_circom_keys *k = NULL;
  cz_engine *e = engine(1 << 20, &k);
  char msg[256] = "";
  cz_circom_key_spec big = {"dense", DATA "dense_chain/circuit.zkey", false};
  CHECK(cz_circom_key_load(k, &big, NULL, NULL, NULL, msg, sizeof msg) == CZ_ERR_NOMEM);
  CHECK(strstr(msg, "budget") != NULL);
  cz_circom_key_spec bn = {"bn", DATA "tiny_bn128/circuit.zkey", false};
  cz_err err = cz_circom_key_load(k, &bn, NULL, NULL, NULL, msg, sizeof msg);
  CHECK(err != CZ_OK && err != CZ_ERR_IO && strstr(msg, "bn128") != NULL);
  cz_circom_key_spec none = {"none", DATA "tiny/missing.zkey", false};
  CHECK(cz_circom_key_load(k, &none, NULL, NULL, NULL, msg, sizeof msg) == CZ_ERR_NOT_FOUND);
  cz_circom_key_spec noname = {"", DATA "tiny/circuit.zkey", false};
  CHECK(cz_circom_key_load(k, &noname, NULL, NULL, NULL, msg, sizeof msg) == CZ_ERR_INVALID_ARG);
  cz_circom_key_info info;
  CHECK_EQ_INT(cz_circom_key_list(k, &info, 1), 0); /* nothing refused is kept */
  cz_engine_stats *st = malloc(sizeof *st);
  cz_engine_get_stats(e, st);
  CHECK_EQ_INT(st->n_srs, 0);
  CHECK_EQ_INT(st->memory_used, 0);
  free(st);
  cz_engine_destroy(e);
}

int main(void) {
  test_load_prove_unload();
  test_refused_keys();
  return check_report("test_circom_prover");
}
