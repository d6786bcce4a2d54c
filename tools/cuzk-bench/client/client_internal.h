/* What cuzk-bench's daemon commands share across their files (internal:
 * the options and the one-request commands, cmd_client.c; single and
 * batch, cmd_client_prove.c; the local --verify-vk check,
 * client_verify.c). */
#ifndef CUZK_BENCH_CLIENT_INTERNAL_H
#define CUZK_BENCH_CLIENT_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/groth16.h"
#include "cuzk/porep.h"
#include "rpc_client.h"

typedef struct {
  const char *addr, *type, *c1, *vanilla, *request, *randomness, *comm_r_old, *comm_r_new,
      *comm_d_new;
  const char *circuit, *request_id, *verify_vk, *save_proofs, *log_level, *progress;
  unsigned long long registered_proof, sector_num, miner_id, partition, count, concurrency,
      priority;
  double progress_s;
  bool has_registered;
} opts;

/* --verify-vk: the key and the C1 the proofs must verify against. */
typedef struct {
  cz_groth16_vk vk;
  cz_porep_c1 c1;
  size_t n_inputs;
} local_verifier;

/* argv's options into *o (defaults first; -c is --count when batch):
 * 0, 1 after --help (exit 0), or 2 after one line on stderr. */
int cz_client_parse(int argc, char **argv, opts *o, bool batch);

/* A channel to o->addr (default http://127.0.0.1:9820): 0, or 1 after one
 * line on stderr. */
int cz_client_open(cz_rpc_client *c, const opts *o);

/* The verifying key at the head of vk_path for the PoRep C1 in c1: 0, or
 * -1 after one line on stderr (nothing then to close). */
int cz_client_verifier_open(local_verifier *v, const char *vk_path, const ProtobufCBinaryData *c1);

/* Frees what cz_client_verifier_open took. */
void cz_client_verifier_close(local_verifier *v);

/* "valid", or why not ("invalid:..." or "unchecked:..."), for the proof
 * bytes of one answer (every partition's proof). */
const char *cz_client_verifier_check(const local_verifier *v, const uint8_t *proof, size_t len);

#endif
