/* Recorded shapes kept on disk (contract in cuzk/provers.h), and the
 * computed SRS entries pce-<circuit> that every prover declares through
 * cz_prover_shape_declare (provers_internal.h). */
#include <stdio.h>
#include <string.h>

#include "cuzk/clock.h"
#include "cuzk/log.h"
#include "cuzk/provers.h"
#include "cuzk/sha256.h"
#include "provers/provers_internal.h"
#include "util/atomic_file.h"
#include "util/msg.h"

void cz_prover_shape_key(const char *param_name, const char *revision,
                         uint8_t key[CZ_PCE_KEY_BYTES]) {
  char buf[600];
  int n = snprintf(buf, sizeof buf, "cuzk pce%c%u%c%s%c%s", 0, CZ_PCE_FORMAT_VERSION, 0, param_name,
                   0, revision ? revision : "");
  cz_sha256_digest(key, buf, n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf);
}

bool cz_prover_shape_path(char *out, size_t out_len, const char *dir, const char *circuit_id,
                          const uint8_t key[CZ_PCE_KEY_BYTES]) {
  char hex[17];
  for (int i = 0; i < 8; i++) snprintf(hex + 2 * i, 3, "%02x", key[i]);
  int n = snprintf(out, out_len, "%s/pce-%s-%s.bin", dir, circuit_id, hex);
  return n > 0 && (size_t)n < out_len;
}

cz_err cz_prover_shape_get(const cz_shape_source *src, cz_pce **out, cz_shape_origin *origin,
                           char *msg, size_t msg_len) {
  *out = NULL;
  const char *dir = src->dir, *circuit_id = src->circuit_id;
  const char *param_name = src->param_name, *revision = src->revision;
  cz_shape_record_fn record = src->record;
  const void *ctx = src->ctx;
  uint8_t key[CZ_PCE_KEY_BYTES];
  cz_prover_shape_key(param_name, revision, key);
  char path[4096], why[1536] = "";
  bool have_path = dir && cz_prover_shape_path(path, sizeof path, dir, circuit_id, key);
  if (have_path) {
    cz_atomic_sweep(path); /* the temporary of a run killed while saving */
    uint64_t t0 = cz_now_ns();
    cz_pce_file_status st = cz_pce_load(path, key, out, why, sizeof why);
    if (st == CZ_PCE_FILE_OK) {
      cz_log(CZ_LOG_INFO, "provers", "shape %s loaded from %s in %.0f ms", circuit_id, path,
             (double)(cz_now_ns() - t0) / 1e6);
      if (origin) *origin = CZ_SHAPE_LOADED;
      return CZ_OK;
    }
    if (st != CZ_PCE_FILE_MISSING)
      cz_log(CZ_LOG_WARN, "provers", "shape %s: %s; recording it again", circuit_id, why);
  }
  cz_err e = record(ctx, out, msg, msg_len);
  if (e != CZ_OK) return e;
  cz_shape_origin o = CZ_SHAPE_UNSAVED;
  if (have_path) {
    if (cz_pce_save(*out, path, key, why, sizeof why) == CZ_OK) {
      o = CZ_SHAPE_RECORDED;
      cz_log(CZ_LOG_INFO, "provers", "shape %s recorded and saved to %s", circuit_id, path);
    } else {
      cz_log(CZ_LOG_WARN, "provers", "shape %s not saved: %s", circuit_id, why);
    }
  }
  if (origin) *origin = o;
  return CZ_OK;
}

/* ---- the computed SRS entries ------------------------------------------- */

static cz_err shape_load(void *self, const char *id, const uint8_t *file, size_t len, int fd,
                         void **obj, uint64_t *bytes, char *msg, size_t msg_len) {
  cz_prover_shape *s = self;
  (void)file, (void)len, (void)fd, (void)id;
  cz_pce *shape = NULL;
  cz_shape_source from = {s->dir,           s->srs->circuit_id, s->srs->name,
                          s->srs->test_tag, s->record,          s->ctx};
  cz_err e = cz_prover_shape_get(&from, &shape, NULL, msg, msg_len);
  if (e != CZ_OK) return e;
  cz_pce_info info;
  cz_pce_get_info(shape, &info);
  *obj = shape;
  *bytes = info.bytes;
  return CZ_OK;
}

static void shape_unload(void *self, void *obj) {
  (void)self;
  cz_pce_free(obj);
}

cz_err cz_prover_shape_declare(cz_engine *e, cz_prover_shape *s, const cz_prover_srs *srs,
                               const char *dir, cz_shape_record_fn record, const void *ctx,
                               uint64_t estimate_bytes, char *msg, size_t msg_len) {
  *s = (cz_prover_shape){.srs = srs, .dir = dir, .record = record, .ctx = ctx};
  snprintf(s->id, sizeof s->id, "pce-%s", srs->circuit_id);
  cz_srs_loader loader = {shape_load, shape_unload, s, false};
  cz_err err = cz_engine_register_computed_srs(e, s->id, estimate_bytes, &loader);
  if (err != CZ_OK) cz_msg(msg, msg_len, "cannot declare the shape %s", s->id);
  return err;
}
