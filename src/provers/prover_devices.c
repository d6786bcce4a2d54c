/* cz_provers_add_devices (cuzk/provers.h): the daemon's GPUs as engine
 * devices, each a backend of its own (cuzk/cuda_backend.h), and the CPU
 * backend as the last resort for a partition no device could prove. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/cuda_backend.h"
#include "cuzk/proof_ops.h"
#include "cuzk/provers.h"
#include "util/msg.h"

static cz_err dev_self_test(const void *h, char *msg, size_t len) {
  return cz_prover_device_self_test(h, msg, len);
}

static void dev_memory(const void *h, uint64_t *free_b, uint64_t *total) {
  cz_prover_device_info(h, NULL, 0, free_b, total);
}

static uint64_t dev_oom(const void *h) { return cz_prover_device_oom_retries(h); }

static void dev_close(const void *h) { cz_prover_device_close((cz_prover_backend *)h); }

/* The words of spec for emulated device k ("k:word" -> "word"), joined by
 * spaces into out, then injected. Words for no device are refused. */
static cz_err inject_faults(cz_prover_backend *b, size_t k, size_t n, const char *spec, char *why,
                            size_t why_len) {
  char copy[512], mine[256] = "";
  snprintf(copy, sizeof copy, "%s", spec ? spec : "");
  char *save = NULL;
  for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
    char *colon = strchr(w, ':');
    unsigned long dev = strtoul(w, NULL, 10);
    if (!colon || colon == w || dev >= n)
      return cz_msg_err(why, why_len, CZ_ERR_INVALID_ARG,
                        "fault %s: expected D:fault with D an emulated device (0-%zu)", w, n - 1);
    if (dev == k) {
      size_t used = strlen(mine);
      snprintf(mine + used, sizeof mine - used, "%s%s", used ? " " : "", colon + 1);
    }
  }
  return mine[0] ? cz_prover_emulated_faults(b, mine, why, why_len) : CZ_OK;
}

/* Device k of the list: CUDA ordinal, or the k-th emulated one. */
static cz_prover_backend *open_one(const cz_provers_devices *d, size_t k, char *name,
                                   size_t name_len, char *why, size_t why_len) {
  if (d->emulated) {
    snprintf(name, name_len, "emulated:%zu", k);
    return cz_prover_emulated_open(name, d->emulated_mem ? d->emulated_mem : (size_t)1 << 30, why,
                                   why_len);
  }
  int ordinal = d->n_ordinals ? d->ordinals[k] : (int)k;
  cz_prover_backend *b = cz_prover_cuda_open(ordinal, why, why_len);
  if (b) {
    char model[128];
    cz_prover_device_info(b, model, sizeof model, NULL, NULL);
    snprintf(name, name_len, "cuda:%d %s", ordinal, model);
  }
  return b;
}

cz_err cz_provers_add_devices(cz_engine *e, const cz_provers_devices *d, size_t *added, char *msg,
                              size_t msg_len) {
  *added = 0;
  size_t n = d->emulated     ? d->emulated
             : d->n_ordinals ? d->n_ordinals
                             : (size_t)cz_prover_cuda_count();
  if (n > CZ_ENGINE_MAX_DEVICES)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "%zu devices: at most %d", n,
                      CZ_ENGINE_MAX_DEVICES);
  for (size_t k = 0; k < n; k++) {
    char name[160], why[256] = "";
    cz_prover_backend *b = open_one(d, k, name, sizeof name, why, sizeof why);
    if (!b) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "device %zu: %s", k, why);
    if (d->emulated && inject_faults(b, k, n, d->emulated_faults, why, sizeof why) != CZ_OK) {
      cz_prover_device_close(b);
      return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "%s", why);
    }
    cz_engine_device dev = {name, b, d->workers, dev_self_test, dev_memory, dev_oom, dev_close};
    cz_err err = cz_engine_add_device(e, &dev);
    if (err != CZ_OK) {
      cz_prover_device_close(b);
      return cz_msg_err(msg, msg_len, err, "%s cannot be added", name);
    }
    ++*added;
  }
  if (n) cz_engine_set_fallback_device(e, cz_prover_cpu());
  return CZ_OK;
}
