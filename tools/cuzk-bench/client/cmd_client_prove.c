/* cuzk-bench single and batch: the SubmitProof request the options
 * describe, sent as Prove calls on --concurrency threads with a line per
 * proof, the batch's progress and its summary. They stand apart from the
 * one-request commands (cmd_client.c) as the only commands that read
 * input files, run threads and check proofs (client_verify.c). */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "client_internal.h"
#include "commands.h"
#include "common/progress_out.h"
#include "input.h"
#include "post_request.h"
#include "snap_request.h"
#include "cuzk/v1/proving.pb-c.h"
#include "rpc_client.h"

/* A whole file ("-": standard input; pipes are read to their end). */
static int read_file(const char *path, ProtobufCBinaryData *out) {
  char why[512];
  uint8_t *b;
  size_t n;
  if (cz_bench_read_file(path, &b, &n, why, sizeof why) != CZ_OK)
    return fprintf(stderr, "%s\n", why), -1;
  out->data = b;
  out->len = n;
  return 0;
}

static int hex32(const char *name, const char *hex, ProtobufCBinaryData *out) {
  if (!hex) return 0;
  if (!strncmp(hex, "0x", 2)) hex += 2;
  if (strlen(hex) != 64) return fprintf(stderr, "%s: expected 64 hex digits\n", name), -1;
  out->data = malloc(32);
  out->len = 32;
  for (int i = 0; i < 32; i++) {
    unsigned v;
    if (sscanf(hex + 2 * i, "%2x", &v) != 1) return fprintf(stderr, "%s: not hex\n", name), -1;
    out->data[i] = (uint8_t)v;
  }
  return 0;
}

static int kind_of(const char *t) {
  if (!strcmp(t, "porep") || !strcmp(t, "porep-c2") || !strcmp(t, "c2"))
    return CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
  if (!strcmp(t, "snap") || !strcmp(t, "snap-deals") || !strcmp(t, "update"))
    return CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE;
  if (!strcmp(t, "wpost") || !strcmp(t, "window-post") || !strcmp(t, "windowpost") ||
      !strcmp(t, "window"))
    return CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION;
  if (!strcmp(t, "winning") || !strcmp(t, "winning-post") || !strcmp(t, "winningpost"))
    return CUZK__V1__PROOF_KIND__WINNING_POST;
  return -1;
}

typedef struct {
  const opts *o;
  Cuzk__V1__SubmitProofRequest *base;
  const local_verifier *verifier; /* NULL: no local check */
  pthread_mutex_t mu;
  unsigned long long next, ok, failed, verified_bad;
  struct timespec t0;
  cz_progress_meter meter; /* phase "batch": proofs done of count */
} batch_state;

/* The batch's progress (the caller holds b->mu): proofs answered of the
 * count, and how many are ok, failed and still in flight. */
static void batch_progress(batch_state *b) {
  char detail[96];
  unsigned long long done = b->ok + b->failed;
  snprintf(detail, sizeof detail, "ok %llu failed %llu in_flight %llu", b->ok, b->failed,
           b->next - done);
  cz_progress_meter_update(&b->meter, "batch", "proofs", done, b->o->count, detail);
}

static void save_proof(const char *dir, unsigned long long i, const ProtobufCBinaryData *p) {
  char path[4096];
  snprintf(path, sizeof path, "%s/proof-%llu.bin", dir, i);
  char why[4400];
  if (cz_bench_write_atomic(path, p->data, p->len, why, sizeof why) != CZ_OK)
    fprintf(stderr, "--save-proofs: %s\n", why);
}

static double since(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void *prove_worker(void *arg) {
  batch_state *b = arg;
  cz_rpc_client c;
  if (cz_client_open(&c, b->o)) return NULL;
  for (;;) {
    pthread_mutex_lock(&b->mu);
    unsigned long long i = b->next < b->o->count ? b->next++ : b->o->count;
    if (i < b->o->count) batch_progress(b);
    pthread_mutex_unlock(&b->mu);
    if (i >= b->o->count) break;
    Cuzk__V1__SubmitProofRequest sub = *b->base;
    char id[160];
    if (b->o->request_id)
      snprintf(id, sizeof id, "%s%s%llu", b->o->request_id, b->o->count > 1 ? "-" : "", i);
    else id[0] = 0;
    if (b->o->request_id && b->o->count == 1) snprintf(id, sizeof id, "%s", b->o->request_id);
    sub.request_id = id;
    Cuzk__V1__ProveRequest req = CUZK__V1__PROVE_REQUEST__INIT;
    req.submit = &sub;
    ProtobufCMessage *resp;
    char det[512];
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    grpc_status_code code =
        cz_rpc_call(&c, "Prove", &req.base, &cuzk__v1__prove_response__descriptor, &resp, det,
                    sizeof det, 0);
    double wall = since(&t);
    bool ok = false;
    pthread_mutex_lock(&b->mu);
    if (code != GRPC_STATUS_OK) {
      printf("proof %llu error %s: %s done %llu/%llu\n", i, cz_grpc_code_name(code), det,
             b->ok + b->failed + 1, b->o->count);
    } else {
      const Cuzk__V1__AwaitProofResponse *r = ((Cuzk__V1__ProveResponse *)resp)->result;
      static const char *const st[] = {"UNKNOWN", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT"};
      if (!r) {
        printf("proof %llu error: empty result\n", i);
      } else {
        ok = r->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
        const char *verdict = NULL;
        if (ok && b->verifier) {
          verdict = cz_client_verifier_check(b->verifier, r->proof.data, r->proof.len);
          if (strcmp(verdict, "valid")) ok = false, b->verified_bad++;
        }
        if (ok && b->o->save_proofs) save_proof(b->o->save_proofs, i, &r->proof);
        printf(
            "proof %llu job %s status %s bytes %zu wall_s %.3f queue_ms %llu srs_ms %llu synth_ms "
            "%llu "
            "gpu_ms %llu total_ms %llu done %llu/%llu%s%s%s%s\n",
            i, r->job_id, (unsigned)r->status < 5 ? st[r->status] : "?", r->proof.len, wall,
            (unsigned long long)r->queue_wait_ms, (unsigned long long)r->srs_load_ms,
            (unsigned long long)r->synthesis_ms, (unsigned long long)r->gpu_compute_ms,
            (unsigned long long)r->total_ms, b->ok + b->failed + 1, b->o->count,
            verdict ? " verified " : "", verdict ? verdict : "",
            r->error_message[0] ? " error " : "", r->error_message);
      }
      protobuf_c_message_free_unpacked(resp, NULL);
    }
    if (ok) b->ok++;
    else b->failed++;
    fflush(stdout);
    batch_progress(b);
    pthread_mutex_unlock(&b->mu);
  }
  cz_rpc_close(&c);
  return NULL;
}

/* --request FILE: the kind, registered proof, randomness, miner,
 * partition and vanilla proofs of a gen-vanilla request.json (the request
 * keeps the proofs; sub points at them). 0, or 1 after one line. */
static int post_request(const opts *o, cz_bench_post_request *r,
                        Cuzk__V1__SubmitProofRequest *sub) {
  char why[512];
  if (cz_bench_post_request_read(o->request, NULL, r, why, sizeof why) != CZ_OK)
    return fprintf(stderr, "--request: %s\n", why), 1;
  if (o->vanilla || o->randomness || o->c1)
    return fprintf(stderr, "--request carries the vanilla proofs and the randomness\n"), 1;
  sub->proof_kind = r->registered->type == CZ_POST_WINNING
                        ? CUZK__V1__PROOF_KIND__WINNING_POST
                        : CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION;
  sub->registered_proof = r->registered->id;
  sub->miner_id = r->miner_id;
  sub->partition_index = r->partition;
  if (!(sub->randomness.data = malloc(32))) return 1;
  memcpy(sub->randomness.data, r->randomness, 32);
  sub->randomness.len = 32;
  return 0;
}

/* --request FILE with -t snap: the registered proof, the three commitments
 * and the partition proofs of a gen-vanilla snap-prove request.json (the
 * proofs move into *blobs; sub gets the rest). 0, or 1 after one line. */
static int snap_request(const opts *o, cz_bench_post_request *blobs,
                        Cuzk__V1__SubmitProofRequest *sub) {
  char why[512];
  cz_bench_snap_request r;
  if (cz_bench_snap_request_read(o->request, &r, why, sizeof why) != CZ_OK)
    return fprintf(stderr, "--request: %s\n", why), 1;
  if (o->vanilla || o->comm_r_old || o->comm_r_new || o->comm_d_new || o->c1) {
    cz_bench_snap_request_free(&r);
    return fprintf(stderr, "--request carries the vanilla proofs and the commitments\n"), 1;
  }
  sub->registered_proof = r.registered->id;
  ProtobufCBinaryData *c[3] = {&sub->comm_r_old, &sub->comm_r_new, &sub->comm_d_new};
  const uint8_t *v[3] = {r.comm_r_old, r.comm_r_new, r.comm_d_new};
  for (int i = 0; i < 3; i++) {
    if (!(c[i]->data = malloc(32))) {
      cz_bench_snap_request_free(&r);
      return 1;
    }
    memcpy(c[i]->data, v[i], 32);
    c[i]->len = 32;
  }
  blobs->vanilla = r.vanilla;
  blobs->n_vanilla = r.n_vanilla;
  r.vanilla = NULL;
  r.n_vanilla = 0;
  cz_bench_snap_request_free(&r);
  return 0;
}

/* The request the options describe, and what it owns. */
typedef struct {
  Cuzk__V1__SubmitProofRequest sub;
  cz_bench_post_request preq; /* PoSt / update parts read from files */
  ProtobufCBinaryData *vps;   /* sub.vanilla_proofs */
} prove_request;

static void request_free(prove_request *r) {
  free(r->sub.vanilla_proof.data);
  free(r->vps);
  cz_bench_post_request_free(&r->preq);
  free(r->sub.randomness.data);
  free(r->sub.comm_r_old.data);
  free(r->sub.comm_r_new.data);
  free(r->sub.comm_d_new.data);
}

/* Fill r from the options for the proof kind; nonzero after a line on
 * stderr. r is freed by request_free either way. */
static int build_request(const opts *o, int kind, prove_request *r, const char *cmd) {
  Cuzk__V1__SubmitProofRequest init = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
  memset(r, 0, sizeof *r);
  r->sub = init;
  Cuzk__V1__SubmitProofRequest *sub = &r->sub;
  sub->proof_kind = (Cuzk__V1__ProofKind)kind;
  sub->priority = (Cuzk__V1__Priority)o->priority;
  sub->registered_proof = o->registered_proof;
  sub->sector_number = o->sector_num;
  sub->miner_id = o->miner_id;
  sub->partition_index = (uint32_t)o->partition;
  int err = 0;
  bool post = kind == CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION ||
              kind == CUZK__V1__PROOF_KIND__WINNING_POST;
  /* Updates carry a list of partition proofs, as PoSt does. */
  bool snap = kind == CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE;
  if (o->c1) err |= read_file(o->c1, &sub->vanilla_proof);
  if (o->request && snap) {
    err |= snap_request(o, &r->preq, sub);
  } else if (o->request) {
    err |= post_request(o, &r->preq, sub);
  } else if (o->vanilla && !post && !snap) {
    err |= read_file(o->vanilla, &sub->vanilla_proof);
  } else if (o->vanilla) {
    char why[512];
    if (cz_bench_vanilla_load(o->vanilla, &r->preq.vanilla, &r->preq.n_vanilla, why, sizeof why) !=
        CZ_OK)
      err |= fprintf(stderr, "%s: %s\n", cmd, why) > 0;
  }
  if (!err && r->preq.n_vanilla) {
    if (!(r->vps = calloc(r->preq.n_vanilla, sizeof *r->vps))) err = 1;
    for (size_t i = 0; r->vps && i < r->preq.n_vanilla; i++)
      r->vps[i] = (ProtobufCBinaryData){r->preq.vanilla[i].len, r->preq.vanilla[i].bytes};
    sub->n_vanilla_proofs = r->preq.n_vanilla;
    sub->vanilla_proofs = r->vps;
  }
  if (!o->request && !snap) err |= hex32("--randomness", o->randomness, &sub->randomness);
  err |= hex32("--comm-r-old", o->comm_r_old, &sub->comm_r_old);
  err |= hex32("--comm-r-new", o->comm_r_new, &sub->comm_r_new);
  err |= hex32("--comm-d-new", o->comm_d_new, &sub->comm_d_new);
  return err;
}

/* --verify-vk: the local verifier for a PoRep request with its C1. 0 and
 * *on (or *on false without --verify-vk), else nonzero after a line on
 * stderr. */
static int open_verifier(const opts *o, const prove_request *r, local_verifier *ver, bool *on,
                         const char *cmd) {
  *on = false;
  if (!o->verify_vk) return 0;
  if (r->sub.proof_kind != CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT || !r->sub.vanilla_proof.len) {
    fprintf(stderr, "%s: --verify-vk works for -t porep with --c1\n", cmd);
    return 1;
  }
  if (cz_client_verifier_open(ver, o->verify_vk, &r->sub.vanilla_proof) != 0) return 1;
  *on = true;
  return 0;
}

/* The proofs on o->concurrency threads (or here when none starts), with
 * a progress ticker while they run, then the summary lines. */
static void run_proofs(batch_state *b, bool batch) {
  const opts *o = b->o;
  pthread_mutex_init(&b->mu, NULL);
  clock_gettime(CLOCK_MONOTONIC, &b->t0);
  /* The ticker reprints while minute-long proofs run, so a batch is
   * never silent between answers. */
  bool quiet = !batch || o->progress_s <= 0 || cz_bench_quiet();
  cz_progress_meter_init(&b->meter, stderr, cz_progress_mode_for(stderr, quiet), o->progress_s,
                         NULL, NULL, true);
  unsigned long long n = o->concurrency > o->count ? o->count : o->concurrency;
  pthread_t *th = calloc(n, sizeof *th);
  unsigned long long started = 0;
  for (; th && started < n; started++)
    if (pthread_create(&th[started], NULL, prove_worker, b) != 0) break;
  if (!started) prove_worker(b); /* no thread: run them here */
  for (unsigned long long i = 0; i < started; i++) pthread_join(th[i], NULL);
  free(th);
  cz_progress_meter_end(&b->meter);
  double wall = since(&b->t0);
  if (batch)
    printf(
        "summary proofs %llu completed %llu failed %llu wall_s %.3f throughput_proofs_per_min "
        "%.3f\n",
        o->count, b->ok, b->failed, wall, wall > 0 ? (double)b->ok * 60.0 / wall : 0.0);
  if (b->verifier) printf("verify valid %llu invalid %llu\n", b->ok, b->verified_bad);
  pthread_mutex_destroy(&b->mu);
}

static int prove_command(int argc, char **argv, bool batch) {
  opts o;
  int rc = cz_client_parse(argc, argv, &o, batch);
  if (rc) return rc == 1 ? 0 : rc;
  if (!batch) o.count = 1, o.concurrency = 1;
  int kind = kind_of(o.type);
  if (kind < 0) return fprintf(stderr, "%s: unknown type %s\n", argv[0], o.type), 2;
  if (!o.count || !o.concurrency)
    return fprintf(stderr, "%s: count and concurrency must be > 0\n", argv[0]), 2;
  prove_request r;
  local_verifier ver;
  bool verifying = false;
  int err = build_request(&o, kind, &r, argv[0]);
  if (!err) err = open_verifier(&o, &r, &ver, &verifying, argv[0]);
  batch_state b = {.o = &o, .base = &r.sub, .verifier = verifying ? &ver : NULL};
  if (!err) run_proofs(&b, batch);
  if (verifying) cz_client_verifier_close(&ver);
  request_free(&r);
  return err ? 2 : b.failed ? 1 : 0;
}

int cmd_client_single(int argc, char **argv) { return prove_command(argc, argv, false); }
int cmd_client_batch(int argc, char **argv) { return prove_command(argc, argv, true); }
