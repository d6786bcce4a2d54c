/* cuzk-prove: Groth16 proofs of circom circuits from snarkjs keys, shaped
 * like rapidsnark's prover so that scripts written for it work unchanged:
 *
 *   cuzk-prove [options] circuit.zkey witness.wtns proof.json public.json
 *   cuzk-prove verify verification_key.json|circuit.zkey public.json proof.json
 *
 * The proof and public signals are written exactly as `snarkjs groth16
 * prove` writes them; every proof is verified before it is written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/circom.h"
#include "cuzk/zkey.h"
#include "util/atomic_file.h"

#define MSG_LEN 512

/* A usage error: one line (the whole text with --help). */
static int bad_usage(const char *why) {
  fprintf(stderr, "cuzk-prove: %s (cuzk-prove --help for the usage)\n", why);
  return 2;
}

static int usage(FILE *out) {
  fprintf(
      out,
      "usage: cuzk-prove [options] <circuit.zkey> <witness.wtns> <proof.json> <public.json>\n"
      "       cuzk-prove verify <verification_key.json|circuit.zkey> <public.json> <proof.json>\n"
      "\n"
      "Proves like `snarkjs groth16 prove` (and rapidsnark's prover) over bls12381,\n"
      "and verifies like `snarkjs groth16 verify`.\n"
      "options:\n"
      "  -t, --threads N  thread budget (default: all cores)\n"
      "  --r1cs FILE      check the witness against the circuit's constraints first,\n"
      "                   naming the first one it breaks\n"
      "  --check-key      test every point of the key for the prime-order subgroup\n"
      "                   (slow: about 0.2 ms a point on one core)\n"
      "  --timings        print CUZK_TIMING lines (phases in ms) on stderr\n"
      "  --version        the version and git commit\n"
      "exit status: 0 proved (verify: valid), 1 refused or invalid, 2 usage\n");
  return out == stderr ? 2 : 0;
}

static int fail(const char *what, const char *msg) {
  fprintf(stderr, "cuzk-prove: %s%s%s\n", what, *msg ? ": " : "", msg);
  return 1;
}

/* Written to a temporary and renamed (util/atomic_file.h): a killed run
 * leaves the old file or none, never part of a proof. */
static int write_text(const char *path, const char *text, size_t len) {
  char why[4400] = "";
  if (cz_atomic_write_file(path, text, len, why, sizeof why) == CZ_OK) return 0;
  return fail("cannot write the output", why);
}

static int write_outputs(const cz_groth16_proof *proof, const cz_fr *pub, size_t n_pub,
                         const char *proof_path, const char *public_path) {
  size_t n1 = cz_snarkjs_proof_json(NULL, 0, proof),
         n2 = cz_snarkjs_public_json(NULL, 0, pub, n_pub);
  char *b1 = malloc(n1 + 1), *b2 = malloc(n2 + 1);
  int rc = 1;
  if (b1 && b2) {
    cz_snarkjs_proof_json(b1, n1 + 1, proof);
    cz_snarkjs_public_json(b2, n2 + 1, pub, n_pub);
    rc = write_text(proof_path, b1, n1);
    if (!rc) rc = write_text(public_path, b2, n2);
  } else {
    fail("out of memory", "");
  }
  free(b1);
  free(b2);
  return rc;
}

typedef struct {
  unsigned threads;
  const char *r1cs;
  bool check_key, timings;
  const char *pos[4];
} prove_args;

static int parse_args(int argc, char **argv, prove_args *a) {
  int n = 0;
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    if ((!strcmp(s, "-t") || !strcmp(s, "--threads")) && i + 1 < argc) {
      char *end;
      unsigned long v = strtoul(argv[++i], &end, 10);
      if (*end || v > 4096) return bad_usage("--threads takes a number up to 4096");
      a->threads = (unsigned)v;
    } else if (!strcmp(s, "--r1cs") && i + 1 < argc) {
      a->r1cs = argv[++i];
    } else if (!strcmp(s, "--check-key")) {
      a->check_key = true;
    } else if (!strcmp(s, "--timings")) {
      a->timings = true;
    } else if (s[0] == '-' && s[1]) {
      return bad_usage("unknown option");
    } else if (n < 4) {
      a->pos[n++] = s;
    } else {
      return bad_usage("more than 4 arguments");
    }
  }
  return n == 4 ? 0 : bad_usage("expected 4 arguments: zkey, witness, proof and public output");
}

/* The witness checked against the .r1cs, when one is given. */
static int check_r1cs(const prove_args *a, const cz_wtns *w, char *msg) {
  if (!a->r1cs) return 0;
  cz_circom_r1cs r;
  if (cz_circom_r1cs_load(&r, a->r1cs, msg, MSG_LEN) != CZ_OK) return fail(a->r1cs, msg);
  cz_err e = cz_circom_r1cs_check(&r, w->v, w->n, a->threads, NULL, msg, MSG_LEN);
  cz_circom_r1cs_free(&r);
  return e == CZ_OK ? 0 : fail(a->pos[1], msg);
}

static int prove_main(int argc, char **argv) {
  prove_args a = {0};
  int rc = parse_args(argc, argv, &a);
  if (rc) return rc;
  char msg[MSG_LEN] = "";
  cz_zkey *z = NULL;
  cz_wtns w = {0};
  if (cz_zkey_load(&z, a.pos[0], a.check_key ? CZ_ZKEY_CHECK_SUBGROUP : 0, a.threads, msg,
                   MSG_LEN) != CZ_OK)
    return fail(a.pos[0], msg);
  if (cz_wtns_load(&w, a.pos[1], msg, MSG_LEN) != CZ_OK) rc = fail(a.pos[1], msg);
  if (!rc) rc = check_r1cs(&a, &w, msg);
  cz_groth16_proof proof;
  cz_prove_timing timing = {NULL, NULL, !a.timings};
  cz_zkey_prove_opts o = {a.threads, NULL, NULL, &timing, false, msg, MSG_LEN};
  if (!rc && cz_zkey_prove(z, w.v, w.n, &proof, &o) != CZ_OK) rc = fail(a.pos[1], msg);
  cz_zkey_info info;
  cz_zkey_get_info(z, &info);
  if (!rc) rc = write_outputs(&proof, w.v + 1, info.n_public, a.pos[2], a.pos[3]);
  cz_wtns_free(&w);
  cz_zkey_free(z);
  return rc;
}

/* The verifying key from a verification_key.json or a .zkey. */
static cz_err load_vk(const char *path, cz_groth16_vk *vk, char *msg) {
  size_t n = strlen(path);
  if (n > 5 && !strcmp(path + n - 5, ".zkey")) {
    cz_zkey *z;
    cz_err e = cz_zkey_load(&z, path, 0, 0, msg, MSG_LEN);
    if (e != CZ_OK) return e;
    const cz_groth16_vk *k = cz_zkey_vk(z);
    *vk = *k;
    vk->ic = malloc(k->n_ic * sizeof *vk->ic);
    if (vk->ic) memcpy(vk->ic, k->ic, k->n_ic * sizeof *vk->ic);
    cz_zkey_free(z);
    return vk->ic ? CZ_OK : CZ_ERR_NOMEM;
  }
  char *text;
  size_t len;
  cz_err e = cz_read_file(path, &text, &len, msg, MSG_LEN);
  if (e == CZ_OK) e = cz_snarkjs_vkey_parse(vk, text, len, msg, MSG_LEN);
  free(text);
  return e;
}

static int verify_main(int argc, char **argv) {
  if (argc != 4) return bad_usage("verify takes 3 arguments: key, public signals, proof");
  char msg[MSG_LEN] = "", *pub_text = NULL, *proof_text = NULL;
  size_t pub_len, proof_len, n_pub = 0;
  cz_groth16_vk vk = {0};
  cz_fr *pub = NULL;
  cz_groth16_proof proof;
  int rc = 0;
  if (load_vk(argv[1], &vk, msg) != CZ_OK) rc = fail(argv[1], msg);
  if (!rc && (cz_read_file(argv[2], &pub_text, &pub_len, msg, MSG_LEN) != CZ_OK ||
              cz_snarkjs_public_parse(&pub, &n_pub, pub_text, pub_len, msg, MSG_LEN) != CZ_OK))
    rc = fail(argv[2], msg);
  if (!rc && (cz_read_file(argv[3], &proof_text, &proof_len, msg, MSG_LEN) != CZ_OK ||
              cz_snarkjs_proof_parse(&proof, proof_text, proof_len, msg, MSG_LEN) != CZ_OK))
    rc = fail(argv[3], msg);
  if (!rc && n_pub + 1 != vk.n_ic) {
    snprintf(msg, MSG_LEN, "%zu public signals, the key takes %zu", n_pub, vk.n_ic - 1);
    rc = fail(argv[2], msg);
  }
  if (!rc) {
    cz_err e = cz_groth16_verify(&vk, pub, n_pub, &proof);
    if (e == CZ_OK) printf("OK\n");
    else
      rc = fail("INVALID", e == CZ_ERR_PROOF_INVALID ? "the proof does not verify" : cz_err_str(e));
  }
  free(pub);
  free(pub_text);
  free(proof_text);
  cz_groth16_vk_free(&vk);
  return rc;
}

int main(int argc, char **argv) {
  if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) return usage(stdout);
  if (argc >= 2 && !strcmp(argv[1], "--version")) {
    printf("cuzk-prove %s (git %s)\n", CUZK_VERSION, CUZK_GIT_COMMIT);
    return 0;
  }
  if (argc >= 2 && !strcmp(argv[1], "verify")) return verify_main(argc - 1, argv + 1);
  return prove_main(argc, argv);
}
