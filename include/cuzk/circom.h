/* Layer: groth16 */
/* circom's and snarkjs's other files over BLS12-381: witnesses (.wtns),
 * constraint systems (.r1cs), and the JSON of proofs, public signals and
 * verifying keys as snarkjs writes them (src/groth16/wtns.c,
 * circom_r1cs.c, snarkjs_json.c). The proving key is cuzk/zkey.h.
 *
 * Readers refuse a file with one line in msg that names the section and
 * field (binary) or the path (JSON) that is wrong, and what the file is
 * instead when it is another kind or over another curve (bn128). Values
 * are returned in Montgomery form (cz_fr, cz_fp), as everywhere in cuzk.
 * Nothing here keeps state: any thread, concurrently. */
#ifndef CUZK_CIRCOM_H
#define CUZK_CIRCOM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/err.h"
#include "cuzk/fr.h"
#include "cuzk/groth16.h"

/* ---- .wtns ---------------------------------------------------------------
 * "wtns", version 2: section 1 (u32 n8, the prime r, u32 nWitness) and
 * section 2 (nWitness values, n8 bytes each, canonical little endian). */
typedef struct {
  size_t n;
  cz_fr *v; /* n values, Montgomery form */
} cz_wtns;

/* Errors: CZ_ERR_TRUNCATED / TRAILING / PARSE (layout, counts, a field
 * other than bls12-381's r), CZ_ERR_NONCANONICAL (a value >= r, with its
 * index), CZ_ERR_NOMEM; _load adds CZ_ERR_IO. On error *w owns nothing. */
CZ_MUST_CHECK cz_err cz_wtns_read(cz_wtns *w, const uint8_t *buf, size_t len, char *msg,
                                  size_t msg_len);
CZ_MUST_CHECK cz_err cz_wtns_load(cz_wtns *w, const char *path, char *msg, size_t msg_len);
/* A .wtns of w[0 .. n) (for tests and tools); CZ_ERR_IO. */
CZ_MUST_CHECK cz_err cz_wtns_save(const char *path, const cz_fr *w, size_t n);
void cz_wtns_free(cz_wtns *w); /* a zeroed w is fine */

/* ---- .r1cs ---------------------------------------------------------------
 * "r1cs", version 1: section 1 the header (u32 n8, the prime, u32 nWires,
 * nOutputs, nPubInputs, nPrvInputs, u64 nLabels, u32 nConstraints),
 * section 2 the constraints (A, B, C each as u32 count then (u32 wire,
 * n8-byte canonical coefficient) terms), section 3 the wire-to-label map
 * (not kept). Wires: 0 is ONE, then the outputs, the public inputs, the
 * private inputs. Custom-gate sections (PLONK only) are refused. */
typedef struct {
  size_t n_wires, n_outputs, n_pub_inputs, n_prv_inputs, n_constraints;
  uint64_t n_labels;
  /* Linear combination k (constraint k / 3, matrix k % 3 = A, B, C) is
   * terms [lc[k], lc[k + 1]). */
  size_t n_terms;
  uint32_t *lc;   /* 3 n_constraints + 1 offsets */
  uint32_t *wire; /* n_terms */
  cz_fr *coef;    /* n_terms, Montgomery form */
} cz_circom_r1cs;

/* Errors as cz_wtns_read's, and CZ_ERR_PARSE for a wire past nWires.
 * On error *r owns nothing. */
CZ_MUST_CHECK cz_err cz_circom_r1cs_read(cz_circom_r1cs *r, const uint8_t *buf, size_t len,
                                         char *msg, size_t msg_len);
CZ_MUST_CHECK cz_err cz_circom_r1cs_load(cz_circom_r1cs *r, const char *path, char *msg,
                                         size_t msg_len);
void cz_circom_r1cs_free(cz_circom_r1cs *r); /* a zeroed r is fine */

/* Whether w[0 .. n_w) satisfies every constraint <A,w> <B,w> = <C,w>.
 * CZ_OK when it does; CZ_ERR_INVALID_ARG with msg "the witness does not
 * satisfy constraint K of N" (K the first, *bad set to it when bad is
 * not NULL), or when n_w != n_wires or w[0] != 1 (msg says so). Runs on
 * n_threads workers (0 = all cores). */
CZ_MUST_CHECK cz_err cz_circom_r1cs_check(const cz_circom_r1cs *r, const cz_fr *w, size_t n_w,
                                          unsigned n_threads, size_t *bad, char *msg,
                                          size_t msg_len);

/* ---- snarkjs JSON ----------------------------------------------------------
 * proof.json: {"pi_a": [x, y, "1"], "pi_b": [[x0, x1], [y0, y1], ["1", "0"]],
 * "pi_c": [x, y, "1"], "protocol": "groth16", "curve": "bls12381"}, the
 * numbers decimal strings of the canonical coordinates; public.json: an
 * array of decimal strings. Both written as snarkjs's CLI writes them
 * (bfj: one-space indentation, no final newline, "[\n]" for no public
 * signal), byte for byte. */

/* Writes the text into out[0 .. cap) with a NUL when it fits; returns its
 * length without the NUL (call with out NULL to size a buffer). */
size_t cz_snarkjs_proof_json(char *out, size_t cap, const cz_groth16_proof *proof);
size_t cz_snarkjs_public_json(char *out, size_t cap, const cz_fr *pub, size_t n);

/* Readers: the fields above and no others (in any order), every number a
 * decimal string below its field's prime, z coordinates 1 (and 0 for the
 * second of G2's), points on the curve and in the subgroup, protocol
 * "groth16" and curve "bls12381" (else "a bn128 proof" and the like).
 * Errors CZ_ERR_PARSE (with the JSON path), CZ_ERR_NONCANONICAL,
 * CZ_ERR_NOT_ON_CURVE, CZ_ERR_NOT_IN_SUBGROUP, CZ_ERR_NOMEM. */
CZ_MUST_CHECK cz_err cz_snarkjs_proof_parse(cz_groth16_proof *proof, const char *text, size_t len,
                                            char *msg, size_t msg_len);
/* *pub (malloc'd, free()) gets the *n values. */
CZ_MUST_CHECK cz_err cz_snarkjs_public_parse(cz_fr **pub, size_t *n, const char *text, size_t len,
                                             char *msg, size_t msg_len);
/* verification_key.json (`snarkjs zkey export verificationkey`): protocol,
 * curve, nPublic, vk_alpha_1, vk_beta_2, vk_gamma_2, vk_delta_2,
 * vk_alphabeta_12 (read and checked to be Fp12 numbers, not used) and IC
 * (nPublic + 1 points). vk->beta_g1 and delta_g1, which the file lacks
 * and verification does not use, are the identity. Free with
 * cz_groth16_vk_free. */
CZ_MUST_CHECK cz_err cz_snarkjs_vkey_parse(cz_groth16_vk *vk, const char *text, size_t len,
                                           char *msg, size_t msg_len);

/* A whole file into a malloc'd buffer with a NUL after it (*len without
 * it): CZ_ERR_IO (msg names the path), CZ_ERR_NOMEM. */
CZ_MUST_CHECK cz_err cz_read_file(const char *path, char **text, size_t *len, char *msg,
                                  size_t msg_len);

#endif
