/* The iden3 binary container and its little-endian cursor (binfile.h). */
#include "groth16/binfile.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/msg.h"

/* The kinds snarkjs and circom write, to say what a wrong file is. */
static const char *const KINDS[][2] = {
    {"zkey", "a proving key (.zkey)"},
    {"wtns", "a witness (.wtns)"},
    {"r1cs", "a constraint system (.r1cs)"},
    {"ptau", "a powers of tau file (.ptau)"},
};

static uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }

static const char *kind_name(const char kind[4]) {
  for (size_t i = 0; i < sizeof KINDS / sizeof KINDS[0]; i++)
    if (!memcmp(KINDS[i][0], kind, 4)) return KINDS[i][1];
  return "this kind";
}

static bool check_magic(const uint8_t *buf, size_t len, const char kind[4], cz_errpath *ep) {
  if (len < 4)
    return cz_errpath_fail(ep, CZ_ERR_TRUNCATED, "%zu bytes: too short for a snarkjs file", len);
  if (!memcmp(buf, kind, 4)) return true;
  for (size_t i = 0; i < sizeof KINDS / sizeof KINDS[0]; i++)
    if (!memcmp(KINDS[i][0], buf, 4))
      return cz_errpath_fail(ep, CZ_ERR_PARSE, "this is %s, not %s", KINDS[i][1], kind_name(kind));
  char shown[5];
  for (int i = 0; i < 4; i++) shown[i] = (buf[i] >= 0x20 && buf[i] < 0x7f) ? (char)buf[i] : '?';
  shown[4] = 0;
  return cz_errpath_fail(ep, CZ_ERR_PARSE, "not %s: magic \"%s\", expected \"%.4s\"",
                         kind_name(kind), shown, kind);
}

bool cz_binfile_parse(cz_binfile *f, const uint8_t *buf, size_t len, const char kind[4],
                      uint32_t max_version, cz_errpath *ep) {
  memset(f, 0, sizeof *f);
  f->buf = buf;
  f->len = len;
  if (!check_magic(buf, len, kind, ep)) return false;
  if (len < 12) return cz_errpath_fail(ep, CZ_ERR_TRUNCATED, "header: truncated (%zu bytes)", len);
  f->version = le32(buf + 4);
  if (f->version < 1 || f->version > max_version)
    return cz_errpath_fail(ep, CZ_ERR_PARSE, "version %u not supported (1..%u)", f->version,
                           max_version);
  uint32_t n = le32(buf + 8);
  if (n > CZ_BIN_MAX_SECTIONS)
    return cz_errpath_fail(ep, CZ_ERR_PARSE, "%u sections: more than %d", n, CZ_BIN_MAX_SECTIONS);
  uint64_t off = 12;
  for (uint32_t i = 0; i < n; i++) {
    if (len - off < 12)
      return cz_errpath_fail(ep, CZ_ERR_TRUNCATED,
                             "section header %u of %u: truncated at byte %llu", i + 1, n,
                             (unsigned long long)off);
    cz_bin_section *s = &f->sec[i];
    s->id = le32(buf + off);
    s->size = le64(buf + off + 4);
    s->off = off + 12;
    if (s->size > len - s->off)
      return cz_errpath_fail(ep, CZ_ERR_TRUNCATED,
                             "section %u: truncated (declares %llu bytes, %llu left in the file)",
                             s->id, (unsigned long long)s->size,
                             (unsigned long long)(len - s->off));
    off = s->off + s->size;
  }
  if (off != len)
    return cz_errpath_fail(ep, CZ_ERR_TRAILING, "%llu bytes after the last section",
                           (unsigned long long)(len - off));
  f->n_sections = n;
  return true;
}

bool cz_binfile_has(const cz_binfile *f, uint32_t id) {
  for (uint32_t i = 0; i < f->n_sections; i++)
    if (f->sec[i].id == id) return true;
  return false;
}

/* "section <id> (<name>)": the frame's key must outlive it, so the names
 * are formatted into a small static table per id (ids are small here). */
static const char *section_label(uint32_t id, const char *name) {
  static _Thread_local char labels[CZ_BIN_MAX_SECTIONS][48];
  char *l = labels[id % CZ_BIN_MAX_SECTIONS];
  snprintf(l, sizeof labels[0], "section %u (%s)", id, name);
  return l;
}

bool cz_binfile_section(const cz_binfile *f, uint32_t id, const char *name, const uint8_t **body,
                        uint64_t *size, cz_errpath *ep) {
  const cz_bin_section *found = NULL;
  unsigned count = 0;
  for (uint32_t i = 0; i < f->n_sections; i++)
    if (f->sec[i].id == id) found = &f->sec[i], count++;
  cz_errpath_push_key(ep, section_label(id, name));
  if (count != 1) {
    if (count == 0) return cz_errpath_fail(ep, CZ_ERR_PARSE, "missing");
    return cz_errpath_fail(ep, CZ_ERR_PARSE, "appears %u times", count);
  }
  *body = f->buf + found->off;
  *size = found->size;
  return true;
}

bool cz_binfile_cursor(const cz_binfile *f, uint32_t id, const char *name, cz_bincur *cur,
                       cz_errpath *ep) {
  const uint8_t *b = NULL;
  uint64_t len = 0;
  if (!cz_binfile_section(f, id, name, &b, &len, ep)) return false;
  cz_bincur_init(cur, b, len, ep);
  return true;
}

bool cz_bincur_take(cz_bincur *c, const char *field, uint64_t n, const uint8_t **out) {
  if (n > c->len - c->pos) {
    cz_errpath_push_key(c->ep, field);
    cz_errpath_fail(c->ep, CZ_ERR_TRUNCATED, "truncated (needs %llu bytes, %llu left)",
                    (unsigned long long)n, (unsigned long long)(c->len - c->pos));
    cz_errpath_pop(c->ep);
    return false;
  }
  *out = c->p + c->pos;
  c->pos += n;
  return true;
}

bool cz_bincur_u32(cz_bincur *c, const char *field, uint32_t *out) {
  const uint8_t *p;
  if (!cz_bincur_take(c, field, 4, &p)) return false;
  *out = le32(p);
  return true;
}

bool cz_bincur_u64(cz_bincur *c, const char *field, uint64_t *out) {
  const uint8_t *p;
  if (!cz_bincur_take(c, field, 8, &p)) return false;
  *out = le64(p);
  return true;
}

bool cz_bincur_end(cz_bincur *c) {
  if (c->pos == c->len) return true;
  return cz_errpath_fail(c->ep, CZ_ERR_TRAILING, "%llu bytes after the last field",
                         (unsigned long long)(c->len - c->pos));
}

/* The primes met in snarkjs files, little-endian 64-bit limbs. */
static const uint64_t BN254_Q[4] = {0x3c208c16d87cfd47ULL, 0x97816a916871ca8dULL,
                                    0xb85045b68181585dULL, 0x30644e72e131a029ULL};
static const uint64_t BN254_R[4] = {0x43e1f593f0000001ULL, 0x2833e84879b97091ULL,
                                    0xb85045b68181585dULL, 0x30644e72e131a029ULL};

static bool bytes_eq_limbs(const uint8_t *b, size_t n8, const uint64_t *limbs, size_t n) {
  if (n8 != n * 8) return false;
  for (size_t i = 0; i < n; i++) {
    uint64_t w = le64(b + 8 * i);
    if (w != limbs[i]) return false;
  }
  return true;
}

static unsigned bit_length(const uint8_t *b, size_t n8) {
  for (size_t i = n8; i-- > 0;)
    if (b[i]) return (unsigned)(8 * i + 32 - __builtin_clz(b[i]));
  return 0;
}

bool cz_bincur_bls_prime(cz_bincur *c, const char *what, bool base_field) {
  uint32_t n8;
  const uint8_t *p;
  char field[24];
  snprintf(field, sizeof field, "n8%s", what);
  if (!cz_bincur_u32(c, field, &n8)) return false;
  if (n8 > 1024) {
    cz_errpath_push_key(c->ep, field);
    cz_errpath_fail(c->ep, CZ_ERR_PARSE, "%u bytes: not a field size", n8);
    cz_errpath_pop(c->ep);
    return false;
  }
  if (!cz_bincur_take(c, what, n8, &p)) return false;
  const uint64_t *want = base_field ? CZ_FP_MODULUS : CZ_FR_MODULUS;
  if (bytes_eq_limbs(p, n8, want, base_field ? CZ_FP_LIMBS : CZ_FR_LIMBS)) return true;
  cz_errpath_push_key(c->ep, what);
  if (bytes_eq_limbs(p, n8, base_field ? BN254_Q : BN254_R, 4))
    cz_errpath_fail(c->ep, CZ_ERR_PARSE, "the bn128 (BN254) %s field, not bls12-381",
                    base_field ? "base" : "scalar");
  else if (bytes_eq_limbs(p, n8, base_field ? CZ_FR_MODULUS : CZ_FP_MODULUS,
                          base_field ? CZ_FR_LIMBS : CZ_FP_LIMBS))
    cz_errpath_fail(c->ep, CZ_ERR_PARSE, "the bls12-381 %s field where the %s field belongs",
                    base_field ? "scalar" : "base", base_field ? "base" : "scalar");
  else
    cz_errpath_fail(c->ep, CZ_ERR_PARSE, "an unknown %u-bit prime, not bls12-381's",
                    bit_length(p, n8));
  cz_errpath_pop(c->ep);
  return false;
}

/* Little-endian bytes to limbs, and whether the integer is below mod. */
static bool raw_below(const uint8_t *in, uint64_t *out, const uint64_t *mod, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = le64(in + 8 * i);
  for (size_t i = n; i-- > 0;)
    if (out[i] != mod[i]) return out[i] < mod[i];
  return false;
}

bool cz_bin_fr_raw(const uint8_t *in, cz_fr *out) {
  return raw_below(in, out->l, CZ_FR_MODULUS, CZ_FR_LIMBS);
}

bool cz_bin_fp_raw(const uint8_t *in, cz_fp *out) {
  return raw_below(in, out->l, CZ_FP_MODULUS, CZ_FP_LIMBS);
}

cz_err cz_file_map(const char *path, const uint8_t **buf, size_t *len, char *msg, size_t msg_len) {
  *buf = NULL;
  *len = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return cz_msg_err(msg, msg_len, CZ_ERR_IO, "%s: %s", path, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "%s: not a regular file", path);
  }
  /* MAP_POPULATE: one walk over the page cache instead of a fault per 4 KiB
   * page (20-35 us each on these VMs; most of a key's load time). */
  void *m = st.st_size
                ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0)
                : NULL;
  int err = errno;
  close(fd);
  if (m == MAP_FAILED)
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "%s: mmap: %s", path, strerror(err));
  *buf = m;
  *len = (size_t)st.st_size;
  return CZ_OK;
}

void cz_file_unmap(const uint8_t *buf, size_t len) {
  if (buf && len) munmap((void *)buf, len);
}

cz_err cz_file_read_with(const char *path, cz_file_reader read, void *obj, char *msg,
                         size_t msg_len) {
  const uint8_t *buf;
  size_t len;
  cz_err e = cz_file_map(path, &buf, &len, msg, msg_len);
  if (e != CZ_OK) return e;
  e = read(obj, buf, len, msg, msg_len);
  cz_file_unmap(buf, len);
  return e;
}

void cz_binw_bytes(cz_binwriter *w, const void *p, size_t n) {
  if (w->ok && n && fwrite(p, 1, n, w->f) != n) w->ok = false;
}

void cz_binw_zeros(cz_binwriter *w, size_t n) {
  static const uint8_t z[4096];
  for (; n > sizeof z; n -= sizeof z) cz_binw_bytes(w, z, sizeof z);
  cz_binw_bytes(w, z, n);
}

void cz_binw_u32(cz_binwriter *w, uint32_t v) {
  uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  cz_binw_bytes(w, b, 4);
}

void cz_binw_section(cz_binwriter *w, uint32_t id, uint64_t size) {
  cz_binw_u32(w, id);
  cz_binw_u32(w, (uint32_t)size);
  cz_binw_u32(w, (uint32_t)(size >> 32));
}

cz_err cz_binw_close(cz_binwriter *w, cz_err e, const char *who, const char *invalid_why, char *msg,
                     size_t msg_len) {
  if (w->f && fclose(w->f) != 0) w->ok = false;
  w->f = NULL;
  if (e == CZ_OK && !w->ok) e = CZ_ERR_IO;
  if (e != CZ_OK)
    cz_msg(msg, msg_len, "%s: %s", who,
           e == CZ_ERR_INVALID_ARG ? invalid_why
           : e == CZ_ERR_IO        ? "cannot write the file"
                                   : "out of memory");
  return e;
}
