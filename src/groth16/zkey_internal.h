/* The loaded snarkjs proving key (cuzk/zkey.h), shared by its reader,
 * prover and writer (internal). */
#ifndef CUZK_GROTH16_ZKEY_INTERNAL_H
#define CUZK_GROTH16_ZKEY_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/fr.h"
#include "cuzk/g1.h"
#include "cuzk/g2.h"
#include "cuzk/groth16.h"
#include "cuzk/ntt.h"
#include "cuzk/zkey.h"

/* One term of the A or B matrix, from section 4: row is the constraint's
 * position in cuzk's NTT order (see zkey_prove.c), with the B matrix
 * flagged by ZKEY_ROW_B. */
#define ZKEY_ROW_B 0x80000000u
typedef struct {
  uint32_t row, signal;
} zkey_term;

/* The point sections, in file order. */
enum { ZK_A, ZK_B1, ZK_B2, ZK_C, ZK_H, ZK_NSEC };

struct cz_zkey {
  /* The file: mapped (map set), or a caller's buffer (borrowed). */
  const uint8_t *buf;
  size_t len;
  const uint8_t *map;
  size_t n_vars, n_public, domain_size;
  unsigned log_n;
  cz_groth16_vk vk; /* ic owned */
  /* A/B terms and their coefficients (Montgomery form), in file order;
   * sorted by constraint when sorted is set, so that runs of rows can be
   * built by parallel workers. */
  size_t n_terms;
  zkey_term *terms;
  cz_fr *coefs;
  bool sorted;
  /* Bases in place in the file, or aligned copies (copy[i]) when the
   * section is not 8-byte aligned there. */
  const void *pts[ZK_NSEC];
  void *copy[ZK_NSEC];
  size_t n_pts[ZK_NSEC];
  /* Bitmaps of the A, B1 and B2 bases at infinity (NULL when none is):
   * their scalars are zeroed before the MSM, which drops zeros, so a
   * signal's absence from a matrix costs nothing. */
  uint64_t *inf[3];
  /* H on the odd powers of the 2n-th root (zkey_hpoly.c). */
  cz_ntt_domain *dom;
  cz_fr shift;                /* snarkjs's 2n-th root of unity */
  uint64_t perm_k;            /* snarkjs's n-th root = cuzk's to this power */
  cz_fr *scale_hi, *scale_lo; /* shift^rev(i) / n, split in two tables */
  unsigned lo_bits;
};

/* snarkjs constraint j sits at cuzk's NTT index (k j) mod n. */
static inline size_t zkey_row_of(const cz_zkey *z, uint64_t j) {
  return (size_t)((j * z->perm_k) & (z->domain_size - 1));
}

/* snarkjs's primitive 2^log_n-th root of unity (log_n <= 32), which is
 * cuzk's (cz_fr_root_of_unity) to the odd power ZKEY_ROOT_EXP: snarkjs
 * derives its roots from 5, the least non-residue mod r, cuzk from 7. */
#define ZKEY_ROOT_EXP 3797895509ULL
void cz_zkey_snarkjs_root(cz_fr *w, unsigned log_n);

/* out[i] = L_(first + i step)(tau), i < count, the Lagrange basis of the
 * 2^log_m-th roots of unity of snarkjs (zkey_setup.c). CZ_ERR_INVALID_ARG
 * when tau is one of those roots, CZ_ERR_NOMEM. */
cz_err cz_zkey_lagrange(cz_fr *out, unsigned log_m, const cz_fr *tau, size_t first, size_t step,
                        size_t count);

/* The H domain and its tables (zkey_hpoly.c); CZ_ERR_NOMEM. */
cz_err cz_zkey_hpoly_init(cz_zkey *z);
void cz_zkey_hpoly_free(cz_zkey *z);

/* a, b: the A and B evaluations in cuzk's NTT order (n each); c: scratch
 * of n. On return b[j] holds, for j < n in snarkjs's order, the value of
 * A B - C at the (2j+1)-th power of snarkjs's 2n-th root of unity: the
 * scalars of the H points. a and c are left unspecified. */
void cz_zkey_hpoly(const cz_zkey *z, cz_fr *a, cz_fr *b, cz_fr *c, unsigned n_threads);

#endif
