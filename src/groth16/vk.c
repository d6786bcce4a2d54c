/* Groth16 verifying keys in bellperson's layout:
 *   alpha_g1 beta_g1 beta_g2 gamma_g2 delta_g1 delta_g2 | u32 BE n_ic | n_ic x G1
 * with every point uncompressed (bellperson's VerifyingKey::write) or, in the
 * compressed variant, compressed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/groth16.h"
#include "groth16/point_io.h"

/* Bytes before the IC points: six fixed points and the count. */
static size_t vk_head_bytes(bool compressed) {
  return 3 * cz_g1_enc_bytes(compressed) + 3 * cz_g2_enc_bytes(compressed) + 4;
}

cz_err cz_groth16_vk_read(cz_groth16_vk *vk, const uint8_t *buf, size_t len, bool compressed,
                          size_t *used) {
  memset(vk, 0, sizeof *vk);
  if (!buf && len) return CZ_ERR_INVALID_ARG;
  const size_t g1 = cz_g1_enc_bytes(compressed), g2 = cz_g2_enc_bytes(compressed);
  const size_t head = vk_head_bytes(compressed);
  if (len < head) return CZ_ERR_TRUNCATED;

  /* Check the whole length against the declared count before decoding or
   * allocating anything, so a forged count cannot cost memory or time. */
  const uint8_t *cnt = buf + head - 4;
  size_t n_ic = (size_t)cnt[0] << 24 | (size_t)cnt[1] << 16 | (size_t)cnt[2] << 8 | cnt[3];
  if (n_ic > (len - head) / g1) return CZ_ERR_TRUNCATED;
  size_t total = head + n_ic * g1;
  if (!used && len != total) return CZ_ERR_TRAILING;
  /* IC0 is the coefficient of the constant ONE input, always present. */
  if (n_ic == 0) return CZ_ERR_PARSE;

  cz_groth16_vk k;
  memset(&k, 0, sizeof k);
  const uint8_t *p = buf;
  cz_err e;
  if ((e = cz_groth16_read_g1(&k.alpha_g1, p, compressed)) != CZ_OK) return e;
  p += g1;
  if ((e = cz_groth16_read_g1(&k.beta_g1, p, compressed)) != CZ_OK) return e;
  p += g1;
  if ((e = cz_groth16_read_g2(&k.beta_g2, p, compressed)) != CZ_OK) return e;
  p += g2;
  if ((e = cz_groth16_read_g2(&k.gamma_g2, p, compressed)) != CZ_OK) return e;
  p += g2;
  if ((e = cz_groth16_read_g1(&k.delta_g1, p, compressed)) != CZ_OK) return e;
  p += g1;
  if ((e = cz_groth16_read_g2(&k.delta_g2, p, compressed)) != CZ_OK) return e;
  p += g2 + 4;

  k.ic = malloc(n_ic * sizeof *k.ic);
  if (!k.ic) return CZ_ERR_NOMEM;
  k.n_ic = n_ic;
  for (size_t i = 0; i < n_ic; i++, p += g1) {
    if ((e = cz_groth16_read_g1(&k.ic[i], p, compressed)) != CZ_OK) {
      free(k.ic);
      return e;
    }
  }
  *vk = k;
  if (used) *used = total;
  return CZ_OK;
}

cz_err cz_groth16_vk_load(cz_groth16_vk *vk, const char *path, bool compressed) {
  memset(vk, 0, sizeof *vk);
  FILE *f = fopen(path, "rb");
  if (!f) return CZ_ERR_IO;
  uint8_t *buf = NULL;
  size_t len = 0, cap = 0;
  cz_err e = CZ_OK;
  /* Read by growing a buffer rather than trusting a file size: works for
   * pipes too, and a key is small. */
  for (;;) {
    if (len == cap) {
      size_t ncap = cap ? cap * 2 : 16384;
      uint8_t *nb = realloc(buf, ncap);
      if (!nb) {
        e = CZ_ERR_NOMEM;
        break;
      }
      buf = nb;
      cap = ncap;
    }
    size_t got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0) {
      if (ferror(f)) e = CZ_ERR_IO;
      break;
    }
  }
  fclose(f);
  if (e == CZ_OK) e = cz_groth16_vk_read(vk, buf, len, compressed, NULL);
  free(buf);
  return e;
}

size_t cz_groth16_vk_write(uint8_t *out, const cz_groth16_vk *vk, bool compressed) {
  const size_t g1 = cz_g1_enc_bytes(compressed), g2 = cz_g2_enc_bytes(compressed);
  size_t total = vk_head_bytes(compressed) + vk->n_ic * g1;
  if (!out) return total;
  uint8_t *p = out;
  cz_groth16_write_g1(p, &vk->alpha_g1, compressed);
  p += g1;
  cz_groth16_write_g1(p, &vk->beta_g1, compressed);
  p += g1;
  cz_groth16_write_g2(p, &vk->beta_g2, compressed);
  p += g2;
  cz_groth16_write_g2(p, &vk->gamma_g2, compressed);
  p += g2;
  cz_groth16_write_g1(p, &vk->delta_g1, compressed);
  p += g1;
  cz_groth16_write_g2(p, &vk->delta_g2, compressed);
  p += g2;
  uint32_t n = (uint32_t)vk->n_ic;
  p[0] = (uint8_t)(n >> 24);
  p[1] = (uint8_t)(n >> 16);
  p[2] = (uint8_t)(n >> 8);
  p[3] = (uint8_t)n;
  p += 4;
  for (size_t i = 0; i < vk->n_ic; i++, p += g1) cz_groth16_write_g1(p, &vk->ic[i], compressed);
  return total;
}

void cz_groth16_vk_free(cz_groth16_vk *vk) {
  if (!vk) return;
  free(vk->ic);
  vk->ic = NULL;
  vk->n_ic = 0;
}
