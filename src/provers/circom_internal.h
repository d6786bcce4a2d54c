/* The circom key registry shared by circom_keys.c (keys, the SRS loader)
 * and circom_prover.c (the CIRCOM kind's ops). */
#ifndef CUZK_PROVERS_CIRCOM_INTERNAL_H
#define CUZK_PROVERS_CIRCOM_INTERNAL_H
#include <pthread.h>

#include "cuzk/circom_keys.h"
#include "cuzk/proof_ops.h"
#include "cuzk/zkey.h"

typedef struct circom_key circom_key;
struct circom_key {
  uint8_t id[32];
  cz_circom_key_info info;
  char *path;
  unsigned flags;   /* cz_zkey_load flags */
  bool loaded_once; /* info's sizes are known */
  cz_err load_err;  /* the loader's last refusal, with its line */
  char load_msg[256];
  circom_key *next;
};

struct cz_circom_keys {
  pthread_mutex_t mu;
  cz_engine *e;
  unsigned prove_threads;
  circom_key *keys;
};

/* The key of that id or SRS circuit id (caller holds mu); NULL. */
circom_key *cz_circom_find_locked(cz_circom_keys *k, const uint8_t id[32]);
/* The engine's loader of every key's SRS entry (self: the registry). */
cz_srs_loader cz_circom_srs_loader(cz_circom_keys *k);
/* Count a completed proof of the key. */
void cz_circom_key_count_proof(cz_circom_keys *k, const uint8_t id[32]);
/* Free the registry (the kind's destroy). */
void cz_circom_keys_free(cz_circom_keys *k);

#endif
