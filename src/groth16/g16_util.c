/* Messages, OS randomness and big allocations for the Groth16 module. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include "groth16/g16_internal.h"
#include "util/bigbuf.h"
#include "util/msg.h"

cz_err cz_g16_random_bytes(void *out, size_t n) {
  uint8_t *p = out;
  while (n) {
    ssize_t got = getrandom(p, n, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      return CZ_ERR_IO;
    }
    p += got;
    n -= (size_t)got;
  }
  return CZ_OK;
}

cz_err cz_g16_random_fr(cz_fr *out) {
  /* 64 bytes reduced mod r: bias about 2^-256. Zero is redrawn because
   * every caller needs an invertible or non-trivial value. */
  uint8_t wide[64];
  do {
    cz_err e = cz_g16_random_bytes(wide, sizeof wide);
    if (e != CZ_OK) return e;
    cz_fr_from_wide_le(out, wide);
  } while (cz_fr_is_zero(out));
  memset(wide, 0, sizeof wide);
  return CZ_OK;
}

void *cz_g16_big_alloc(size_t n) {
  if (!n) return NULL;
  void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  /* Fixed-size vectors (the parameters) filled once and read by every MSM:
   * 2 MiB pages take 1/512 of the faults (slow on VMs) and of the TLB misses. */
  cz_advise_huge(p, n);
  return p;
}

void cz_g16_big_free(void *p, size_t n) {
  if (p && n) munmap(p, n);
}

cz_err cz_g16_blinding(const cz_prove_opts *opts, size_t i, cz_fr *r, cz_fr *s) {
  if (opts->r) {
    *r = opts->r[i];
    *s = opts->s[i];
    return CZ_OK;
  }
  cz_err e = cz_g16_random_fr(r);
  if (e == CZ_OK) e = cz_g16_random_fr(s);
  if (e != CZ_OK) cz_msg(opts->msg, opts->msg_len, "getrandom failed");
  return e;
}
