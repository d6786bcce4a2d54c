/* The iden3 binary container of snarkjs and circom files (.zkey, .wtns,
 * .r1cs, .ptau), and a little-endian cursor over its sections (internal).
 *
 * Layout (@iden3/binfileutils): 4 ASCII magic bytes, u32 version, u32
 * number of sections, then that many sections, each u32 id, u64 byte size
 * and the body. Integers are little endian. Section ids may come in any
 * order; a reader asks for each section it needs once.
 *
 * Errors go through a cz_errpath whose prefix names the file; the path
 * names the section and field ("section 2 (groth16 header).nVars"), and
 * the message says what is wrong, so every refusal is one line. */
#ifndef CUZK_GROTH16_BINFILE_H
#define CUZK_GROTH16_BINFILE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "cuzk/fp.h"
#include "cuzk/fr.h"
#include "util/errpath.h"

#define CZ_BIN_MAX_SECTIONS 64

typedef struct {
  uint32_t id;
  uint64_t off, size; /* body: buf[off, off + size) */
} cz_bin_section;

typedef struct {
  const uint8_t *buf;
  size_t len;
  uint32_t version;
  uint32_t n_sections;
  cz_bin_section sec[CZ_BIN_MAX_SECTIONS];
} cz_binfile;

/* Parses the container: magic (one of the known kinds, else "not a ...
 * file"; another known kind is named: "a .wtns file, not a .zkey"),
 * version 1..max_version, every section header and body inside buf
 * (CZ_ERR_TRUNCATED naming the section otherwise), nothing after the last
 * section (CZ_ERR_TRAILING). kind is the expected magic ("zkey"). */
bool cz_binfile_parse(cz_binfile *f, const uint8_t *buf, size_t len, const char kind[4],
                      uint32_t max_version, cz_errpath *ep);

/* The body of the section with this id: exactly one must exist (else
 * CZ_ERR_PARSE: "missing" or "appears N times"). The path gets the frame
 * "section <id> (<name>)", left pushed on success for the caller's fields
 * (pop it with cz_errpath_pop when done). */
bool cz_binfile_section(const cz_binfile *f, uint32_t id, const char *name, const uint8_t **body,
                        uint64_t *size, cz_errpath *ep);

/* A cursor over section id's body (cz_binfile_section, then
 * cz_bincur_init; the cursor type is below). */
typedef struct cz_bincur cz_bincur;
bool cz_binfile_cursor(const cz_binfile *f, uint32_t id, const char *name, cz_bincur *cur,
                       cz_errpath *ep);

/* Whether a section with this id exists (any count). */
bool cz_binfile_has(const cz_binfile *f, uint32_t id);

/* A cursor over one section's body. Every read names its field on error. */
struct cz_bincur {
  const uint8_t *p;
  uint64_t len, pos;
  cz_errpath *ep;
};

static inline void cz_bincur_init(cz_bincur *c, const uint8_t *p, uint64_t len, cz_errpath *ep) {
  c->p = p;
  c->len = len;
  c->pos = 0;
  c->ep = ep;
}

/* n bytes at the cursor, or CZ_ERR_TRUNCATED "<field>: truncated (needs N
 * bytes, section has M left)". */
bool cz_bincur_take(cz_bincur *c, const char *field, uint64_t n, const uint8_t **out);
bool cz_bincur_u32(cz_bincur *c, const char *field, uint32_t *out);
bool cz_bincur_u64(cz_bincur *c, const char *field, uint64_t *out);
/* The whole section read: CZ_ERR_TRAILING "N bytes after the last field". */
bool cz_bincur_end(cz_bincur *c);

/* A prime written as u32 n8 then n8 bytes little endian, compared with the
 * BLS12-381 prime expected (q for the base field, r for the scalar field).
 * Anything else is refused naming the curve it belongs to (bn128 / BN254,
 * or "an unknown field of N bits"): what says which ("q", "r", "prime"). */
bool cz_bincur_bls_prime(cz_bincur *c, const char *what, bool base_field);

/* Raw 32-byte little-endian words as cz_fr limbs (no conversion), refused
 * with CZ_ERR_NONCANONICAL when the integer is >= r. */
bool cz_bin_fr_raw(const uint8_t *in, cz_fr *out);
/* Raw 48-byte little-endian words as cz_fp limbs; false when >= p. */
bool cz_bin_fp_raw(const uint8_t *in, cz_fp *out);

/* Maps the regular file at path read-only (MAP_PRIVATE); an empty file
 * gives *buf NULL and *len 0. CZ_ERR_IO with msg "<path>: <why>". */
cz_err cz_file_map(const char *path, const uint8_t **buf, size_t *len, char *msg, size_t msg_len);
void cz_file_unmap(const uint8_t *buf, size_t len); /* NULL is fine */

/* read(obj, bytes, len, msg, msg_len) on the mapped file at path, which is
 * unmapped afterwards: the _load of a reader that copies what it keeps. */
typedef cz_err (*cz_file_reader)(void *obj, const uint8_t *buf, size_t len, char *msg,
                                 size_t msg_len);
cz_err cz_file_read_with(const char *path, cz_file_reader read, void *obj, char *msg,
                         size_t msg_len);

/* ---- writing ---------------------------------------------------------------
 * A file of the same container, written in order; the first failed write
 * sticks in ok. */
typedef struct {
  FILE *f;
  bool ok;
} cz_binwriter;

void cz_binw_bytes(cz_binwriter *w, const void *p, size_t n);
void cz_binw_zeros(cz_binwriter *w, size_t n);
void cz_binw_u32(cz_binwriter *w, uint32_t v);
/* A section header: u32 id, u64 size. */
void cz_binw_section(cz_binwriter *w, uint32_t id, uint64_t size);
/* Closes the file (when open) and returns e, or CZ_ERR_IO when e is CZ_OK
 * but a write or the close failed; on error msg gets "<who>: <why>", why
 * from e: CZ_ERR_INVALID_ARG is invalid_why, CZ_ERR_IO "cannot write the
 * file", anything else "out of memory". */
cz_err cz_binw_close(cz_binwriter *w, cz_err e, const char *who, const char *invalid_why, char *msg,
                     size_t msg_len);

#endif
