/* The CUDA device (czg_cuda.cu), seen from C: a plain declaration, so no C
 * file needs the CUDA headers. */
#ifndef CUZK_CUDA_CZG_CUDA_H
#define CUZK_CUDA_CZG_CUDA_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
struct czg_ops;
/* Open device 0 and fill *ops (a struct czg_ops). 0 on success; -1 with
 * why set (no driver, no device, out of memory) otherwise. */
int czg_cuda_open(struct czg_ops *ops, char *why, size_t why_len);
#ifdef __cplusplus
}
#endif
#endif
