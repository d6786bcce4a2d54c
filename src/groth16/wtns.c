/* circom witnesses (.wtns), read and written (cuzk/circom.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/circom.h"
#include "cuzk/parallel.h"
#include "groth16/binfile.h"
#include "util/bigbuf.h"
#include "util/msg.h"

void cz_wtns_free(cz_wtns *w) {
  if (!w) return;
  free(w->v);
  memset(w, 0, sizeof *w);
}

static bool read_wtns_header(const cz_binfile *f, uint32_t *n, cz_errpath *ep) {
  cz_bincur cur;
  if (!cz_binfile_cursor(f, 1, "header", &cur, ep)) return false;
  if (!cz_bincur_bls_prime(&cur, "prime", false) || !cz_bincur_u32(&cur, "nWitness", n) ||
      !cz_bincur_end(&cur))
    return false;
  cz_errpath_pop(ep);
  return true;
}

/* Canonical values in, Montgomery out, in parallel; the lowest index of a
 * value >= r in bad[worker] (SIZE_MAX: none). */
typedef struct {
  const uint8_t *in;
  cz_fr *out;
  size_t bad[CZ_PARALLEL_MAX_THREADS];
} conv_ctx;

static void conv_worker(void *p, size_t begin, size_t end, unsigned w) {
  conv_ctx *c = p;
  c->bad[w] = SIZE_MAX;
  for (size_t i = begin; i < end; i++) {
    cz_fr raw;
    if (!cz_bin_fr_raw(c->in + 32 * i, &raw)) {
      c->bad[w] = i;
      return;
    }
    cz_fr_from_canonical(&c->out[i], raw.l);
  }
}

static bool read_values(cz_wtns *w, const cz_binfile *f, uint32_t n, cz_errpath *ep) {
  const uint8_t *b;
  uint64_t len;
  if (!cz_binfile_section(f, 2, "values", &b, &len, ep)) return false;
  if (len != (uint64_t)n * 32)
    return cz_errpath_fail(ep, len < (uint64_t)n * 32 ? CZ_ERR_TRUNCATED : CZ_ERR_TRAILING,
                           "%llu bytes, expected nWitness %u x 32", (unsigned long long)len, n);
  conv_ctx *c = malloc(sizeof *c);
  if (!c || !(w->v = cz_huge_alloc((n ? n : 1) * sizeof(cz_fr)))) {
    free(c);
    return cz_errpath_fail(ep, CZ_ERR_NOMEM, "out of memory");
  }
  c->in = b;
  c->out = w->v;
  cz_parallel_for(n, 0, conv_worker, c);
  size_t bad = SIZE_MAX;
  for (unsigned i = 0; i < cz_parallel_workers(n, 0); i++)
    if (c->bad[i] < bad) bad = c->bad[i];
  free(c);
  if (bad != SIZE_MAX) {
    cz_errpath_push_idx(ep, bad);
    return cz_errpath_fail(ep, CZ_ERR_NONCANONICAL, "value is not below r");
  }
  cz_errpath_pop(ep);
  w->n = n;
  return true;
}

cz_err cz_wtns_read(cz_wtns *w, const uint8_t *buf, size_t len, char *msg, size_t msg_len) {
  if (!w || (!buf && len)) return CZ_ERR_INVALID_ARG;
  memset(w, 0, sizeof *w);
  cz_errpath ep;
  cz_errpath_init(&ep, msg, msg_len, "wtns: ");
  cz_binfile f;
  uint32_t n = 0;
  if (cz_binfile_parse(&f, buf, len, "wtns", 2, &ep) && read_wtns_header(&f, &n, &ep) &&
      read_values(w, &f, n, &ep))
    return CZ_OK;
  cz_wtns_free(w);
  return ep.err;
}

static cz_err wtns_reader(void *w, const uint8_t *buf, size_t len, char *msg, size_t msg_len) {
  return cz_wtns_read(w, buf, len, msg, msg_len);
}

cz_err cz_wtns_load(cz_wtns *w, const char *path, char *msg, size_t msg_len) {
  if (w) memset(w, 0, sizeof *w);
  return cz_file_read_with(path, wtns_reader, w, msg, msg_len);
}

cz_err cz_wtns_save(const char *path, const cz_fr *w, size_t n) {
  if (n > UINT32_MAX) return CZ_ERR_INVALID_ARG;
  cz_binwriter o = {fopen(path, "wb"), true};
  if (!o.f) return CZ_ERR_IO;
  cz_binw_bytes(&o, "wtns", 4);
  cz_binw_u32(&o, 2); /* version */
  cz_binw_u32(&o, 2); /* sections */
  cz_binw_section(&o, 1, 4 + 32 + 4);
  cz_binw_u32(&o, 32);
  cz_binw_bytes(&o, CZ_FR_MODULUS, 32);
  cz_binw_u32(&o, (uint32_t)n);
  cz_binw_section(&o, 2, (uint64_t)n * 32);
  for (size_t i = 0; i < n; i++) {
    uint8_t le[32];
    cz_fr_to_bytes_le(le, &w[i]);
    cz_binw_bytes(&o, le, 32);
  }
  return fclose(o.f) == 0 && o.ok ? CZ_OK : CZ_ERR_IO;
}
