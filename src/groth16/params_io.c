/* Parameter files in bellperson's layout (see cuzk/params.h): writing,
 * decoding from memory, and loading through mmap.
 *
 * Reading first walks the counts and checks every length against the
 * buffer, so a truncated or forged file fails before anything costly is
 * allocated or decoded; then each vector is decoded by parallel chunks
 * (the 32 GiB PoRep file holds about a billion points). */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cuzk/params.h"
#include "cuzk/parallel.h"
#include "groth16/g16_internal.h"
#include "util/msg.h"

enum { V_H, V_L, V_A, V_B_G1, V_B_G2, V_COUNT };
static const char *const VNAME[V_COUNT] = {"h", "l", "a", "b_g1", "b_g2"};

static size_t *count_of(cz_groth16_params *p, int v) {
  switch (v) {
    case V_H: return &p->n_h;
    case V_L: return &p->n_l;
    case V_A: return &p->n_a;
    case V_B_G1: return &p->n_b_g1;
    default: return &p->n_b_g2;
  }
}
static const size_t *ccount_of(const cz_groth16_params *p, int v) {
  return count_of((cz_groth16_params *)p, v);
}
static void **vec_of(cz_groth16_params *p, int v) {
  switch (v) {
    case V_H: return (void **)&p->h;
    case V_L: return (void **)&p->l;
    case V_A: return (void **)&p->a;
    case V_B_G1: return (void **)&p->b_g1;
    default: return (void **)&p->b_g2;
  }
}
static size_t enc_size(int v) {
  return v == V_B_G2 ? CZ_G2_UNCOMPRESSED_BYTES : CZ_G1_UNCOMPRESSED_BYTES;
}
static size_t mem_size(int v) { return v == V_B_G2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine); }

void cz_groth16_params_free(cz_groth16_params *p) {
  if (!p) return;
  cz_groth16_vk_free(&p->vk);
  if (cz_groth16_params_is_mapped(p)) {
    if (p->map.owned && p->map.len) munmap((void *)p->map.file, p->map.len);
    if (p->map.owned && p->map.fd >= 0) close(p->map.fd);
  } else {
    for (int v = 0; v < V_COUNT; v++) cz_g16_big_free(*vec_of(p, v), *count_of(p, v) * mem_size(v));
  }
  memset(p, 0, sizeof *p);
}

size_t cz_groth16_params_resident_bytes(const cz_groth16_params *p) {
  size_t n = sizeof *p + p->vk.n_ic * sizeof *p->vk.ic;
  if (cz_groth16_params_is_mapped(p)) return n;
  for (int v = 0; v < V_COUNT; v++) n += *ccount_of(p, v) * mem_size(v);
  return n;
}

size_t cz_groth16_params_file_size(const cz_groth16_params *p) {
  size_t n = cz_groth16_vk_write(NULL, &p->vk, false);
  for (int v = 0; v < V_COUNT; v++) n += 4 + *ccount_of(p, v) * enc_size(v);
  return n;
}

size_t cz_groth16_params_write(uint8_t *out, const cz_groth16_params *p) {
  size_t total = cz_groth16_params_file_size(p);
  if (!out) return total;
  /* A mapped key's file is exactly its encoding. */
  if (cz_groth16_params_is_mapped(p)) return memcpy(out, p->map.file, total), total;
  uint8_t *o = out + cz_groth16_vk_write(out, &p->vk, false);
  for (int v = 0; v < V_COUNT; v++) {
    size_t n = *ccount_of(p, v);
    o[0] = (uint8_t)(n >> 24);
    o[1] = (uint8_t)(n >> 16);
    o[2] = (uint8_t)(n >> 8);
    o[3] = (uint8_t)n;
    o += 4;
    const void *vec = *vec_of((cz_groth16_params *)p, v);
    for (size_t i = 0; i < n; i++, o += enc_size(v)) {
      if (v == V_B_G2) cz_g2_affine_serialize(o, (const cz_g2_affine *)vec + i);
      else cz_g1_affine_serialize(o, (const cz_g1_affine *)vec + i);
    }
  }
  return total;
}

cz_err cz_groth16_params_save(const cz_groth16_params *p, const char *path) {
  return cz_groth16_params_save_progress(p, path, NULL);
}

cz_err cz_groth16_params_save_progress(const cz_groth16_params *p, const char *path,
                                       const cz_progress *progress) {
  const uint64_t total = cz_groth16_params_file_size(p);
  uint64_t written = 0;
  cz_progress_report(progress, "write params", "B", 0, total);
  FILE *f = fopen(path, "wb");
  if (!f) return CZ_ERR_IO;
  if (cz_groth16_params_is_mapped(p)) {
    bool ok = fwrite(p->map.file, 1, total, f) == total;
    cz_progress_report(progress, "write params", "B", total, total);
    return fclose(f) == 0 && ok ? CZ_OK : CZ_ERR_IO;
  }
  size_t vkn = cz_groth16_vk_write(NULL, &p->vk, false);
  uint8_t *buf = malloc(vkn > 65536 ? vkn : 65536);
  if (!buf) {
    fclose(f);
    return CZ_ERR_NOMEM;
  }
  bool ok = fwrite(buf, 1, cz_groth16_vk_write(buf, &p->vk, false), f) == vkn;
  written += vkn;
  for (int v = 0; ok && v < V_COUNT; v++) {
    size_t n = *ccount_of(p, v), sz = enc_size(v);
    uint8_t cnt[4] = {(uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n};
    ok = n <= UINT32_MAX && fwrite(cnt, 1, 4, f) == 4;
    written += 4;
    const void *vec = *vec_of((cz_groth16_params *)p, v);
    /* Encode 64 KiB at a time to keep the writes large. */
    size_t per = 65536 / sz;
    for (size_t i = 0; ok && i < n; i += per) {
      size_t m = n - i < per ? n - i : per;
      for (size_t j = 0; j < m; j++) {
        if (v == V_B_G2) cz_g2_affine_serialize(buf + j * sz, (const cz_g2_affine *)vec + i + j);
        else cz_g1_affine_serialize(buf + j * sz, (const cz_g1_affine *)vec + i + j);
      }
      ok = fwrite(buf, 1, m * sz, f) == m * sz;
      written += m * sz;
      cz_progress_report(progress, "write params", "B", written, total);
    }
  }
  free(buf);
  if (fclose(f) != 0) ok = false;
  return ok ? CZ_OK : CZ_ERR_IO;
}

/* ---- decoding ----------------------------------------------------------- */

typedef struct {
  const uint8_t *src;
  void *dst;
  int v;
  bool checked;
  _Atomic size_t first_bad; /* lowest failing index, SIZE_MAX if none */
  cz_err errs[CZ_PARALLEL_MAX_THREADS];
  size_t bad[CZ_PARALLEL_MAX_THREADS];
  cz_progress_counter *pc; /* bytes decoded, of the whole file */
} decode_ctx;

/* Runs of this many points between checks for an earlier failure. */
#define DECODE_RUN 256

cz_err cz_g16_decode_points(void *dst, const uint8_t *src, size_t n, bool g2, cz_point_check check,
                            size_t *bad) {
  *bad = 0;
  cz_err e;
  if (g2) {
    cz_g2_affine *q = dst;
    e = cz_g2_affine_deserialize_many(q, src, n, check, bad);
    for (size_t j = 0; e == CZ_OK && j < n; j++)
      if (cz_g2_affine_is_identity(&q[j])) {
        *bad = j;
        e = CZ_ERR_BAD_FLAGS;
      }
  } else {
    cz_g1_affine *q = dst;
    e = cz_g1_affine_deserialize_many(q, src, n, check, bad);
    for (size_t j = 0; e == CZ_OK && j < n; j++)
      if (cz_g1_affine_is_identity(&q[j])) {
        *bad = j;
        e = CZ_ERR_BAD_FLAGS;
      }
  }
  return e;
}

/* Points [i, i + n) of the vector (into dst, or a scratch run when dst
 * is NULL: a check only); *bad = the first failing index. */
static cz_err decode_run(const decode_ctx *c, size_t i, size_t n, size_t *bad) {
  size_t sz = mem_size(c->v);
  cz_g2_affine scratch[DECODE_RUN];
  void *dst = c->dst ? (uint8_t *)c->dst + i * sz : (void *)scratch;
  cz_err e = cz_g16_decode_points(dst, c->src + i * enc_size(c->v), n, c->v == V_B_G2,
                                  c->checked ? CZ_POINT_IN_SUBGROUP : CZ_POINT_ON_CURVE, bad);
  *bad += i;
  return e;
}

static void decode_worker(void *vctx, size_t begin, size_t end, unsigned worker) {
  decode_ctx *c = vctx;
  c->errs[worker] = CZ_OK;
  c->bad[worker] = SIZE_MAX;
  for (size_t i = begin; i < end; i += DECODE_RUN) {
    /* Stop early once an earlier point is known bad: only the first error
     * is reported, and a corrupt file should fail fast. */
    if (atomic_load_explicit(&c->first_bad, memory_order_relaxed) < i) return;
    size_t bad = 0, n = end - i < DECODE_RUN ? end - i : DECODE_RUN;
    cz_err e = decode_run(c, i, n, &bad);
    cz_progress_add(c->pc, (uint64_t)n * enc_size(c->v));
    if (e != CZ_OK) {
      c->errs[worker] = e;
      c->bad[worker] = bad;
      size_t cur = atomic_load(&c->first_bad);
      while (bad < cur && !atomic_compare_exchange_weak(&c->first_bad, &cur, bad)) {
      }
      return;
    }
  }
}

static cz_err params_read(cz_groth16_params *p, const uint8_t *buf, size_t len, bool checked,
                          unsigned n_threads, const cz_progress *progress, char *msg,
                          size_t msg_len);

/* Decodes every vector of p from buf (vector v's first point at start[v])
 * into p's vectors, or, for a mapped p, only checks them. msg names the
 * first bad point. */
static cz_err decode_vectors(cz_groth16_params *p, const uint8_t *buf, const size_t *start,
                             bool checked, unsigned n_threads, cz_progress_counter *pc, char *msg,
                             size_t msg_len) {
  for (int v = 0; v < V_COUNT; v++) {
    size_t n = *count_of(p, v);
    if (!n) continue;
    decode_ctx *c = malloc(sizeof *c);
    if (!c) return CZ_ERR_NOMEM;
    c->src = buf + start[v];
    c->dst = *vec_of(p, v);
    c->v = v;
    c->checked = checked;
    c->pc = pc;
    atomic_init(&c->first_bad, SIZE_MAX);
    unsigned workers = cz_parallel_workers(n, n_threads);
    cz_parallel_for(n, n_threads, decode_worker, c);
    size_t bad = SIZE_MAX;
    cz_err err = CZ_OK;
    for (unsigned w = 0; w < workers; w++)
      if (c->bad[w] < bad) {
        bad = c->bad[w];
        err = c->errs[w];
      }
    free(c);
    if (bad != SIZE_MAX)
      return cz_msg_err(msg, msg_len, err, "%s point %zu at offset %zu: %s%s", VNAME[v], bad,
                        start[v] + bad * enc_size(v), cz_err_str(err),
                        err == CZ_ERR_BAD_FLAGS ? " (or the point at infinity)" : "");
  }
  return CZ_OK;
}

cz_err cz_groth16_params_read(cz_groth16_params *p, const uint8_t *buf, size_t len, bool checked,
                              unsigned n_threads, char *msg, size_t msg_len) {
  return params_read(p, buf, len, checked, n_threads, NULL, msg, msg_len);
}

/* Pass 1 of params_read: each vector's count into p and the offset of its
 * first point into start, from off (after the vk); the points must end the
 * file. On error msg says where (p's counts are then zero or unused). */
static cz_err params_layout(cz_groth16_params *p, const uint8_t *buf, size_t len, size_t off,
                            size_t start[V_COUNT], char *msg, size_t msg_len) {
  for (int v = 0; v < V_COUNT; v++) {
    if (len - off < 4)
      return cz_msg_err(msg, msg_len, CZ_ERR_TRUNCATED, "%s count at offset %zu: file ends at %zu",
                        VNAME[v], off, len);
    const uint8_t *c = buf + off;
    size_t n = (size_t)c[0] << 24 | (size_t)c[1] << 16 | (size_t)c[2] << 8 | c[3];
    off += 4;
    if (n > (len - off) / enc_size(v))
      return cz_msg_err(msg, msg_len, CZ_ERR_TRUNCATED,
                        "%s: %zu points of %zu bytes from offset %zu run past the end (%zu)",
                        VNAME[v], n, enc_size(v), off, len);
    *count_of(p, v) = n;
    start[v] = off;
    off += n * enc_size(v);
  }
  if (off == len) return CZ_OK;
  for (int v = 0; v < V_COUNT; v++) *count_of(p, v) = 0;
  return cz_msg_err(msg, msg_len, CZ_ERR_TRAILING, "%zu trailing bytes after b_g2 at offset %zu",
                    len - off, off);
}

cz_err cz_g16_params_head(cz_groth16_params *p, const uint8_t *buf, size_t len, size_t start[5],
                          char *msg, size_t msg_len) {
  memset(p, 0, sizeof *p);
  cz_msg(msg, msg_len, "%s", "");
  if (!buf && len) return CZ_ERR_INVALID_ARG;
  size_t off = 0;
  cz_err e = cz_groth16_vk_read(&p->vk, buf, len, false, &off);
  if (e != CZ_OK) {
    cz_msg(msg, msg_len, "verifying key at offset 0: %s (file is %zu bytes)", cz_err_str(e), len);
    return e;
  }
  if ((e = params_layout(p, buf, len, off, start, msg, msg_len)) != CZ_OK)
    cz_groth16_params_free(p);
  return e;
}

cz_err cz_g16_params_check_points(cz_groth16_params *p, const uint8_t *buf, const size_t start[5],
                                  unsigned n_threads, char *msg, size_t msg_len) {
  cz_progress_counter pc;
  cz_progress_counter_init(&pc, NULL, "check params", "B", 0);
  return decode_vectors(p, buf, start, true, n_threads, &pc, msg, msg_len);
}

static cz_err params_read(cz_groth16_params *p, const uint8_t *buf, size_t len, bool checked,
                          unsigned n_threads, const cz_progress *progress, char *msg,
                          size_t msg_len) {
  size_t start[V_COUNT];
  cz_err e = cz_g16_params_head(p, buf, len, start, msg, msg_len);
  if (e != CZ_OK) return e;
  /* Pass 2: allocate and decode; progress counts the bytes of the file
   * (the vk and counts at once: they are read already). */
  cz_progress_counter pc;
  cz_progress_counter_init(&pc, progress, "load params", "B", len);
  uint64_t point_bytes = 0;
  for (int v = 0; v < V_COUNT; v++) point_bytes += (uint64_t)*count_of(p, v) * enc_size(v);
  cz_progress_add(&pc, len - point_bytes);
  for (int v = 0; v < V_COUNT; v++) {
    size_t n = *count_of(p, v);
    if (!n) continue;
    void *dst = cz_g16_big_alloc(n * mem_size(v));
    if (!dst) {
      for (int u = v; u < V_COUNT; u++) *count_of(p, u) = 0;
      cz_groth16_params_free(p);
      return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "%s: cannot allocate %zu points", VNAME[v], n);
    }
    *vec_of(p, v) = dst;
  }
  e = decode_vectors(p, buf, start, checked, n_threads, &pc, msg, msg_len);
  if (e != CZ_OK) cz_groth16_params_free(p);
  return e;
}

cz_err cz_groth16_params_load(cz_groth16_params *p, const char *path, bool checked,
                              unsigned n_threads, char *msg, size_t msg_len) {
  return cz_groth16_params_load_progress(p, path, checked, n_threads, NULL, msg, msg_len);
}

cz_err cz_groth16_params_load_progress(cz_groth16_params *p, const char *path, bool checked,
                                       unsigned n_threads, const cz_progress *progress, char *msg,
                                       size_t msg_len) {
  memset(p, 0, sizeof *p);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return cz_msg_err(msg, msg_len, CZ_ERR_IO, "%s: %s", path, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0) {
    cz_msg(msg, msg_len, "%s: %s", path, strerror(errno));
    close(fd);
    return CZ_ERR_IO;
  }
  size_t len = (size_t)st.st_size;
  const uint8_t *map = NULL;
  if (len) {
    void *m = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
      cz_msg(msg, msg_len, "%s: mmap: %s", path, strerror(errno));
      close(fd);
      return CZ_ERR_IO;
    }
    map = m;
    /* Decoding walks each vector front to back in a few streams. */
    madvise(m, len, MADV_SEQUENTIAL);
  }
  close(fd);
  char detail[256];
  cz_err e = params_read(p, map, len, checked, n_threads, progress, detail, sizeof detail);
  if (e != CZ_OK) cz_msg(msg, msg_len, "%s: %s", path, detail);
  if (map) munmap((void *)map, len);
  return e;
}
