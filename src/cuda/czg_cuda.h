/* The CUDA device (czg_cuda.cu), seen from C: a plain declaration, so no C
 * file needs the CUDA headers. */
#ifndef CUZK_CUDA_CZG_CUDA_H
#define CUZK_CUDA_CZG_CUDA_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
struct czg_ops;
/* Open CUDA device `device` (an ordinal, 0 = the first) and fill *ops (a
 * struct czg_ops) with a state of its own (freed by ops->close); every op
 * selects that device on the thread it runs on. Several devices may be
 * open at once, each opened once. 0 on success; -1 with why set (no
 * driver, no such device, out of memory) otherwise. */
int cz_gpu_cuda_open(struct czg_ops *ops, int device, char *why, size_t why_len);
/* Devices the CUDA runtime reports (0 when none or no driver). */
int cz_gpu_cuda_count(void);
#ifdef __cplusplus
}
#endif
#endif
