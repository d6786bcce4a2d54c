/* cz_prover_cuda and cz_prover_pick (include/cuzk/cuda_backend.h): the
 * CUDA backend when this build and this machine have one, the CPU backend
 * otherwise, and why. */
#include <pthread.h>
#include <stdio.h>
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
  if (czg_cuda_open(&ops, device, WHY, sizeof WHY) == 0) {
    czg_backend_init(&BACKEND, &STATE, &ops);
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
