/* The host side of the GPU prover, in plain C so that it builds and is
 * tested everywhere (no CUDA needed):
 *   - czg_split: prep_msm, the classification of an MSM's scalars into 0
 *     (dropped), 1 (their bases go to batch_add) and the rest (tail MSM);
 *   - cz_gpu_plan_batch: how many points one device batch takes, from the
 *     device's free memory;
 *   - czg_pool: the reusable pinned staging buffers (the SRS itself is never
 *     pinned: bases are copied through these buffers batch by batch);
 *   - czg_ops: what a device must do; czg_prove: the backend's prove on any
 *     czg_ops (the CUDA device in czg_cuda.cu, the emulated one in czg_emu.c).
 */
#ifndef CUZK_CUDA_CZG_HOST_H
#define CUZK_CUDA_CZG_HOST_H
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/msm.h"
#include "cuzk/groth16_prove.h"

/* ---- prep_msm ------------------------------------------------------------ */

/* One G1 MSM split by scalar class. one[] and other[] point into the
 * segments' base arrays (never copied here); k[i] is other[i]'s canonical
 * scalar. Sum over one[] plus the MSM of (other, k) equals the whole MSM. */
typedef struct {
  const cz_g1_affine **one;
  size_t n_one;
  const cz_g1_affine **other;
  cz_scalar *k;
  size_t n_other;
  size_t n_zero;
  bool encoded; /* the pointers are a mapped key's encodings (the caller sets it) */
} czg_split;

/* Split the MSM of segs (cz_msm_g1_segments' layout and checks: bases follow
 * the density bitmap when there is one). CZ_ERR_INVALID_ARG as
 * cz_msm_g1_segments for malformed segments, CZ_ERR_NOMEM. On error *out is
 * empty (and may be freed). */
cz_err cz_gpu_split_g1(czg_split *out, const cz_msm_g1_segment *segs, size_t n_segs);
void cz_gpu_split_free(czg_split *s);

/* ---- batch sizing -------------------------------------------------------- */

/* Points per device batch: as many as fit in free_bytes less reserve_bytes
 * at bytes_per_point each, at most max_batch (0: no cap) and at most n.
 * 0 when not even one point fits (the caller falls back or fails). */
size_t cz_gpu_plan_batch(size_t n, size_t free_bytes, size_t reserve_bytes, size_t bytes_per_point,
                         size_t max_batch);

/* ---- pinned staging pool ------------------------------------------------- */

/* A fixed number of buffers, allocated on first use by alloc (cudaHostAlloc
 * on the device; malloc in tests), grown when a caller asks for more than a
 * buffer holds, and kept between proofs. acquire blocks while all are taken. */
typedef struct {
  void *(*alloc)(void *ctx, size_t n);
  void (*free)(void *ctx, void *p);
  void *ctx;
  unsigned n_bufs;
  void *buf[4];
  size_t size[4];
  bool busy[4];
  size_t n_allocs; /* allocations made so far (a reused buffer adds none) */
  pthread_mutex_t mu;
  pthread_cond_t cv;
} czg_pool;

/* n_bufs in 1..4. */
void cz_gpu_pool_init(czg_pool *p, unsigned n_bufs, void *(*alloc)(void *, size_t),
                      void (*free_fn)(void *, void *), void *ctx);
/* A free buffer of at least n bytes (index in *slot), NULL when alloc fails. */
void *cz_gpu_pool_acquire(czg_pool *p, size_t n, unsigned *slot);
void cz_gpu_pool_release(czg_pool *p, unsigned slot);
void cz_gpu_pool_destroy(czg_pool *p);

/* ---- the device interface ------------------------------------------------ */

typedef struct czg_ops czg_ops;
struct czg_ops {
  const char *name;
  const char *model; /* the device's product name (status); NULL: none */
  void *ctx;
  /* Device memory now free, and the device's whole memory (status). */
  cz_err (*mem_free)(void *ctx, size_t *free_bytes);
  size_t mem_total;
  /* Device bytes per point of a tail-MSM batch and of a batch_add batch, and
   * what one MSM call needs besides (buckets, tables). */
  size_t msm_bytes_per_point, add_bytes_per_point, msm_reserve_bytes;
  /* Pinned host memory for the pool. */
  void *(*host_alloc)(void *ctx, size_t n);
  void (*host_free)(void *ctx, void *p);
  /* Compute H from a, b, c (m <= 2^log_n values each, natural order,
   * Montgomery, zero-padded to 2^log_n on the device) as cz_ntt_h_poly does
   * and keep it on the device for msm_h. c NULL: c = a b, made on the
   * device (synthesis leaves it out: cz_assignment). */
  cz_err (*ntt_h)(void *ctx, const cz_fr *a, const cz_fr *b, const cz_fr *c, size_t m,
                  unsigned log_n);
  /* H's 2^log_n coefficients, natural order, Montgomery (for checks). */
  cz_err (*h_read)(void *ctx, cz_fr *out);
  /* *out = sum_{i < n} h_{first + i} bases[i] (bases staged by the caller). */
  cz_err (*msm_h)(void *ctx, const cz_g1_affine *bases, size_t first, size_t n, cz_g1 *out);
  /* *out = sum_{i < n} pts[i]. */
  cz_err (*batch_add)(void *ctx, const cz_g1_affine *pts, size_t n, cz_g1 *out);
  /* *out = sum_{i < n} k[i] pts[i], k canonical. */
  cz_err (*msm)(void *ctx, const cz_g1_affine *pts, const cz_scalar *k, size_t n, cz_g1 *out);
  /* Release the device (and ctx). */
  void (*close)(void *ctx);
};

/* The backend state of a device: its ops and staging pool. Several threads
 * may prove on one device at once (gpus.gpu_workers_per_device): each
 * takes the device (the mutex) from H to the tail MSM, while the others'
 * CPU phases (prep_msm, the G2 MSM) run. */
typedef struct {
  czg_ops ops;
  czg_pool pool;
  size_t max_batch; /* cap on points per batch (0: memory decides); tests use it */
  pthread_mutex_t device;
  unsigned long oom_retries; /* batches that did not fit and were retried smaller
                               (__atomic builtins: the header is C++ too) */
} czg_backend_state;

/* Fill b as a backend named ops->name that proves through st. */
void cz_gpu_backend_init(cz_prover_backend *b, czg_backend_state *st, const czg_ops *ops);
/* Close st's device and free its pool. */
void cz_gpu_backend_destroy(czg_backend_state *st);

/* *out = sum_{i < n} k[i] pts[i], and *out = sum_{i < n} pts[i], on the
 * device through the prover's staging pool, in batches that its free memory
 * allows, halved after an out-of-memory error (counted in oom_retries) as a
 * proof's MSMs are. The caller holds st->device. */
cz_err cz_gpu_msm_batched(czg_backend_state *st, const cz_g1_affine *pts, const cz_scalar *k,
                          size_t n, cz_g1 *out);
cz_err cz_gpu_batch_add_batched(czg_backend_state *st, const cz_g1_affine *pts, size_t n,
                                cz_g1 *out);

/* The device's self-test: a small H (NTT) and a small MSM and batch
 * addition on it, each compared with the CPU library's result. CZ_OK when
 * all agree; otherwise the device's error, or CZ_ERR_PROOF_INVALID for a
 * wrong result, with msg saying which step. Takes the device as a proof
 * does. */
cz_err cz_gpu_self_test(czg_backend_state *st, char *msg, size_t msg_len);

/* The emulated device: every kernel body of czg_arith.h run on the CPU, one
 * thread, with free_bytes of pretend device memory (small values force many
 * batches). For tests of everything but the CUDA runtime. Each open makes a
 * device of its own (memory, faults, H); ops->close frees it. name (NULL:
 * "cuda-emulated") is copied. CZ_ERR_NOMEM. */
cz_err cz_gpu_emu_open(czg_ops *ops, const char *name, size_t free_bytes);
/* cz_gpu_emu_open with the default name; aborts when out of memory (tests). */
void cz_gpu_emu_ops(czg_ops *ops, size_t free_bytes);

/* Faults an emulated device injects. A step is one call of ntt_h, msm_h,
 * batch_add or msm, counted from 1 since the faults were set. */
typedef struct {
  unsigned long fail_step;    /* the first step that fails (0: none) */
  unsigned long fail_steps;   /* steps from fail_step on that fail (0 -> 1) */
  cz_err fail_err;            /* their error: CZ_ERR_NOMEM (an allocation), CZ_ERR_DEVICE
                                 (a launch); CZ_OK -> CZ_ERR_NOMEM */
  size_t max_points;          /* a batch of more points fails with CZ_ERR_NOMEM (0: none) */
  unsigned long corrupt_step; /* the step whose result is wrong (0: none) */
  bool corrupt_all;           /* every step's result is wrong */
  unsigned delay_ms;          /* each step takes this much longer (a slow device) */
} czg_emu_faults;

/* Replace the faults of the emulated device of ops (f NULL: none) and
 * restart the step count. Thread-safe, at any time. */
void cz_gpu_emu_set_faults(const czg_ops *ops, const czg_emu_faults *f);
/* ops are an emulated device's. */
bool cz_gpu_emu_is(const czg_ops *ops);
/* on: H and the MSMs of the device are computed by the CPU library (all
 * cores, the same results) instead of the kernel bodies, for tests that
 * need many proofs from many devices quickly (the daemon's); the steps,
 * faults, batches and memory stay the emulated device's. Thread-safe. */
void cz_gpu_emu_use_library(const czg_ops *ops, bool on);
/* Steps the device has run since its faults were last set. */
unsigned long cz_gpu_emu_steps(const czg_ops *ops);

/* The host's last steps after the kernels, shared by both devices (plain
 * types so that czg_cuda.cu can declare them): *out (a cz_g1) = the sum of
 * n XYZZ points (czg_xyzz = cz_g1_xyzz bytes); and the MSM result from the
 * nw x segs window-segment sums, window w's at [w segs, (w+1) segs), as
 * sum_w 2^(c w) W_w. */
void cz_gpu_sum_xyzz(void *out, const void *xyzz, size_t n);
void cz_gpu_finish_windows(void *out, const void *seg_sums, unsigned nw, unsigned segs, unsigned c);

/* Kernel-body helpers shared with the tests. */
/* The whole NTT (natural in, bit-reversed out for DIF; the reverse for DIT)
 * with w (omega or its inverse) as the root, radix 2^max_k passes. */
void cz_gpu_emu_ntt(cz_fr *a, unsigned log_n, const cz_fr *w, bool dif, unsigned max_k);
/* G1 MSM by the kernels' algorithm (c-bit signed digits, sorted buckets). */
void cz_gpu_emu_msm(cz_g1 *out, const cz_g1_affine *pts, const cz_scalar *k, size_t n, unsigned c);

#endif
