/* The daemon config's settings: their defaults, the keys of each TOML
 * table with the values each accepts, and what they mean for the engine.
 * They stand apart from the TOML reader (config.c), which only turns the
 * text into keys and values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/server.h"
#include "server/config_internal.h"

void cz_daemon_config_default(cz_daemon_config *c) {
  memset(c, 0, sizeof *c);
  snprintf(c->listen, sizeof c->listen, "unix:///run/curio/cuzk.sock");
  c->socket_mode = 0660;
  const char *env = getenv("FIL_PROOFS_PARAMETER_CACHE");
  snprintf(c->param_cache, sizeof c->param_cache, "%s", env && env[0] ? env : "/data/zk/params");
  c->total_budget = 0;
  c->safety_margin = 5ull << 30;
  c->eviction_min_idle_ms = 5 * 60 * 1000;
  c->gpu_workers_per_device = 2;
  c->gpu_unhealthy_after = 3;
  c->gpu_self_test_interval_ms = 60 * 1000;
  c->max_batch_size = 1;
  c->max_batch_wait_ms = 10000;
  c->pipeline_enabled = true;
  c->synthesis_concurrency = 1;
  c->max_parallel_synthesis = 18;
  snprintf(c->log_level, sizeof c->log_level, "info");
  snprintf(c->log_format, sizeof c->log_format, "text");
  c->pce = true;
  snprintf(c->backend, sizeof c->backend, "auto");
}

/* ---- keys ----------------------------------------------------------------- */

static bool want_u32(const value *v, uint32_t *out, const char **why) {
  if (v->type != V_INT || v->i < 0 || v->i > (long long)UINT32_MAX)
    return *why = "expected a non-negative integer", false;
  *out = (uint32_t)v->i;
  return true;
}

static bool want_str(const value *v, char *out, size_t cap, const char **why) {
  if (v->type != V_STR) return *why = "expected a string", false;
  if (strlen(v->str) >= cap) return *why = "string too long", false;
  snprintf(out, cap, "%s", v->str);
  return true;
}

static bool want_size(const value *v, uint64_t *out, bool allow_auto, const char **why) {
  if (v->type == V_INT && v->i >= 0) *out = (uint64_t)v->i;
  else if (v->type != V_STR) return *why = "expected a size such as \"5GiB\"", false;
  else if (allow_auto && strcmp(v->str, "auto") == 0) return *out = 0, true;
  else if (cz_parse_size(v->str, out) != CZ_OK)
    return *why = "expected a size such as \"5GiB\"", false;
  if (allow_auto && *out == 0) return *why = "a budget of 0 bytes (use \"auto\")", false;
  return true;
}

static bool want_duration(const value *v, uint64_t *out, const char **why) {
  if (v->type == V_INT && v->i >= 0) return *out = (uint64_t)v->i * 1000u, true; /* seconds */
  if (v->type != V_STR || cz_parse_duration_ms(v->str, out) != CZ_OK)
    return *why = "expected a duration such as \"5m\" or \"30s\"", false;
  return true;
}

static bool want_bool(const value *v, bool *out, const char **why) {
  if (v->type != V_BOOL) return *why = "expected true or false", false;
  *out = v->b;
  return true;
}

/* A string that must be one of the NULL-ended list; *why is expected. */
static bool want_one_of(const value *v, char *out, size_t cap, const char *const *allowed,
                        const char *expected, const char **why) {
  if (!want_str(v, out, cap, why)) return false;
  for (size_t i = 0; allowed[i]; i++)
    if (!strcmp(out, allowed[i])) return true;
  return *why = expected, false;
}

/* A string, as TOML has no 0660: a bare integer 660 would be decimal. */
static bool want_mode(const value *v, uint32_t *out, const char **why) {
  char *end;
  if (v->type != V_STR || !v->str[0] || strspn(v->str, "01234567") != strlen(v->str) ||
      strlen(v->str) > 4 || strtoul(v->str, &end, 8) > 0777)
    return *why = "expected an octal mode string such as \"0660\"", false;
  *out = (uint32_t)strtoul(v->str, &end, 8);
  return true;
}

static bool want_devices(const value *v, cz_daemon_config *c, const char **why) {
  if (v->type != V_ARRAY || (v->n && v->item_type != V_INT))
    return *why = "expected an array of device ordinals", false;
  if (v->n > CZ_MAX_GPU_DEVICES) return *why = "too many devices", false;
  for (size_t i = 0; i < v->n; i++) {
    if (v->items[i] < 0 || v->items[i] > 1024) return *why = "bad device ordinal", false;
    /* two workers of one device must share its state, not open it twice */
    for (size_t k = 0; k < i; k++)
      if (v->items[k] == v->items[i]) return *why = "a device is listed twice", false;
    c->gpu_devices[i] = (int)v->items[i];
  }
  c->n_gpu_devices = v->n;
  return true;
}

/* The [gpus] keys (cz_config_apply's rules). */
static bool apply_gpus(cz_daemon_config *c, const char *key, const value *v, bool *unknown,
                       const char **why) {
  static const char *const backends[] = {"cpu", "cuda", "auto", NULL};
  *unknown = false;
  if (!strcmp(key, "gpus.devices")) return want_devices(v, c, why);
  if (!strcmp(key, "gpus.gpu_threads")) {
    /* Nothing reads it yet: the Groth16 stage's CPU threads are
     * synthesis.threads. A non-zero value would be a setting that does
     * nothing, so it is refused. */
    if (!want_u32(v, &c->gpu_threads, why)) return false;
    if (c->gpu_threads)
      return *why = "not implemented: only 0 (the proving threads are synthesis.threads)", false;
    return true;
  }
  if (!strcmp(key, "gpus.gpu_workers_per_device"))
    return want_u32(v, &c->gpu_workers_per_device, why);
  if (!strcmp(key, "gpus.backend"))
    return want_one_of(v, c->backend, sizeof c->backend, backends, "expected cpu, cuda or auto",
                       why);
  if (!strcmp(key, "gpus.unhealthy_after")) return want_u32(v, &c->gpu_unhealthy_after, why);
  if (!strcmp(key, "gpus.self_test_interval"))
    return want_duration(v, &c->gpu_self_test_interval_ms, why);
  if (!strcmp(key, "gpus.test_emulated_faults"))
    return want_str(v, c->test_emulated_faults, sizeof c->test_emulated_faults, why);
  if (!strcmp(key, "gpus.test_emulated_devices")) {
    if (!want_u32(v, &c->test_emulated_devices, why)) return false;
    if (c->test_emulated_devices > CZ_MAX_GPU_DEVICES) return *why = "too many devices", false;
    return true;
  }
  *unknown = true;
  return true;
}

/* The [daemon], [srs] and [memory] keys (cz_config_apply's rules). */
static bool apply_host(cz_daemon_config *c, const char *key, const value *v, bool *unknown,
                       const char **why) {
  *unknown = false;
  if (!strcmp(key, "daemon.listen")) return want_str(v, c->listen, sizeof c->listen, why);
  if (!strcmp(key, "daemon.status_listen"))
    return want_str(v, c->status_listen, sizeof c->status_listen, why);
  if (!strcmp(key, "daemon.socket_mode")) return want_mode(v, &c->socket_mode, why);
  if (!strcmp(key, "daemon.socket_group"))
    return want_str(v, c->socket_group, sizeof c->socket_group, why);
  if (!strcmp(key, "srs.param_cache"))
    return want_str(v, c->param_cache, sizeof c->param_cache, why);
  if (!strcmp(key, "srs.test_param_cache"))
    return want_str(v, c->test_param_cache, sizeof c->test_param_cache, why);
  if (!strcmp(key, "srs.allow_test_params")) return want_bool(v, &c->allow_test_params, why);
  if (!strcmp(key, "memory.total_budget")) return want_size(v, &c->total_budget, true, why);
  if (!strcmp(key, "memory.safety_margin")) return want_size(v, &c->safety_margin, false, why);
  if (!strcmp(key, "memory.eviction_min_idle"))
    return want_duration(v, &c->eviction_min_idle_ms, why);
  *unknown = true;
  return true;
}

/* A key of the current [[circom.keys]] table. */
static bool apply_circom_key(cz_daemon_config *c, const char *key, const value *v, bool *unknown,
                             const char **why) {
  *unknown = strncmp(key, "circom.keys.", 12) != 0;
  if (*unknown) return true;
  if (!c->n_circom_keys) return *why = "expected [[circom.keys]] tables", false;
  cz_circom_key_config *k = &c->circom_keys[c->n_circom_keys - 1];
  key += 12;
  if (!strcmp(key, "name")) return want_str(v, k->name, sizeof k->name, why);
  if (!strcmp(key, "path")) return want_str(v, k->path, sizeof k->path, why);
  if (!strcmp(key, "check_subgroup")) return want_bool(v, &k->check_subgroup, why);
  *unknown = true;
  return true;
}

/* Apply one key; false with *why on a bad value; *unknown when not ours. */
bool cz_config_apply(cz_daemon_config *c, const char *key, const value *v, bool *unknown,
                     const char **why) {
  static const char *const levels[] = {"trace", "debug", "info", "warn", "error", NULL};
  static const char *const formats[] = {"text", "json", NULL};
  bool ok = apply_host(c, key, v, unknown, why);
  if (!*unknown) return ok;
  ok = apply_circom_key(c, key, v, unknown, why);
  if (!*unknown) return ok;
  *unknown = false;
  ok = apply_gpus(c, key, v, unknown, why);
  if (!*unknown) return ok;
  *unknown = false;
  if (!strcmp(key, "scheduler.max_batch_size")) return want_u32(v, &c->max_batch_size, why);
  if (!strcmp(key, "scheduler.max_batch_wait_ms")) {
    if (v->type != V_INT || v->i < 0) return *why = "expected milliseconds", false;
    c->max_batch_wait_ms = (uint64_t)v->i;
    return true;
  }
  if (!strcmp(key, "synthesis.threads")) return want_u32(v, &c->synthesis_threads, why);
  if (!strcmp(key, "synthesis.pce")) return want_bool(v, &c->pce, why);
  if (!strcmp(key, "pipeline.enabled")) return want_bool(v, &c->pipeline_enabled, why);
  if (!strcmp(key, "pipeline.synthesis_concurrency"))
    return want_u32(v, &c->synthesis_concurrency, why);
  if (!strcmp(key, "pipeline.max_parallel_synthesis"))
    return want_u32(v, &c->max_parallel_synthesis, why);
  if (!strcmp(key, "pipeline.max_gpu_queue_depth"))
    return want_u32(v, &c->max_gpu_queue_depth, why);
  if (!strcmp(key, "logging.level"))
    return want_one_of(v, c->log_level, sizeof c->log_level, levels,
                       "expected trace, debug, info, warn or error", why);
  if (!strcmp(key, "logging.format"))
    return want_one_of(v, c->log_format, sizeof c->log_format, formats, "expected text or json",
                       why);
  *unknown = true;
  return true;
}

void cz_daemon_engine_config(const cz_daemon_config *c, cz_engine_config *out) {
  cz_engine_config_default(out);
  size_t devices = c->test_emulated_devices ? c->test_emulated_devices
                   : c->n_gpu_devices       ? c->n_gpu_devices
                                            : 1;
  size_t workers = devices * (c->gpu_workers_per_device ? c->gpu_workers_per_device : 1);
  out->n_workers = (unsigned)(workers > CZ_ENGINE_MAX_WORKERS ? CZ_ENGINE_MAX_WORKERS : workers);
  out->memory_budget = c->total_budget;
  out->safety_margin = c->safety_margin;
  out->eviction_min_idle_ms = c->eviction_min_idle_ms;
  out->max_batch_size = c->max_batch_size;
  out->max_batch_wait_ms = c->max_batch_wait_ms;
  out->param_cache = c->param_cache;
  /* A PoSt never waits for a free worker, and proves ahead of PoRep. */
  out->urgent_workers = 1;
  out->background_nice = 10;
  out->max_parallel_synthesis = c->max_parallel_synthesis;
  out->synthesis_concurrency = c->synthesis_concurrency;
  out->max_queue_depth = c->max_gpu_queue_depth;
  /* Without the pipeline a partition is proved before the next is made. */
  out->serial = !c->pipeline_enabled;
  out->synthesis_threads = c->synthesis_threads;
  out->device_fail_limit = c->gpu_unhealthy_after;
  out->self_test_interval_ms = c->gpu_self_test_interval_ms;
}
