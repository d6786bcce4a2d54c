/* Layer: cuda */
/* The CUDA prover backend (src/cuda) and the choice between it and the CPU.
 *
 * The CUDA backend implements cz_prover_backend: H (7 NTTs) and its MSM,
 * the batch addition of the scalar-1 bases and the tail MSM of the other
 * scalars run on the GPU; prep_msm (the 0 / 1 / other split) and the G2 MSM
 * run on the CPU at the same time. Its proofs are the CPU backend's, bit for
 * bit, for the same r and s. It prints CUZK_TIMING lines prep_msm,
 * ntt_msm_h, b_g2_msm, then ntt_h, msm_h, msm_b_g2, batch_add, tail_msm and
 * total (the last six through the timing hook).
 *
 * It exists only in builds with CUZK_CUDA (CMake option ON, or AUTO with
 * nvcc found); other builds still have these functions and report why the
 * backend is absent. Its prove has the CPU backend's contract
 * (cuzk/groth16_prove.h). Backends returned here are static: never freed. All
 * these functions may be called from any thread. */
#ifndef CUZK_CUDA_BACKEND_H
#define CUZK_CUDA_BACKEND_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/groth16_prove.h"

/* True when this build has the CUDA backend compiled in. */
bool cz_prover_cuda_built(void);

/* Choose the CUDA device ordinal cz_prover_cuda opens (default 0; the
 * daemon's gpus.devices = [N]). Returns CZ_OK, or CZ_ERR_INVALID_ARG for a
 * negative ordinal or once cz_prover_cuda has been called with another
 * ordinal (the device is opened once per process). Thread-safe. */
CZ_MUST_CHECK cz_err cz_prover_cuda_set_device(int device);

/* The CUDA backend on the chosen device (cz_prover_cuda_set_device, else 0),
 * opened on the first call and kept for the process (thread-safe). NULL when
 * there is none: built without CUDA, no driver, no such device; why (when not
 * NULL) then says which in one line. */
const cz_prover_backend *cz_prover_cuda(char *why, size_t why_len);

/* The backend for a choice "cpu", "cuda" or "auto". cpu: the CPU backend.
 * cuda: the CUDA backend, or NULL when cz_prover_cuda has none (why says
 * "no usable CUDA device: " and its reason): asking for the GPU and getting
 * the CPU would hide a broken install behind a slow prover. auto: the CUDA
 * backend when there is one, else the CPU backend with *fell_back = true
 * (when not NULL) and why set. NULL for any other choice, NULL included (why
 * says "backend must be cpu, cuda or auto"). */
const cz_prover_backend *cz_prover_pick(const char *choice, bool *fell_back, char *why,
                                        size_t why_len);

/* ---- One backend per device (the daemon's gpus.devices) -------------------
 * Each call opens a backend of its own, for one device, whatever
 * cz_prover_cuda holds; several may prove at once on one device (each
 * takes the device from H to the tail MSM: its CPU phases overlap the
 * other's device phases). Close each with cz_prover_device_close. */

/* CUDA devices the runtime reports; 0 without a CUDA build or driver. */
int cz_prover_cuda_count(void);
/* The backend of CUDA device ordinal (named "cuda"), or NULL with why. */
cz_prover_backend *cz_prover_cuda_open(int ordinal, char *why, size_t why_len);
/* An emulated device (named name, with mem_bytes of device memory): the
 * device's steps (batches, staging, memory) run on the CPU, H and the MSMs
 * by the CPU library. For tests of many devices on a machine without GPUs.
 * NULL with why when out of memory. */
cz_prover_backend *cz_prover_emulated_open(const char *name, size_t mem_bytes, char *why,
                                           size_t why_len);
/* TEST ONLY: faults for an emulated device to inject, from words separated
 * by spaces: oom@S or launch@S (device step S fails with out of memory, or
 * a launch error; oom@SxN: steps S..S+N-1), corrupt@S (step S's result is
 * wrong; corrupt@all: every result), max_points=N (a batch of more points
 * is out of memory), slow=MS (each step takes MS longer). A step is one
 * device call (H, an MSM batch, a batch addition), counted from 1.
 * CZ_ERR_INVALID_ARG with why for a word it does not know, or b not an
 * emulated device; the faults replace any before. */
CZ_MUST_CHECK cz_err cz_prover_emulated_faults(cz_prover_backend *b, const char *spec, char *why,
                                               size_t why_len);
/* Close a backend of cz_prover_cuda_open or cz_prover_emulated_open (NULL
 * is allowed); no prove may be running on it. */
void cz_prover_device_close(cz_prover_backend *b);
/* The device's product name ("" when it has none), memory now free and in
 * all (0 when the device cannot say). Any pointer may be NULL. */
void cz_prover_device_info(const cz_prover_backend *b, char *model, size_t model_len,
                           uint64_t *free_bytes, uint64_t *total_bytes);
/* Batches that did not fit in the device's memory and were retried with
 * fewer points, since it was opened. */
uint64_t cz_prover_device_oom_retries(const cz_prover_backend *b);
/* The device's self-test: a small H, MSM and batch addition on it checked
 * against the CPU. CZ_OK, the device's error, or CZ_ERR_PROOF_INVALID for a
 * wrong result; msg says which step. */
CZ_MUST_CHECK cz_err cz_prover_device_self_test(const cz_prover_backend *b, char *msg,
                                                size_t msg_len);

#endif
