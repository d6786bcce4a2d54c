// The CUDA device: kernels around the bodies of czg_arith.h (the same code
// the CPU tests run through czg_emu.c) and the czg_ops that drive them.
//
//   ntt_h      a, b, c uploaded and zero-padded (c = a b made on the device
//              when the host has none); per vector a DIF pass chain
//              with omega^-1 (natural -> bit-reversed), n^-1 g^rev(pos)
//              scaling, a DIT chain with omega (bit-reversed -> natural),
//              except for c, which stops after its DIF (n C, bit-reversed);
//              a b / (g^n - 1); DIF with omega^-1 and n^-1 g^-rev(pos)
//              scaling; minus c / (n (g^n - 1)): six transforms, as
//              src/ntt/hpoly.c explains. H stays on the device in bit-reversed order: the H
//              MSM reads coefficient i at position rev(i), so no permutation
//              pass is ever made. Passes are radix 2^k with k <= 9 (2^27 in
//              three), one block of 2^(k-1) threads per group in shared memory.
//   msm        signed c-bit digits -> (bucket key, point) pairs, CUB radix
//              sort by key, bucket bounds, one thread per bucket summing its
//              sorted run (XYZZ, mixed additions), window segments; the
//              host adds the segment sums and does the window doublings.
//   batch_add  strided XYZZ sums, then pairwise reduction on the device.
//
// Correctness first: 64-bit products, buffers allocated per call, staging
// copies synchronous. Every step is checked against the CPU backend by
// tests/cuda/gpu_check.sh on a GPU machine.
#include <cuda_runtime.h>
#include <cub/device/device_radix_sort.cuh>
#include <new>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/czg_arith.h"
extern "C" {
#include "cuda/czg_host.h"
#include "cuzk/fr.h"
}
#include "cuda/czg_cuda.h"

namespace {

constexpr unsigned NTT_MAX_K = 9;
constexpr unsigned WINDOW_SEGS = 128;
constexpr size_t TW_LO = size_t(1) << CZG_TW_BITS;

// ---- kernels ----------------------------------------------------------------

__global__ void k_ntt_pass(czg_fr *a, czg_ntt_pass ps, const czg_fr *lo, const czg_fr *hi) {
  extern __shared__ czg_fr sh[];
  size_t g = blockIdx.x;
  uint32_t t = threadIdx.x, half = 1u << (ps.k - 1);
  sh[t] = a[czg_ntt_index(&ps, g, t)];
  sh[t + half] = a[czg_ntt_index(&ps, g, t + half)];
  __syncthreads();
  for (unsigned lv = 0; lv < ps.k; lv++) {
    czg_ntt_butterfly(&ps, sh, g, lv, t, lo, hi);
    __syncthreads();
  }
  a[czg_ntt_index(&ps, g, t)] = sh[t];
  a[czg_ntt_index(&ps, g, t + half)] = sh[t + half];
}

__global__ void k_coset_scale(czg_fr *a, size_t n, unsigned log_n, czg_fr scale, const czg_fr *lo,
                              const czg_fr *hi) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    czg_coset_scale(&a[i], (uint32_t)i, log_n, &scale, lo, hi);
}

__global__ void k_product(czg_fr *a, const czg_fr *b, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    czg_h_product(&a[i], &b[i]);
}

__global__ void k_subtract(czg_fr *a, const czg_fr *c, size_t n, czg_fr k) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    czg_h_subtract(&a[i], &c[i], &k);
}

// Digits of n scalars: canonical k[i], or (from_h) Montgomery H coefficient
// first + i, which sits at position rev(first + i).
__global__ void k_digits(const czg_fr *k, bool from_h, size_t first, unsigned log_n, size_t n,
                         unsigned c, uint32_t *keys, uint32_t *vals) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    czg_fr s;
    if (from_h) czg_fr_from_mont(&s, &k[czg_rev((uint32_t)(first + i), log_n)]);
    else s = k[i];
    czg_msm_digits(&s, (uint32_t)i, c, keys + i, vals + i, n);
  }
}

__global__ void k_bounds(const uint32_t *keys, size_t nk, uint32_t *start, uint32_t *end) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < nk;
       i += (size_t)gridDim.x * blockDim.x) {
    uint32_t key = keys[i];
    if (key == CZG_KEY_NONE) continue;
    if (i == 0 || keys[i - 1] != key) start[key] = (uint32_t)i;
    if (i + 1 == nk || keys[i + 1] != key) end[key] = (uint32_t)(i + 1);
  }
}

__global__ void k_buckets(const czg_affine *bases, const uint32_t *vals, const uint32_t *start,
                          const uint32_t *end, uint32_t nb, czg_xyzz *buckets) {
  for (uint32_t b = blockIdx.x * blockDim.x + threadIdx.x; b < nb; b += gridDim.x * blockDim.x)
    czg_bucket_sum(&buckets[b], bases, vals, start[b], end[b]);
}

__global__ void k_window_segments(const czg_xyzz *buckets, uint32_t half, unsigned nw,
                                  unsigned segs, czg_xyzz *out) {
  uint32_t per = (half + segs - 1) / segs;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < nw * segs;
       i += gridDim.x * blockDim.x) {
    uint32_t w = i / segs, s = i % segs, lo = s * per, hi = lo + per;
    if (lo > half) lo = half;
    if (hi > half) hi = half;
    czg_window_segment(&out[i], buckets + (size_t)w * half, lo, hi);
  }
}

__global__ void k_strided_sum(const czg_affine *pts, size_t n, czg_xyzz *out) {
  size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x, T = (size_t)gridDim.x * blockDim.x;
  czg_xyzz acc;
  czg_xyzz_set_identity(&acc);
  for (size_t i = t; i < n; i += T) czg_xyzz_add_affine(&acc, &pts[i], false);
  out[t] = acc;
}

__global__ void k_pair_sum(czg_xyzz *p, size_t half) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < half) czg_xyzz_add(&p[i], &p[i + half]);
}

// ---- host side ----------------------------------------------------------------

struct Device {
  int id = 0;  // the ordinal opened (gpus.devices)
  int sms = 0;
  char name[256] = "";
  czg_fr *h = nullptr;  // H, bit-reversed positions
  unsigned log_n = 0;
  // twiddle tables for tw_log_n: omega, omega^-1, g, g^-1 (lo, hi each)
  unsigned tw_log_n = ~0u;
  czg_fr *tw[4][2] = {};
};

// Each open device has its own Device; the ops select theirs (use_dev) on
// the thread they run on, and the helpers below reach it through CUR.
thread_local Device *CUR = nullptr;
#define DEV (*CUR)

uint32_t czg_rev_host(uint32_t x, unsigned log_n) {
  uint32_t r = 0;
  for (unsigned i = 0; i < log_n; i++) r |= ((x >> i) & 1u) << (log_n - 1 - i);
  return r;
}

cz_err cuda_err(cudaError_t e) {
  if (e == cudaSuccess) return CZ_OK;
  fprintf(stderr, "cuzk cuda: %s\n", cudaGetErrorString(e));
  return e == cudaErrorMemoryAllocation ? CZ_ERR_NOMEM : CZ_ERR_DEVICE;
}

#define CK(x)                           \
  do {                                  \
    cz_err ck_e = cuda_err(x);          \
    if (ck_e != CZ_OK) { ret = ck_e; goto out; } \
  } while (0)

unsigned grid_for(size_t n, unsigned block) {
  size_t g = (n + block - 1) / block, cap = (size_t)DEV.sms * 32;
  if (g > cap) g = cap;
  return g ? (unsigned)g : 1;
}

// Host tables of w: lo[i] = w^i, hi[i] = w^(i 2^16), uploaded.
cz_err upload_table(czg_fr **dlo, czg_fr **dhi, const cz_fr *w, unsigned log_n) {
  size_t n = size_t(1) << log_n, nlo = n < TW_LO ? n : TW_LO;
  size_t nhi = (n >> CZG_TW_BITS) ? (n >> CZG_TW_BITS) : 1;
  cz_fr *lo = (cz_fr *)malloc(nlo * sizeof(cz_fr)), *hi = (cz_fr *)malloc(nhi * sizeof(cz_fr));
  cz_err ret = CZ_OK;
  if (!lo || !hi) { ret = CZ_ERR_NOMEM; goto out; }
  {
    lo[0] = CZ_FR_ONE;
    for (size_t i = 1; i < nlo; i++) cz_fr_mul(&lo[i], &lo[i - 1], w);
    cz_fr step = *w;
    for (unsigned i = 0; i < CZG_TW_BITS; i++) cz_fr_mul(&step, &step, &step);
    hi[0] = CZ_FR_ONE;
    for (size_t i = 1; i < nhi; i++) cz_fr_mul(&hi[i], &hi[i - 1], &step);
  }
  CK(cudaMalloc(dlo, nlo * sizeof(czg_fr)));
  CK(cudaMalloc(dhi, nhi * sizeof(czg_fr)));
  CK(cudaMemcpy(*dlo, lo, nlo * sizeof(czg_fr), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(*dhi, hi, nhi * sizeof(czg_fr), cudaMemcpyHostToDevice));
out:
  free(lo);
  free(hi);
  return ret;
}

void free_tables() {
  for (auto &t : DEV.tw)
    for (auto &p : t) {
      cudaFree(p);
      p = nullptr;
    }
  DEV.tw_log_n = ~0u;
}

cz_err ensure_tables(unsigned log_n) {
  if (DEV.tw_log_n == log_n) return CZ_OK;
  free_tables();
  cz_fr w[4];
  cz_fr_root_of_unity(&w[0], log_n);
  cz_fr_inv(&w[1], &w[0]);
  cz_fr_from_u64(&w[2], CZ_FR_GENERATOR);
  cz_fr_inv(&w[3], &w[2]);
  for (int i = 0; i < 4; i++) {
    cz_err e = upload_table(&DEV.tw[i][0], &DEV.tw[i][1], &w[i], log_n);
    if (e != CZ_OK) { free_tables(); return e; }
  }
  DEV.tw_log_n = log_n;
  return CZ_OK;
}

void ntt_chain(czg_fr *a, unsigned log_n, int table, bool dif) {
  czg_ntt_pass ps[32];
  unsigned np = czg_ntt_plan(ps, log_n, NTT_MAX_K, dif);
  for (unsigned p = 0; p < np; p++) {
    size_t groups = (size_t(1) << log_n) >> ps[p].k;
    unsigned threads = 1u << (ps[p].k - 1);
    k_ntt_pass<<<(unsigned)groups, threads, (size_t(1) << ps[p].k) * sizeof(czg_fr)>>>(
        a, ps[p], DEV.tw[table][0], DEV.tw[table][1]);
  }
}

// The current device is per host thread and the ops run on the prover's
// threads, not the one that opened the device: each op selects it first
// (cudaSetDevice is a no-op when it is current already).
void use_dev(void *ctx) {
  CUR = static_cast<Device *>(ctx);
  cudaSetDevice(CUR->id);
}

cz_err op_mem_free(void *ctx, size_t *f) {
  use_dev(ctx);
  size_t total = 0;
  return cuda_err(cudaMemGetInfo(f, &total));
}

void *op_host_alloc(void *ctx, size_t n) {
  use_dev(ctx);
  void *p = nullptr;
  return cudaHostAlloc(&p, n, cudaHostAllocDefault) == cudaSuccess ? p : nullptr;
}

void op_host_free(void *ctx, void *p) {
  use_dev(ctx);
  cudaFreeHost(p);
}

czg_fr to_dev(const cz_fr &x) {
  czg_fr r;
  memcpy(&r, &x, sizeof r);
  return r;
}

cz_err op_ntt_h(void *ctx, const cz_fr *a, const cz_fr *b, const cz_fr *c, size_t m,
                unsigned log_n) {
  use_dev(ctx);
  cz_err ret = CZ_OK;
  size_t n = size_t(1) << log_n;
  czg_fr *v[3] = {nullptr, nullptr, nullptr};
  const cz_fr *src[3] = {a, b, c};
  cz_fr ninv, g, zinv, nzinv;
  unsigned grid = grid_for(n, 256);
  cudaFree(DEV.h);
  DEV.h = nullptr;
  if ((ret = ensure_tables(log_n)) != CZ_OK) return ret;
  cz_fr_from_u64(&ninv, (uint64_t)n);
  cz_fr_inv(&ninv, &ninv);
  cz_fr_from_u64(&g, CZ_FR_GENERATOR);
  {
    uint64_t e = n;
    cz_fr_pow(&zinv, &g, &e, 1);
    cz_fr_sub(&zinv, &zinv, &CZ_FR_ONE);
    cz_fr_inv(&zinv, &zinv);
  }
  cz_fr_mul(&nzinv, &ninv, &zinv);
  for (int i = 0; i < 3; i++) {
    CK(cudaMalloc(&v[i], n * sizeof(czg_fr)));
    if (src[i]) {
      CK(cudaMemcpy(v[i], src[i], m * sizeof(czg_fr), cudaMemcpyHostToDevice));
      if (n > m) CK(cudaMemset(v[i] + m, 0, (n - m) * sizeof(czg_fr)));
    }
  }
  if (!c) { /* synthesis leaves c = a b to the prover (cz_assignment) */
    CK(cudaMemcpy(v[2], v[0], n * sizeof(czg_fr), cudaMemcpyDeviceToDevice));
    k_product<<<grid, 256>>>(v[2], v[1], n);
  }
  for (int i = 0; i < 3; i++) {
    ntt_chain(v[i], log_n, 1, true);
    if (i == 2) break; /* C: coefficients only */
    k_coset_scale<<<grid, 256>>>(v[i], n, log_n, to_dev(i ? nzinv : ninv), DEV.tw[2][0],
                                 DEV.tw[2][1]);
    ntt_chain(v[i], log_n, 0, false);
  }
  k_product<<<grid, 256>>>(v[0], v[1], n);
  ntt_chain(v[0], log_n, 1, true);
  k_coset_scale<<<grid, 256>>>(v[0], n, log_n, to_dev(ninv), DEV.tw[3][0], DEV.tw[3][1]);
  k_subtract<<<grid, 256>>>(v[0], v[2], n, to_dev(nzinv));
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  DEV.h = v[0];
  DEV.log_n = log_n;
  v[0] = nullptr;
out:
  for (auto p : v) cudaFree(p);
  return ret;
}

cz_err op_h_read(void *ctx, cz_fr *out) {
  use_dev(ctx);
  if (!DEV.h) return CZ_ERR_INVALID_ARG;
  size_t n = size_t(1) << DEV.log_n;
  cz_fr *tmp = (cz_fr *)malloc(n * sizeof(cz_fr));
  if (!tmp) return CZ_ERR_NOMEM;
  cz_err ret = cuda_err(cudaMemcpy(tmp, DEV.h, n * sizeof(cz_fr), cudaMemcpyDeviceToHost));
  if (ret == CZ_OK)
    for (size_t i = 0; i < n; i++) out[i] = tmp[czg_rev_host((uint32_t)i, DEV.log_n)];
  free(tmp);
  return ret;
}

unsigned window_bits(size_t n) {
  unsigned lg = 0;
  while ((size_t(1) << (lg + 1)) <= n) lg++;
  unsigned c = lg > 4 ? lg - 4 : 1;
  return c < 4 ? 4 : c > 16 ? 16 : c;
}

// The bucket MSM of n device bases with scalars: canonical dk, or (from_h)
// the device H from coefficient first.
cz_err msm_device(const czg_affine *dbases, const czg_fr *dk, bool from_h, size_t first, size_t n,
                  cz_g1 *out) {
  cz_err ret = CZ_OK;
  unsigned c = window_bits(n), nw = czg_msm_windows(c);
  uint32_t half = 1u << (c - 1), nb = nw * half;
  size_t nk = n * nw, temp_bytes = 0;
  uint32_t *keys = nullptr, *vals = nullptr, *keys2 = nullptr, *vals2 = nullptr;
  uint32_t *start = nullptr, *end = nullptr;
  czg_xyzz *buckets = nullptr, *segs = nullptr;
  void *temp = nullptr;
  czg_xyzz *hseg = nullptr;
  cz_g1_set_identity(out);
  if (!n) return CZ_OK;
  CK(cudaMalloc(&keys, nk * sizeof(uint32_t)));
  CK(cudaMalloc(&vals, nk * sizeof(uint32_t)));
  CK(cudaMalloc(&keys2, nk * sizeof(uint32_t)));
  CK(cudaMalloc(&vals2, nk * sizeof(uint32_t)));
  CK(cudaMalloc(&start, nb * sizeof(uint32_t)));
  CK(cudaMalloc(&end, nb * sizeof(uint32_t)));
  CK(cudaMalloc(&buckets, nb * sizeof(czg_xyzz)));
  CK(cudaMalloc(&segs, (size_t)nw * WINDOW_SEGS * sizeof(czg_xyzz)));
  CK(cudaMemset(start, 0, nb * sizeof(uint32_t)));
  CK(cudaMemset(end, 0, nb * sizeof(uint32_t)));
  k_digits<<<grid_for(n, 256), 256>>>(from_h ? DEV.h : dk, from_h, first, DEV.log_n, n, c, keys,
                                       vals);
  CK(cudaGetLastError());
  CK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys, keys2, vals, vals2, nk, 0, 32));
  CK(cudaMalloc(&temp, temp_bytes));
  // all 32 bits: CZG_KEY_NONE must sort after every real key
  CK(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys, keys2, vals, vals2, nk, 0, 32));
  k_bounds<<<grid_for(nk, 256), 256>>>(keys2, nk, start, end);
  k_buckets<<<grid_for(nb, 128), 128>>>(dbases, vals2, start, end, nb, buckets);
  k_window_segments<<<grid_for((size_t)nw * WINDOW_SEGS, 128), 128>>>(buckets, half, nw,
                                                                      WINDOW_SEGS, segs);
  CK(cudaGetLastError());
  hseg = (czg_xyzz *)malloc((size_t)nw * WINDOW_SEGS * sizeof(czg_xyzz));
  if (!hseg) { ret = CZ_ERR_NOMEM; goto out; }
  CK(cudaMemcpy(hseg, segs, (size_t)nw * WINDOW_SEGS * sizeof(czg_xyzz), cudaMemcpyDeviceToHost));
  cz_gpu_finish_windows(out, hseg, nw, WINDOW_SEGS, c);
out:
  free(hseg);
  cudaFree(keys); cudaFree(vals); cudaFree(keys2); cudaFree(vals2);
  cudaFree(start); cudaFree(end); cudaFree(buckets); cudaFree(segs); cudaFree(temp);
  return ret;
}

cz_err op_msm_h(void *ctx, const cz_g1_affine *bases, size_t first, size_t n, cz_g1 *out) {
  use_dev(ctx);
  if (!DEV.h || first + n > (size_t(1) << DEV.log_n)) return CZ_ERR_INVALID_ARG;
  cz_err ret = CZ_OK;
  czg_affine *db = nullptr;
  CK(cudaMalloc(&db, n * sizeof(czg_affine)));
  CK(cudaMemcpy(db, bases, n * sizeof(czg_affine), cudaMemcpyHostToDevice));
  ret = msm_device(db, nullptr, true, first, n, out);
out:
  cudaFree(db);
  return ret;
}

cz_err op_msm(void *ctx, const cz_g1_affine *pts, const cz_scalar *k, size_t n, cz_g1 *out) {
  use_dev(ctx);
  cz_err ret = CZ_OK;
  czg_affine *db = nullptr;
  czg_fr *dk = nullptr;
  CK(cudaMalloc(&db, n * sizeof(czg_affine) + 1));
  CK(cudaMalloc(&dk, n * sizeof(czg_fr) + 1));
  CK(cudaMemcpy(db, pts, n * sizeof(czg_affine), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dk, k, n * sizeof(czg_fr), cudaMemcpyHostToDevice));
  ret = msm_device(db, dk, false, 0, n, out);
out:
  cudaFree(db);
  cudaFree(dk);
  return ret;
}

cz_err op_batch_add(void *ctx, const cz_g1_affine *pts, size_t n, cz_g1 *out) {
  use_dev(ctx);
  cz_err ret = CZ_OK;
  const unsigned block = 128, grid = (unsigned)DEV.sms * 4;
  size_t T = (size_t)block * grid, live = T;
  czg_affine *db = nullptr;
  czg_xyzz *part = nullptr, *hpart = nullptr;
  CK(cudaMalloc(&db, n * sizeof(czg_affine) + 1));
  CK(cudaMalloc(&part, T * sizeof(czg_xyzz)));
  CK(cudaMemcpy(db, pts, n * sizeof(czg_affine), cudaMemcpyHostToDevice));
  k_strided_sum<<<grid, block>>>(db, n, part);
  while (live > 64 && live % 2 == 0) {  // T = 512 sms: halves down to <= 64 or odd
    live /= 2;
    k_pair_sum<<<grid_for(live, block), block>>>(part, live);
  }
  CK(cudaGetLastError());
  hpart = (czg_xyzz *)malloc(live * sizeof(czg_xyzz));
  if (!hpart) { ret = CZ_ERR_NOMEM; goto out; }
  CK(cudaMemcpy(hpart, part, live * sizeof(czg_xyzz), cudaMemcpyDeviceToHost));
  cz_gpu_sum_xyzz(out, hpart, live);
out:
  free(hpart);
  cudaFree(db);
  cudaFree(part);
  return ret;
}

void op_close(void *ctx) {
  use_dev(ctx);
  cudaFree(DEV.h);
  DEV.h = nullptr;
  free_tables();
  delete CUR;
  CUR = nullptr;
}

}  // namespace

extern "C" int cz_gpu_cuda_count(void) {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

extern "C" int cz_gpu_cuda_open(struct czg_ops *ops, int device, char *why, size_t why_len) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    if (why && why_len)
      snprintf(why, why_len, "no CUDA device (%s)",
               e != cudaSuccess ? cudaGetErrorString(e) : "none found");
    return -1;
  }
  if (device < 0 || device >= count) {
    if (why && why_len) snprintf(why, why_len, "CUDA device %d not present (%d found)", device, count);
    return -1;
  }
  cudaDeviceProp prop;
  if ((e = cudaSetDevice(device)) != cudaSuccess ||
      (e = cudaGetDeviceProperties(&prop, device)) != cudaSuccess) {
    if (why && why_len)
      snprintf(why, why_len, "CUDA device %d unusable (%s)", device, cudaGetErrorString(e));
    return -1;
  }
  Device *d = new (std::nothrow) Device();
  if (!d) {
    if (why && why_len) snprintf(why, why_len, "out of memory");
    return -1;
  }
  d->id = device;
  d->sms = prop.multiProcessorCount;
  snprintf(d->name, sizeof d->name, "%s", prop.name);
  memset(ops, 0, sizeof *ops);
  ops->name = "cuda";
  ops->model = d->name;
  ops->mem_total = prop.totalGlobalMem;
  ops->ctx = d;
  ops->mem_free = op_mem_free;
  // per point: base, scalar, and (key, value) twice (sort in/out) for up to
  // 32 windows (c >= 8); besides: buckets and segment sums of 16-bit windows
  ops->msm_bytes_per_point = sizeof(czg_affine) + sizeof(czg_fr) + 32 * 4 * sizeof(uint32_t);
  ops->add_bytes_per_point = sizeof(czg_affine);
  ops->msm_reserve_bytes = (size_t)16 * 32768 * (sizeof(czg_xyzz) + 8) + ((size_t)256 << 20);
  ops->host_alloc = op_host_alloc;
  ops->host_free = op_host_free;
  ops->ntt_h = op_ntt_h;
  ops->h_read = op_h_read;
  ops->msm_h = op_msm_h;
  ops->batch_add = op_batch_add;
  ops->msm = op_msm;
  ops->close = op_close;
  return 0;
}
