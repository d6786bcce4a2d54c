/* Mapped keys (cuzk/params.h): a parameter file read in place, its points
 * left encoded for the prover to decode as its MSMs reach them. A 32 GiB
 * PoRep key is about 47 GiB: decoded into process memory it needs that
 * much RAM before the first proof and a full decode at every start;
 * mapped it needs the page cache and starts at once. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cuzk/params.h"
#include "groth16/g16_internal.h"
#include "util/msg.h"

static const char *const VEC_NAME[5] = {"h", "l", "a", "b_g1", "b_g2"};

/* Decodes the first and last point of each vector: a file whose layout
 * is right but whose points are not (another encoding, a torn copy)
 * fails at once rather than in a proof. */
static cz_err check_ends(const cz_groth16_params *p, const size_t start[5], char *msg,
                         size_t msg_len) {
  const size_t n[5] = {p->n_h, p->n_l, p->n_a, p->n_b_g1, p->n_b_g2};
  for (int v = 0; v < 5; v++) {
    if (!n[v]) continue;
    bool g2 = v == 4;
    size_t sz = g2 ? CZ_G2_UNCOMPRESSED_BYTES : CZ_G1_UNCOMPRESSED_BYTES;
    size_t idx[2] = {0, n[v] - 1};
    for (int k = 0; k < 2; k++) {
      cz_g2_affine pt;
      size_t bad = 0, off = start[v] + idx[k] * sz;
      cz_err e = cz_g16_decode_points(&pt, p->map.file + off, 1, g2, CZ_POINT_ON_CURVE, &bad);
      if (e != CZ_OK)
        return cz_msg_err(msg, msg_len, e, "%s point %zu at offset %zu: %s", VEC_NAME[v], idx[k],
                          off, cz_err_str(e));
    }
  }
  return CZ_OK;
}

cz_err cz_groth16_params_view(cz_groth16_params *p, const uint8_t *buf, size_t len, bool checked,
                              unsigned n_threads, char *msg, size_t msg_len) {
  size_t start[5];
  cz_err e = cz_g16_params_head(p, buf, len, start, msg, msg_len);
  if (e != CZ_OK) return e;
  p->map = (cz_params_mapping){
      buf,   len, buf + start[0], buf + start[1], buf + start[2], buf + start[3], buf + start[4],
      false, -1};
  e = check_ends(p, start, msg, msg_len);
  if (e == CZ_OK && checked) e = cz_g16_params_check_points(p, buf, start, n_threads, msg, msg_len);
  if (e != CZ_OK) cz_groth16_params_free(p);
  return e;
}

cz_err cz_groth16_params_map(cz_groth16_params *p, const char *path, bool checked,
                             unsigned n_threads, char *msg, size_t msg_len) {
  memset(p, 0, sizeof *p);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return cz_msg_err(msg, msg_len, CZ_ERR_IO, "%s: %s", path, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_size <= 0) {
    cz_msg(msg, msg_len, "%s: %s", path, st.st_size <= 0 ? "empty file" : strerror(errno));
    close(fd);
    return CZ_ERR_IO;
  }
  size_t len = (size_t)st.st_size;
  void *m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
  if (m == MAP_FAILED) {
    int err = errno;
    close(fd);
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "%s: mmap: %s", path, strerror(err));
  }
  char detail[256];
  cz_err e = cz_groth16_params_view(p, m, len, checked, n_threads, detail, sizeof detail);
  if (e != CZ_OK) {
    munmap(m, len);
    close(fd);
    return cz_msg_err(msg, msg_len, e, "%s: %s", path, detail);
  }
  p->map.owned = true;
  p->map.fd = fd; /* the prover's slices are copied from it */
  return CZ_OK;
}
