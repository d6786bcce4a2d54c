/* The recorded shape on disk (cs.h: cz_pce_save, cz_pce_load).
 *
 * Layout, little-endian, every section starting on a 64-byte boundary:
 *   header (HEADER_BYTES): magic, format version, code width, the counts,
 *     the tiling (cz_pce_tiling; slots 0 for a plain shape), the caller's
 *     32-byte key;
 *   for A and B: row offsets (u32, n_constraints + 1), columns (u32, nnz),
 *     codes (u16 or u32, nnz) (version 1 also held C, which evaluation no
 *     longer reads: such files are stale and recorded again);
 *   the coefficient table (cz_fr, Montgomery form, n_coeffs);
 *   the densities a_aux, b_input, b_aux (u64 words, n / 64 + 1 each);
 *   trailer: CRC-32C of every byte before it (a u64, high half zero), then
 *     the end magic.
 * Loading maps the file and points the shape into the mapping, so a shape
 * loads at the speed of one pass over the file (the CRC). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cs/cs_internal.h"
#include "cuzk/crc32c.h"
#include "util/atomic_file.h"
#include "util/msg.h"

#define MAGIC "CZPCE\r\n\x1a"
#define END_MAGIC "CZPCEEND"
#define HEADER_BYTES 192
#define TRAILER_BYTES 16
#define ALIGN 64

/* The header's fields after the 8-byte magic, as u64 words. */
enum {
  H_VERSION,
  H_CODE_BYTES,
  H_INPUTS,
  H_AUX,
  H_CONSTRAINTS,
  H_NNZ0,
  H_NNZ1,
  H_COEFFS,
  H_COUNT_A_AUX,
  H_COUNT_B_INPUT,
  H_COUNT_B_AUX,
  H_SLOTS, /* the tiling, cz_pce_tiling's order */
  H_HDR_ROWS,
  H_HDR_IN,
  H_HDR_AUX,
  H_PER_ROWS,
  H_PER_IN,
  H_PER_AUX,
  H_WORDS
};
#define N_SECTIONS 10
#define KEY_AT (8 + 8 * H_WORDS)
_Static_assert(KEY_AT + CZ_PCE_KEY_BYTES <= HEADER_BYTES, "header room");

static size_t align_up(size_t n) { return (n + ALIGN - 1) & ~(size_t)(ALIGN - 1); }
static size_t dens_words(size_t n) { return n / 64 + 1; }

/* One section: where it lives in the shape and how long it is. */
typedef struct {
  const void *p;
  size_t bytes;
} section;

/* The sections of p, or of a header's counts when p is NULL (then only the
 * sizes are set); false when a size overflows. */
static bool sections(section s[N_SECTIONS], const cz_pce *p, const uint64_t h[H_WORDS]) {
  uint64_t rows = h[H_CONSTRAINTS], code = h[H_CODE_BYTES];
  if (rows >= SIZE_MAX / 4 || h[H_COEFFS] >= SIZE_MAX / sizeof(cz_fr)) return false;
  for (int i = 0; i < 2; i++) {
    uint64_t nnz = h[H_NNZ0 + i];
    if (nnz >= SIZE_MAX / 8) return false;
    s[3 * i] = (section){p ? p->m[i].ptr : NULL, (size_t)(rows + 1) * 4};
    s[3 * i + 1] = (section){p ? p->m[i].idx : NULL, (size_t)nnz * 4};
    s[3 * i + 2] = (section){p ? p->m[i].code : NULL, (size_t)(nnz * code)};
  }
  s[6] = (section){p ? p->coeffs : NULL, (size_t)h[H_COEFFS] * sizeof(cz_fr)};
  uint64_t n[3] = {h[H_AUX], h[H_INPUTS], h[H_AUX]};
  const cz_density *d[3] = {p ? &p->a_aux : NULL, p ? &p->b_input : NULL, p ? &p->b_aux : NULL};
  for (int i = 0; i < 3; i++) {
    if (n[i] >= SIZE_MAX / 16) return false;
    s[7 + i] = (section){d[i] ? d[i]->bits : NULL, dens_words((size_t)n[i]) * 8};
  }
  return true;
}

/* The file's size for these counts (0: overflow). */
static size_t file_bytes(const section s[N_SECTIONS]) {
  size_t at = HEADER_BYTES;
  for (int i = 0; i < N_SECTIONS; i++) {
    if (s[i].bytes > SIZE_MAX / 2 - at) return 0;
    at = align_up(at + s[i].bytes);
  }
  return at + TRAILER_BYTES;
}

static void header_of(uint64_t h[H_WORDS], const cz_pce *p) {
  h[H_VERSION] = CZ_PCE_FORMAT_VERSION;
  h[H_CODE_BYTES] = p->code_bytes;
  h[H_INPUTS] = p->n_inputs;
  h[H_AUX] = p->n_aux;
  h[H_CONSTRAINTS] = p->n_constraints;
  for (int i = 0; i < 2; i++) h[H_NNZ0 + i] = p->m[i].nnz;
  h[H_COEFFS] = p->n_coeffs;
  h[H_COUNT_A_AUX] = p->a_aux.count;
  h[H_COUNT_B_INPUT] = p->b_input.count;
  h[H_COUNT_B_AUX] = p->b_aux.count;
  const cz_pce_tiling *t = &p->tile;
  const size_t tile[7] = {t->n_slots,  t->hdr_rows, t->hdr_in, t->hdr_aux,
                          t->per_rows, t->per_in,   t->per_aux};
  for (int i = 0; i < 7; i++) h[H_SLOTS + i] = tile[i];
}

/* ---- writing ------------------------------------------------------------ */

typedef struct {
  cz_atomic_file f;
  uint32_t crc;
  size_t at;
  cz_err e; /* the first failure; why says it */
  char why[1024];
} writer;

static void put(writer *w, const void *p, size_t n) {
  w->crc = cz_crc32c(w->crc, p, n);
  w->at += n;
  if (w->e == CZ_OK) w->e = cz_atomic_write(&w->f, p, n, w->why, sizeof w->why);
}

static void pad(writer *w) {
  static const uint8_t zero[ALIGN];
  size_t n = align_up(w->at) - w->at;
  if (n) put(w, zero, n);
}

static void put_header(writer *w, const uint64_t h[H_WORDS], const uint8_t key[CZ_PCE_KEY_BYTES]) {
  uint8_t head[HEADER_BYTES] = {0};
  memcpy(head, MAGIC, 8);
  for (int i = 0; i < H_WORDS; i++)
    for (int b = 0; b < 8; b++) head[8 + 8 * i + b] = (uint8_t)(h[i] >> (8 * b));
  memcpy(head + KEY_AT, key, CZ_PCE_KEY_BYTES);
  put(w, head, sizeof head);
}

cz_err cz_pce_save(const cz_pce *p, const char *path, const uint8_t key[CZ_PCE_KEY_BYTES],
                   char *msg, size_t msg_len) {
  if (!p || !path || !key) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "missing argument");
  uint64_t h[H_WORDS];
  header_of(h, p);
  section s[N_SECTIONS];
  if (!sections(s, p, h)) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "shape too large");
  writer *w = calloc(1, sizeof *w); /* the paths make it 10 kB */
  if (!w) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  w->e = cz_atomic_open(&w->f, path, file_bytes(s), w->why, sizeof w->why);
  put_header(w, h, key);
  for (int i = 0; i < N_SECTIONS; i++) {
    put(w, s[i].p, s[i].bytes);
    pad(w);
  }
  uint8_t tail[TRAILER_BYTES] = {0};
  uint32_t crc = w->crc;
  for (int b = 0; b < 4; b++) tail[b] = (uint8_t)(crc >> (8 * b));
  memcpy(tail + 8, END_MAGIC, 8);
  put(w, tail, sizeof tail);
  if (w->e == CZ_OK) w->e = cz_atomic_commit(&w->f, w->why, sizeof w->why);
  cz_err e = w->e;
  if (e != CZ_OK && !strncmp(w->why, path, strlen(path))) /* "<path>: <why>" */
    cz_msg(msg, msg_len, "could not cache the shape as %s", w->why);
  else if (e != CZ_OK) cz_msg(msg, msg_len, "could not cache the shape as %s: %s", path, w->why);
  free(w);
  return e;
}

/* ---- loading ------------------------------------------------------------ */

static uint64_t get64(const uint8_t *b) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | b[i];
  return v;
}

static bool fr_canonical(const cz_fr *x) {
  for (int i = 3; i >= 0; i--)
    if (x->l[i] != CZ_FR_MODULUS[i]) return x->l[i] < CZ_FR_MODULUS[i];
  return false;
}

/* What evaluation relies on: ascending offsets ending at nnz, columns and
 * codes in range, a reduced table starting ONE, -ONE, densities that count
 * what they say with no bit past their end. */
static bool shape_sane(const cz_pce *p) {
  size_t cols = p->n_inputs + p->n_aux;
  for (int i = 0; i < 2; i++) {
    const cz_pce_mat *m = &p->m[i];
    if (m->ptr[0] != 0 || m->ptr[p->n_constraints] != m->nnz) return false;
    for (size_t r = 0; r < p->n_constraints; r++)
      if (m->ptr[r + 1] < m->ptr[r]) return false;
    uint32_t bad = 0;
    for (size_t k = 0; k < m->nnz; k++) bad |= m->idx[k] >= cols;
    for (size_t k = 0; k < m->nnz; k++)
      bad |= (p->code_bytes == 2 ? ((const uint16_t *)m->code)[k]
                                 : ((const uint32_t *)m->code)[k]) >= p->n_coeffs;
    if (bad) return false;
  }
  cz_fr minus_one;
  cz_fr_neg(&minus_one, &CZ_FR_ONE);
  if (p->n_coeffs < 2 || memcmp(&p->coeffs[0], &CZ_FR_ONE, sizeof(cz_fr)) != 0 ||
      memcmp(&p->coeffs[1], &minus_one, sizeof(cz_fr)) != 0)
    return false;
  for (size_t k = 0; k < p->n_coeffs; k++)
    if (!fr_canonical(&p->coeffs[k])) return false;
  const cz_density *d[3] = {&p->a_aux, &p->b_input, &p->b_aux};
  for (int i = 0; i < 3; i++) {
    size_t words = dens_words(d[i]->n), count = 0;
    for (size_t w = 0; w < words; w++) count += (size_t)__builtin_popcountll(d[i]->bits[w]);
    uint64_t past = d[i]->bits[words - 1] >> (d[i]->n % 64);
    if (count != d[i]->count || past) return false;
  }
  return true;
}

/* A tiling that fits the matrices: the header and one slot are all the
 * rows and variables (or no tiling). */
static bool tiling_sane(const cz_pce_tiling *t, const cz_pce *p) {
  if (!t->n_slots)
    return !t->hdr_rows && !t->hdr_in && !t->hdr_aux && !t->per_rows && !t->per_in && !t->per_aux;
  return t->hdr_rows + t->per_rows == p->n_constraints && t->hdr_in + t->per_in == p->n_inputs &&
         t->hdr_aux + t->per_aux == p->n_aux && t->n_slots <= UINT32_MAX &&
         t->per_in * t->n_slots <= UINT32_MAX && t->per_aux * t->n_slots <= UINT32_MAX &&
         t->per_rows * t->n_slots <= UINT32_MAX;
}

/* The shape over a mapping whose header and size were checked. */
static cz_pce *shape_over(const uint8_t *map, size_t len, const uint64_t h[H_WORDS],
                          const section sz[N_SECTIONS]) {
  cz_pce *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->map = (void *)map;
  p->map_len = len;
  p->n_inputs = h[H_INPUTS];
  p->n_aux = h[H_AUX];
  p->n_constraints = h[H_CONSTRAINTS];
  p->n_coeffs = h[H_COEFFS];
  p->code_bytes = (unsigned)h[H_CODE_BYTES];
  p->tile = (cz_pce_tiling){h[H_SLOTS],    h[H_HDR_ROWS], h[H_HDR_IN], h[H_HDR_AUX],
                            h[H_PER_ROWS], h[H_PER_IN],   h[H_PER_AUX]};
  const uint8_t *at[N_SECTIONS];
  size_t off = HEADER_BYTES;
  for (int i = 0; i < N_SECTIONS; i++) {
    at[i] = map + off;
    off = align_up(off + sz[i].bytes);
  }
  for (int i = 0; i < 2; i++) {
    p->m[i].ptr = (uint32_t *)at[3 * i];
    p->m[i].idx = (uint32_t *)at[3 * i + 1];
    p->m[i].code = (void *)at[3 * i + 2];
    p->m[i].nnz = h[H_NNZ0 + i];
  }
  p->coeffs = (cz_fr *)at[6];
  /* One by one: GCC 12.2 at -O3 gave a_aux the inputs' count from a loop
   * over {a_aux, b_input, b_aux} with their counts in an array. */
  p->a_aux = (cz_density){(uint64_t *)at[7], p->n_aux, h[H_COUNT_A_AUX]};
  p->b_input = (cz_density){(uint64_t *)at[8], p->n_inputs, h[H_COUNT_B_INPUT]};
  p->b_aux = (cz_density){(uint64_t *)at[9], p->n_aux, h[H_COUNT_B_AUX]};
  return p;
}

cz_pce_file_status cz_pce_load(const char *path, const uint8_t key[CZ_PCE_KEY_BYTES], cz_pce **out,
                               char *msg, size_t msg_len) {
  *out = NULL;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    cz_msg(msg, msg_len, "%s: %s", path, strerror(e));
    return e == ENOENT ? CZ_PCE_FILE_MISSING : CZ_PCE_FILE_UNREADABLE;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_size < HEADER_BYTES + TRAILER_BYTES) {
    close(fd);
    cz_msg(msg, msg_len, "%s: truncated (%lld bytes)", path, (long long)st.st_size);
    return CZ_PCE_FILE_CORRUPT;
  }
  size_t len = (size_t)st.st_size;
  uint8_t *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED) {
    cz_msg(msg, msg_len, "%s: mmap: %s", path, strerror(errno));
    return CZ_PCE_FILE_UNREADABLE;
  }
  madvise(map, len, MADV_SEQUENTIAL);
  cz_pce_file_status r = CZ_PCE_FILE_CORRUPT;
  uint64_t h[H_WORDS];
  for (int i = 0; i < H_WORDS; i++) h[i] = get64(map + 8 + 8 * i);
  section sz[N_SECTIONS];
  if (memcmp(map, MAGIC, 8) != 0) {
    cz_msg(msg, msg_len, "%s: not a recorded shape", path);
  } else if (h[H_VERSION] != CZ_PCE_FORMAT_VERSION ||
             memcmp(map + KEY_AT, key, CZ_PCE_KEY_BYTES) != 0) {
    cz_msg(msg, msg_len, "%s: recorded for another circuit or format", path);
    r = CZ_PCE_FILE_STALE;
  } else if ((h[H_CODE_BYTES] != 2 && h[H_CODE_BYTES] != 4) ||
             h[H_INPUTS] + h[H_AUX] > UINT32_MAX || !sections(sz, NULL, h) ||
             file_bytes(sz) != len) {
    cz_msg(msg, msg_len, "%s: truncated or inconsistent (%zu bytes)", path, len);
  } else if (memcmp(map + len - 8, END_MAGIC, 8) != 0 ||
             cz_crc32c(0, map, len - TRAILER_BYTES) != get64(map + len - TRAILER_BYTES)) {
    cz_msg(msg, msg_len, "%s: checksum mismatch", path);
  } else {
    cz_pce *p = shape_over(map, len, h, sz);
    if (!p) {
      cz_msg(msg, msg_len, "out of memory");
      r = CZ_PCE_FILE_UNREADABLE;
    } else if (!shape_sane(p) || !tiling_sane(&p->tile, p)) {
      free(p);
      cz_msg(msg, msg_len, "%s: checksum holds but the shape is malformed", path);
    } else {
      madvise(map, len, MADV_WILLNEED);
      *out = p;
      return CZ_PCE_FILE_OK;
    }
  }
  munmap(map, len);
  return r;
}
