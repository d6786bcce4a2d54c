/* cuzk-bench's --verify-vk check: each PoRep proof the daemon returns,
 * verified here against the C1's public inputs with a verifying key read
 * from a key or .params file. It stands apart from the drivers
 * (cmd_client_prove.c) as the one part that does curve arithmetic: the
 * daemon verifies before it answers, this checks what came over the wire. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "client_internal.h"
#include "cuzk/groth16.h"
#include "cuzk/porep.h"
#include "cuzk/sdr.h"

/* The verifying key at the head of path (a key file, or a whole .params
 * file: only its head is read). */
int cz_client_verifier_open(local_verifier *v, const char *vk_path, const ProtobufCBinaryData *c1) {
  memset(v, 0, sizeof *v);
  char msg[512] = "";
  if (cz_porep_c1_parse(&v->c1, (const char *)c1->data, c1->len, msg, sizeof msg) != CZ_OK)
    return fprintf(stderr, "--verify-vk needs a PoRep --c1: %s\n", msg), -1;
  cz_porep_config cfg;
  cz_registered_porep_config(v->c1.registered, &cfg);
  v->n_inputs = cz_porep_public_input_count(&cfg);
  FILE *f = fopen(vk_path, "rb");
  if (!f) return perror(vk_path), cz_porep_c1_free(&v->c1), -1;
  size_t cap = 868 + 96 * (v->n_inputs + 1); /* 6 points, the count, the IC */
  uint8_t *buf = malloc(cap);
  size_t len = buf ? fread(buf, 1, cap, f) : 0;
  fclose(f);
  size_t used;
  cz_err e = buf ? cz_groth16_vk_read(&v->vk, buf, len, false, &used) : CZ_ERR_NOMEM;
  free(buf);
  if (e == CZ_OK && v->vk.n_ic != v->n_inputs + 1) {
    cz_groth16_vk_free(&v->vk);
    e = CZ_ERR_INVALID_ARG;
  }
  if (e != CZ_OK) {
    fprintf(stderr, "%s: not a verifying key of %s's circuit (%s)\n", vk_path,
            v->c1.registered->name, cz_err_str(e));
    cz_porep_c1_free(&v->c1);
    return -1;
  }
  return 0;
}

void cz_client_verifier_close(local_verifier *v) {
  cz_groth16_vk_free(&v->vk);
  cz_porep_c1_free(&v->c1);
}

/* "valid", or why not. */
const char *cz_client_verifier_check(const local_verifier *v, const uint8_t *proof, size_t len) {
  if (len != (size_t)v->c1.n_partitions * CZ_GROTH16_PROOF_BYTES) return "invalid:length";
  cz_fr *in = calloc(v->n_inputs ? v->n_inputs : 1, sizeof *in);
  if (!in) return "unchecked:nomem";
  const char *verdict = "valid";
  for (uint32_t p = 0; p < v->c1.n_partitions && !strcmp(verdict, "valid"); p++) {
    size_t n = v->n_inputs;
    cz_groth16_proof pr;
    if (cz_porep_c1_public_inputs(&v->c1, p, in, &n) != CZ_OK || n != v->n_inputs)
      verdict = "unchecked:inputs";
    else if (cz_groth16_proof_read(&pr, proof + (size_t)p * CZ_GROTH16_PROOF_BYTES) != CZ_OK)
      verdict = "invalid:decode";
    else if (cz_groth16_verify(&v->vk, in, n, &pr) != CZ_OK) verdict = "invalid:pairing";
  }
  free(in);
  return verdict;
}
