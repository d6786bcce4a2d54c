/* The daemon's use of the prover table (src/provers/): its config mapped
 * onto cz_provers_config, the backend picked once, the devices of
 * gpus.devices opened and handed to the engine, every row registered. */
#include <stdio.h>
#include <string.h>
#include "provers.h"
#include "cuzk/log.h"
#include "cuzk/provers.h"
#include "cuzk/cuda_backend.h"
#include "util/msg.h"

cz_err cz_daemon_register_provers(cz_engine *e, const cz_daemon_config *cfg,
                                  cz_circom_keys **circom, char *msg, size_t msg_len) {
  /* The backend is chosen once: a fallback is said once, here and in status. */
  bool fell_back = false;
  char why[256] = "";
  /* The pick opens the first listed device to see that CUDA works. */
  if (cfg->n_gpu_devices && cz_prover_cuda_set_device(cfg->gpu_devices[0]) != CZ_OK)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "gpus.devices: device %d cannot be chosen now", cfg->gpu_devices[0]);
  const cz_prover_backend *backend = cz_prover_pick(cfg->backend, &fell_back, why, sizeof why);
  if (!backend)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "gpus.backend %s: %s", cfg->backend, why);
  char note[256] = "";
  if (fell_back) {
    snprintf(note, sizeof note, "backend %s requested; proving on the CPU: %s", cfg->backend, why);
    cz_log(CZ_LOG_INFO, "daemon", "%s", note);
  }
  const char *name = backend->name ? backend->name : "cpu";
  cz_engine_set_backend_info(e, name, note);
  /* The CPU opens no device: say so rather than seem to prove on it. */
  bool emulated = cfg->test_emulated_devices > 0;
  if (cfg->n_gpu_devices && !strcmp(name, "cpu") && !emulated) {
    char list[CZ_MAX_GPU_DEVICES * 12 + 2] = "";
    for (size_t i = 0; i < cfg->n_gpu_devices; i++)
      snprintf(list + strlen(list), sizeof list - strlen(list), "%s%d", i ? ", " : "",
               cfg->gpu_devices[i]);
    cz_log(CZ_LOG_WARN, "daemon", "gpus.devices = [%s] is not used: proving on the CPU", list);
  }
  if (emulated || strcmp(name, "cpu")) {
    cz_provers_devices dv = {.ordinals = cfg->gpu_devices,
                             .n_ordinals = cfg->n_gpu_devices,
                             .emulated = cfg->test_emulated_devices,
                             .workers = cfg->gpu_workers_per_device,
                             .emulated_faults = cfg->test_emulated_faults};
    size_t added = 0;
    cz_err err = cz_provers_add_devices(e, &dv, &added, why, sizeof why);
    if (err != CZ_OK) return cz_msg_err(msg, msg_len, err, "gpus.devices: %s", why);
    if (emulated) {
      snprintf(note, sizeof note, "TEST ONLY: %zu emulated devices (gpus.test_emulated_devices)",
               added);
      cz_engine_set_backend_info(e, "cuda-emulated", note);
      backend = cz_prover_cpu(); /* every partition gets a device or the CPU fallback */
    }
    cz_log(CZ_LOG_INFO, "daemon", "proving on %zu device(s), %u worker(s) each", added,
           cfg->gpu_workers_per_device ? cfg->gpu_workers_per_device : 2);
  }

  cz_provers_config pc = {0};
  pc.official_dir = cfg->param_cache;
  pc.allow_test_params = cfg->allow_test_params;
  pc.test_dir = cfg->test_param_cache[0] ? cfg->test_param_cache : NULL;
  pc.prove_threads = cfg->synthesis_threads;
  pc.backend = backend;
  pc.pce = cfg->pce;
  return cz_provers_register_all(e, &pc, circom, msg, msg_len);
}

cz_err cz_daemon_load_circom_keys(cz_circom_keys *k, const cz_daemon_config *cfg, char *msg,
                                  size_t msg_len) {
  for (size_t i = 0; i < cfg->n_circom_keys; i++) {
    const cz_circom_key_config *c = &cfg->circom_keys[i];
    cz_circom_key_info info;
    uint64_t ms = 0;
    char why[400] = "";
    cz_circom_key_spec spec = {c->name, c->path, c->check_subgroup};
    cz_err err = cz_circom_key_load(k, &spec, &info, NULL, &ms, why, sizeof why);
    if (err != CZ_OK)
      return cz_msg_err(msg, msg_len, err, "circom.keys[%zu] %s (%s): %s", i, c->name, c->path,
                        why);
    cz_log(CZ_LOG_INFO, "daemon", "circom key %s: %s (%zu vars, domain %zu, %llu ms)", info.name,
           info.key_id, info.n_vars, info.domain_size, (unsigned long long)ms);
  }
  return CZ_OK;
}

void cz_daemon_workers_for_devices(const cz_daemon_config *cfg, cz_engine_config *ec) {
  if (cfg->n_gpu_devices || cfg->test_emulated_devices || !strcmp(cfg->backend, "cpu")) return;
  unsigned per = cfg->gpu_workers_per_device ? cfg->gpu_workers_per_device : 1;
  unsigned n = (unsigned)cz_prover_cuda_count() * per;
  if (n > CZ_ENGINE_MAX_WORKERS) n = CZ_ENGINE_MAX_WORKERS;
  if (n > ec->n_workers) ec->n_workers = n;
}
