/* The parameters every Groth16 prover keeps hot in the engine: where the
 * file is, test parameters made on first use, and the loader. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cuzk/param_digest.h"
#include "provers/provers_internal.h"
#include "util/msg.h"

static cz_params_store_opts store_opts(const cz_provers_config *cfg, const cz_prover_srs *s) {
  cz_params_store_opts o = {0};
  o.official_dir = cfg->official_dir;
  o.test_dir = cfg->test_dir;
  o.test_tag = s->test_tag;
  o.n_threads = cfg->prove_threads;
  o.keygen = s->keygen;
  o.shape = s->shape;
  o.keygen_ctx = s->keygen_ctx;
  o.who = "cuzk-daemon";
  return o;
}

/* An official file is checked against parameters.json's digest before its
 * bytes are read (once; a stamp stands for later loads): a corrupt file
 * fails its first job with that reason instead of every proof. */
static cz_err hot_load(void *self, const char *id, const uint8_t *file, size_t len, int fd,
                       void **obj, uint64_t *bytes, char *msg, size_t msg_len) {
  const cz_prover_srs *s = self;
  const cz_provers_config *cfg = s->cfg;
  (void)id;
  if (s->official) {
    cz_params_store_opts o = store_opts(cfg, s);
    cz_err e = cz_official_params_check(s->name, &o, msg, msg_len);
    if (e != CZ_OK) return e;
  }
  cz_hot_srs *h = calloc(1, sizeof *h);
  if (!h) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  /* The engine's mapping is a read-only file mapping; the prover copies
   * the key's slices from its descriptor (cuzk/params.h). */
  cz_err e = cz_groth16_params_view(&h->params, file, len, false, cfg->prove_threads, msg, msg_len);
  if (e == CZ_OK) h->params.map.fd = fd;
  if (e == CZ_OK && !(h->pvk = cz_groth16_prepare(&h->params.vk))) {
    cz_groth16_params_free(&h->params);
    e = cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  }
  if (e != CZ_OK) {
    free(h);
    return e;
  }
  *obj = h;
  *bytes = sizeof *h + cz_groth16_params_resident_bytes(&h->params);
  return CZ_OK;
}

static void hot_unload(void *self, void *obj) {
  (void)self;
  cz_hot_srs *h = obj;
  if (!h) return;
  cz_groth16_pvk_free(h->pvk);
  cz_groth16_params_free(&h->params);
  free(h);
}

cz_srs_loader cz_hot_srs_loader(const cz_prover_srs *s) {
  return (cz_srs_loader){hot_load, hot_unload, (void *)s, true};
}

cz_err cz_prover_srs_declare(cz_engine *e, const cz_provers_config *cfg, cz_prover_srs *s,
                             char *msg, size_t msg_len) {
  char official[CZ_PARAMS_PATH_MAX], test[CZ_PARAMS_PATH_MAX];
  cz_params_store_opts o = store_opts(cfg, s);
  if (cz_params_store_paths(s->name, &o, official, test) != CZ_OK)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "parameter paths for %s do not fit",
                      s->circuit_id);
  s->official = access(official, R_OK) == 0 || !cfg->allow_test_params;
  snprintf(s->path, sizeof s->path, "%s", s->official ? official : test);
  s->cfg = cfg;
  cz_srs_loader loader = cz_hot_srs_loader(s);
  cz_err err = cz_engine_register_srs(e, s->circuit_id, s->path, &loader);
  if (err != CZ_OK) cz_msg(msg, msg_len, "cannot declare SRS %s", s->circuit_id);
  return err;
}

cz_err cz_prover_srs_ensure(const cz_provers_config *cfg, pthread_mutex_t *lock,
                            const cz_prover_srs *s, char *msg, size_t msg_len) {
  if (s->official || !cfg->allow_test_params || access(s->path, R_OK) == 0) return CZ_OK;
  pthread_mutex_lock(lock);
  cz_err e = CZ_OK;
  if (access(s->path, R_OK) != 0) {
    cz_params_store_opts o = store_opts(cfg, s);
    o.no_official = true;
    cz_groth16_params p;
    e = cz_params_store_get(&p, s->name, s->n_ic, &o, NULL, msg, msg_len);
    if (e == CZ_OK) cz_groth16_params_free(&p);
  }
  pthread_mutex_unlock(lock);
  return e;
}

void cz_provers_config_keep(cz_provers_kept_config *k, const cz_provers_config *cfg) {
  k->cfg = *cfg;
  snprintf(k->official_dir, sizeof k->official_dir, "%s",
           cfg->official_dir ? cfg->official_dir : "");
  snprintf(k->test_dir, sizeof k->test_dir, "%s", cfg->test_dir ? cfg->test_dir : "");
  k->cfg.official_dir = cfg->official_dir ? k->official_dir : NULL;
  k->cfg.test_dir = cfg->test_dir ? k->test_dir : NULL;
}
