/* cz_prover_cuda and cz_prover_pick (include/cuzk/cuda_backend.h): the
 * CUDA backend when this build and this machine have one, the CPU backend
 * otherwise, and why. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuda/czg_host.h"
#include "cuzk/cuda_backend.h"
#include "util/msg.h"
#ifdef CUZK_HAVE_CUDA
#include "cuda/czg_cuda.h"
#endif

static void say(char *why, size_t why_len, const char *s) {
  if (why && why_len) cz_msg(why, why_len, "%s", s);
}

bool cz_prover_cuda_built(void) {
#ifdef CUZK_HAVE_CUDA
  return true;
#else
  return false;
#endif
}

/* The ordinal to open, fixed by the first cz_prover_cuda call (under MU). */
static pthread_mutex_t MU = PTHREAD_MUTEX_INITIALIZER;
static int DEVICE;
static bool TRIED;

cz_err cz_prover_cuda_set_device(int device) {
  if (device < 0) return CZ_ERR_INVALID_ARG;
  pthread_mutex_lock(&MU);
  cz_err e = TRIED && device != DEVICE ? CZ_ERR_INVALID_ARG : CZ_OK;
  if (e == CZ_OK) DEVICE = device;
  pthread_mutex_unlock(&MU);
  return e;
}

#ifdef CUZK_HAVE_CUDA
static pthread_once_t ONCE = PTHREAD_ONCE_INIT;
static cz_prover_backend BACKEND;
static czg_backend_state STATE;
static bool OPENED;
static char WHY[256];

static void open_device(void) {
  czg_ops ops;
  pthread_mutex_lock(&MU);
  TRIED = true;
  int device = DEVICE;
  pthread_mutex_unlock(&MU);
  if (cz_gpu_cuda_open(&ops, device, WHY, sizeof WHY) == 0) {
    cz_gpu_backend_init(&BACKEND, &STATE, &ops);
    OPENED = true;
  }
}
#endif

const cz_prover_backend *cz_prover_cuda(char *why, size_t why_len) {
#ifdef CUZK_HAVE_CUDA
  pthread_once(&ONCE, open_device);
  if (OPENED) return &BACKEND;
  say(why, why_len, WHY);
  return NULL;
#else
  pthread_mutex_lock(&MU);
  TRIED = true;
  pthread_mutex_unlock(&MU);
  say(why, why_len, "this build has no CUDA backend (CUZK_CUDA=OFF, or nvcc not found)");
  return NULL;
#endif
}

const cz_prover_backend *cz_prover_pick(const char *choice, bool *fell_back, char *why,
                                        size_t why_len) {
  if (fell_back) *fell_back = false;
  if (choice && !strcmp(choice, "cpu")) return cz_prover_cpu();
  if (!choice || (strcmp(choice, "cuda") && strcmp(choice, "auto"))) {
    say(why, why_len, "backend must be cpu, cuda or auto");
    return NULL;
  }
  char reason[256] = "";
  const cz_prover_backend *b = cz_prover_cuda(reason, sizeof reason);
  if (b) return b;
  if (!strcmp(choice, "cuda")) {
    if (why && why_len) cz_msg(why, why_len, "no usable CUDA device: %s", reason);
    return NULL;
  }
  say(why, why_len, reason);
  if (fell_back) *fell_back = true;
  return cz_prover_cpu();
}

/* ---- One backend per device ------------------------------------------------- */

typedef struct {
  cz_prover_backend b;
  czg_backend_state st;
} own_device;

int cz_prover_cuda_count(void) {
#ifdef CUZK_HAVE_CUDA
  return cz_gpu_cuda_count();
#else
  return 0;
#endif
}

static cz_prover_backend *device_from(const czg_ops *ops) {
  own_device *d = calloc(1, sizeof *d);
  if (!d) {
    ops->close(ops->ctx);
    return NULL;
  }
  cz_gpu_backend_init(&d->b, &d->st, ops);
  return &d->b;
}

cz_prover_backend *cz_prover_cuda_open(int ordinal, char *why, size_t why_len) {
#ifdef CUZK_HAVE_CUDA
  czg_ops ops;
  if (cz_gpu_cuda_open(&ops, ordinal, why, why_len) != 0) return NULL;
  cz_prover_backend *b = device_from(&ops);
  if (!b) say(why, why_len, "out of memory");
  return b;
#else
  (void)ordinal;
  say(why, why_len, "this build has no CUDA backend (CUZK_CUDA=OFF, or nvcc not found)");
  return NULL;
#endif
}

/* One word of cz_prover_emulated_faults' spec into f; false when unknown. */
static bool fault_word(const char *w, czg_emu_faults *f) {
  unsigned long a = 0, b = 1;
  char tail[8] = "";
  if (sscanf(w, "oom@%lux%lu%7s", &a, &b, tail) >= 1 && !tail[0] && a && b) {
    f->fail_step = a, f->fail_steps = b, f->fail_err = CZ_ERR_NOMEM;
    return true;
  }
  if (sscanf(w, "launch@%lux%lu%7s", &a, &b, tail) >= 1 && !tail[0] && a && b) {
    f->fail_step = a, f->fail_steps = b, f->fail_err = CZ_ERR_DEVICE;
    return true;
  }
  if (!strcmp(w, "corrupt@all")) return f->corrupt_all = true;
  if (sscanf(w, "corrupt@%lu%7s", &a, tail) == 1 && a) return f->corrupt_step = a, true;
  if (sscanf(w, "max_points=%lu%7s", &a, tail) == 1 && a) return f->max_points = a, true;
  if (sscanf(w, "slow=%lu%7s", &a, tail) == 1 && a < 60000) return f->delay_ms = (unsigned)a, true;
  return false;
}

cz_err cz_prover_emulated_faults(cz_prover_backend *b, const char *spec, char *why,
                                 size_t why_len) {
  czg_backend_state *st = b->state;
  if (!cz_gpu_emu_is(&st->ops))
    return cz_msg_err(why, why_len, CZ_ERR_INVALID_ARG, "%s is not an emulated device", b->name);
  czg_emu_faults f = {0};
  char copy[256];
  snprintf(copy, sizeof copy, "%s", spec ? spec : "");
  char *save = NULL;
  for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
    if (!fault_word(w, &f))
      return cz_msg_err(why, why_len, CZ_ERR_INVALID_ARG,
                        "unknown fault %s (expected oom@S[xN], "
                        "launch@S[xN], corrupt@S|all, max_points=N, slow=MS)",
                        w);
  cz_gpu_emu_set_faults(&st->ops, &f);
  return CZ_OK;
}

cz_prover_backend *cz_prover_emulated_open(const char *name, size_t mem_bytes, char *why,
                                           size_t why_len) {
  czg_ops ops;
  cz_prover_backend *b = NULL;
  if (cz_gpu_emu_open(&ops, name, mem_bytes) == CZ_OK) {
    cz_gpu_emu_use_library(&ops, true); /* the daemon's tests need many proofs */
    b = device_from(&ops);
  }
  if (!b) say(why, why_len, "out of memory");
  return b;
}

void cz_prover_device_close(cz_prover_backend *b) {
  if (!b) return;
  own_device *d = (own_device *)b;
  cz_gpu_backend_destroy(&d->st);
  free(d);
}

void cz_prover_device_info(const cz_prover_backend *b, char *model, size_t model_len,
                           uint64_t *free_bytes, uint64_t *total_bytes) {
  czg_backend_state *st = b->state;
  size_t f = 0;
  if (model && model_len) snprintf(model, model_len, "%s", st->ops.model ? st->ops.model : "");
  if (free_bytes) *free_bytes = st->ops.mem_free(st->ops.ctx, &f) == CZ_OK ? f : 0;
  if (total_bytes) *total_bytes = st->ops.mem_total;
}

uint64_t cz_prover_device_oom_retries(const cz_prover_backend *b) {
  czg_backend_state *st = b->state;
  return __atomic_load_n(&st->oom_retries, __ATOMIC_RELAXED);
}

cz_err cz_prover_device_self_test(const cz_prover_backend *b, char *msg, size_t msg_len) {
  return cz_gpu_self_test(b->state, msg, msg_len);
}
