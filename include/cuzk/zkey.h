/* Layer: groth16 */
/* Groth16 proving keys in snarkjs's .zkey format, over BLS12-381, and the
 * prover that follows snarkjs's equations (src/groth16/zkey_read.c,
 * zkey_prove.c, zkey_hpoly.c): circuits written in circom, set up with
 * snarkjs, proved here, verified by `snarkjs groth16 verify`.
 *
 * The file (binfile layout, see src/groth16/binfile.h): section 1 the
 * protocol (1 = Groth16), 2 the Groth16 header (q, r, nVars, nPublic,
 * domainSize, alpha1, beta1, beta2, gamma2, delta1, delta2), 3 IC, 4 the
 * A and B matrices' terms (matrix, constraint, signal, coefficient times
 * R^2), 5 A, 6 B1, 7 B2, 8 C (signals past the public ones), 9 H
 * (domainSize points), 10 the contributions (not read). Points are affine,
 * x then y, each coordinate little endian in Montgomery form; the point at
 * infinity is all zeros.
 *
 * Loading maps the file once (mmap) and keeps what the prover needs next
 * to it: the A/B terms with their coefficients in Montgomery form, the
 * verifying key, the H domain's tables. A loaded key is read-only:
 * threads may prove with it at the same time, each with its own witness. */
#ifndef CUZK_ZKEY_H
#define CUZK_ZKEY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/circom.h"
#include "cuzk/err.h"
#include "cuzk/fr.h"
#include "cuzk/groth16.h"
#include "cuzk/groth16_prove.h"

typedef struct cz_zkey cz_zkey;

/* Load flags. Every point is always checked to have canonical coordinates
 * and to lie on its curve, and alpha, beta, gamma and delta to lie in the
 * prime-order subgroup. The subgroup test of the IC, A, B1, B2, C and H
 * points is the costly part (about 0.2 ms a point on one core here;
 * snarkjs and rapidsnark never make it): CZ_ZKEY_CHECK_SUBGROUP asks for
 * it. Without it a key with such points still gives no bad proof:
 * cz_zkey_prove checks the subgroup of the proof's points and verifies
 * every proof it makes. */
enum { CZ_ZKEY_CHECK_SUBGROUP = 1 };

/* Map and check the file at path (see above). Refusals say, in one line
 * into msg, which section and field are wrong and what the file is
 * instead: another snarkjs file kind, a PLONK or FFLONK key, a key over
 * bn128, a truncated section, a point off the curve or outside the
 * subgroup. Errors: CZ_ERR_IO (open, stat, mmap), CZ_ERR_NOMEM,
 * CZ_ERR_TRUNCATED, CZ_ERR_TRAILING, CZ_ERR_PARSE (structure and
 * values), CZ_ERR_NONCANONICAL, CZ_ERR_NOT_ON_CURVE,
 * CZ_ERR_NOT_IN_SUBGROUP. n_threads: the budget for the checks (0 = all
 * cores). *out is set only on success; free it with cz_zkey_free. */
CZ_MUST_CHECK cz_err cz_zkey_load(cz_zkey **out, const char *path, unsigned flags,
                                  unsigned n_threads, char *msg, size_t msg_len);

/* The same from a buffer (fuzzing, keys held in memory): the key borrows
 * buf, which must stay unchanged until cz_zkey_free. */
CZ_MUST_CHECK cz_err cz_zkey_read(cz_zkey **out, const uint8_t *buf, size_t len, unsigned flags,
                                  unsigned n_threads, char *msg, size_t msg_len);

void cz_zkey_free(cz_zkey *z); /* NULL is allowed */

typedef struct {
  size_t n_vars;      /* witness length, ONE included */
  size_t n_public;    /* public signals (outputs, then public inputs) */
  size_t domain_size; /* QAP domain n: constraints + n_public + 1 <= n */
  size_t n_terms;     /* A and B terms of section 4 */
  size_t file_bytes;
} cz_zkey_info;

void cz_zkey_get_info(const cz_zkey *z, cz_zkey_info *info);

/* The verifying key (gamma and IC included), valid while z lives. */
const cz_groth16_vk *cz_zkey_vk(const cz_zkey *z);

typedef struct {
  unsigned n_threads; /* 0 = all online cores */
  /* r and s; NULL draws them from getrandom. Both or neither. */
  const cz_fr *r, *s;
  const cz_prove_timing *timing; /* NULL: print CUZK_TIMING lines only */
  /* Skip the verification of the proof made (benchmarks only). */
  bool no_verify;
  char *msg; /* optional one-line detail of an error */
  size_t msg_len;
} cz_zkey_prove_opts;

/* One proof of the witness w[0 .. n_w) (Montgomery form, w[0] = 1, the
 * public signals at w[1 .. n_public]), as snarkjs's groth16 prove makes it:
 *   a_i, b_i = the A and B rows of section 4 times w, c_i = a_i b_i;
 *   the values of A B - C on the odd powers of the 2n-th root of unity are
 *   the scalars of the H points (no division: the points carry it);
 *   A = alpha1 + sum w_i A_i + r delta1,  B = beta2 + sum w_i B2_i + s delta2,
 *   C = sum_{i > n_public} w_i C_i + H + s A + r (beta1 + sum w_i B1_i
 *       + s delta1) - r s delta1.
 * The proof is then verified against the key's own verifying key; a
 * witness that does not satisfy the circuit gives CZ_ERR_PROOF_INVALID
 * ("the witness does not satisfy the circuit": the zkey holds no C matrix
 * to say which constraint; cz_circom_r1cs_check does) and no proof.
 * Errors: CZ_ERR_INVALID_ARG (n_w != n_vars, w[0] != 1, only one of r and
 * s), CZ_ERR_NOMEM, CZ_ERR_IO (getrandom), CZ_ERR_PROOF_INVALID. Timings
 * go through opts->timing as the Groth16 prover's phases (ntt_h, msm_h,
 * msm_l for C, msm_a, msm_b_g1, msm_b_g2, batch_add, total), plus
 * synthesis for building a and b. Thread-safe for concurrent calls. */
CZ_MUST_CHECK cz_err cz_zkey_prove(const cz_zkey *z, const cz_fr *w, size_t n_w,
                                   cz_groth16_proof *proof, const cz_zkey_prove_opts *opts);

/* ---- keys of known toxic waste: tests and benchmarks only ----------------
 * snarkjs's own route (powers of tau ceremony, prepare phase2, setup) takes
 * hours here for 2^16 and more; these make the same files from scalars in
 * seconds. Whoever holds the toxic waste can forge proofs: never use such
 * a key for anything but tests and benchmarks. */
typedef struct {
  cz_fr tau, alpha, beta, delta; /* gamma is 1, as snarkjs's setup makes it */
} cz_zkey_toxic;

/* Non-zero uniform values from getrandom (CZ_ERR_IO when it fails). */
CZ_MUST_CHECK cz_err cz_zkey_toxic_random(cz_zkey_toxic *t);

/* The domain power snarkjs picks for rows = constraints + public signals:
 * floor(log2 rows) + 1 (zkey_new.js). */
unsigned cz_zkey_domain_power(size_t rows);

/* Writes to path the .zkey that `snarkjs groth16 setup` makes for r from a
 * powers of tau of tau, alpha and beta, after one contribution of delta
 * (src/groth16/zkey_setup.c): sections 1 to 9 in snarkjs's order and
 * bytes (identical to snarkjs's for delta = 1, given cz_ptau_write's file
 * of the same toxic waste), section 10 with a zero circuit hash and no
 * contribution (`snarkjs zkey verify` refuses it; prove, verify and
 * `zkey export verificationkey` take it). Errors: CZ_ERR_INVALID_ARG
 * (domain past 2^31, delta zero, tau a root of unity), CZ_ERR_NOMEM,
 * CZ_ERR_IO; msg says which. */
CZ_MUST_CHECK cz_err cz_zkey_setup(const cz_circom_r1cs *r, const cz_zkey_toxic *t,
                                   const char *path, unsigned n_threads, char *msg, size_t msg_len);

/* Writes to path a prepared powers of tau of t's tau, alpha and beta that
 * holds only what `snarkjs groth16 setup` reads for a domain of exactly
 * 2^power (1..27) (src/groth16/ptau_write.c; bench/snarkjs/fast_ptau.mjs
 * writes the same layout). Errors as cz_zkey_setup's. */
CZ_MUST_CHECK cz_err cz_ptau_write(unsigned power, const cz_zkey_toxic *t, const char *path,
                                   unsigned n_threads, char *msg, size_t msg_len);

#endif
