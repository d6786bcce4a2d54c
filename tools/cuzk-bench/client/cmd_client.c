/* cuzk-bench's daemon commands: status, metrics, preload, evict, single,
 * batch. Each takes -a/--addr ADDR (default http://127.0.0.1:9820, or
 * unix://PATH). single and batch send Prove requests and print one line per
 * proof; batch ends with a summary in proofs/min. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "commands.h"
#include "cuzk/v1/proving.pb-c.h"
#include "rpc_client.h"

typedef struct {
  const char *addr, *type, *c1, *vanilla, *randomness, *comm_r_old, *comm_r_new, *comm_d_new;
  const char *circuit, *request_id;
  unsigned long long registered_proof, sector_num, miner_id, partition, count, concurrency;
  int priority;
  bool has_registered;
} opts;

static int usage(const char *cmd) {
  fprintf(stderr,
          "usage: cuzk-bench %s [-a|--addr ADDR] ...\n"
          "  status | metrics\n"
          "  preload -c|--circuit ID      evict -c|--circuit ID\n"
          "  single -t porep|snap|wpost|winning [--c1 FILE | --vanilla FILE] [--registered-proof N]\n"
          "         [--sector-num 1] [--miner-id 1000] [--partition 0] [--randomness HEX]\n"
          "         [--comm-r-old HEX --comm-r-new HEX --comm-d-new HEX] [--priority 0-4] [--id ID]\n"
          "  batch  (single's options) [-c|--count 3] [-j|--concurrency 1]\n",
          cmd);
  return 2;
}

static int parse(int argc, char **argv, opts *o, bool batch) {
  memset(o, 0, sizeof *o);
  o->sector_num = 1;
  o->miner_id = 1000;
  o->count = 3;
  o->concurrency = 1;
  o->type = "porep";
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) return usage(argv[0]), 1;
    if (i + 1 >= argc) return fprintf(stderr, "%s: %s needs a value\n", argv[0], a), 2;
    const char *v = argv[++i];
    unsigned long long *num = NULL;
    if (!strcmp(a, "-a") || !strcmp(a, "--addr")) o->addr = v;
    else if (!strcmp(a, "-t") || !strcmp(a, "--type")) o->type = v;
    else if (!strcmp(a, "--c1")) o->c1 = v;
    else if (!strcmp(a, "--vanilla")) o->vanilla = v;
    else if (!strcmp(a, "--randomness")) o->randomness = v;
    else if (!strcmp(a, "--comm-r-old")) o->comm_r_old = v;
    else if (!strcmp(a, "--comm-r-new")) o->comm_r_new = v;
    else if (!strcmp(a, "--comm-d-new")) o->comm_d_new = v;
    else if (!strcmp(a, "--id")) o->request_id = v;
    else if ((!strcmp(a, "-c") && !batch) || !strcmp(a, "--circuit")) o->circuit = v;
    else if (!strcmp(a, "--registered-proof")) num = &o->registered_proof, o->has_registered = true;
    else if (!strcmp(a, "--sector-num")) num = &o->sector_num;
    else if (!strcmp(a, "--miner-id")) num = &o->miner_id;
    else if (!strcmp(a, "--partition")) num = &o->partition;
    else if (!strcmp(a, "-c") || !strcmp(a, "--count")) num = &o->count;
    else if (!strcmp(a, "-j") || !strcmp(a, "--concurrency")) num = &o->concurrency;
    else if (!strcmp(a, "--priority")) {
      o->priority = atoi(v);
    } else return fprintf(stderr, "%s: unknown option %s\n", argv[0], a), 2;
    if (num) {
      char *end;
      *num = strtoull(v, &end, 10);
      if (!*v || *end) return fprintf(stderr, "%s: %s: not a number: %s\n", argv[0], a, v), 2;
    }
  }
  return 0;
}

static int open_client(cz_rpc_client *c, const opts *o) {
  if (cz_rpc_open(c, o->addr) != 0) {
    fprintf(stderr, "cannot open a channel to %s\n", o->addr ? o->addr : "http://127.0.0.1:9820");
    return 1;
  }
  return 0;
}

static int report_error(const char *what, grpc_status_code code, const char *details) {
  fprintf(stderr, "%s: %s: %s\n", what, cz_rpc_code_name(code), details);
  return 1;
}

int cmd_client_status(int argc, char **argv) {
  opts o;
  int rc = parse(argc, argv, &o, false);
  if (rc) return rc == 1 ? 0 : rc;
  cz_rpc_client c;
  if (open_client(&c, &o)) return 1;
  Cuzk__V1__GetStatusRequest req = CUZK__V1__GET_STATUS_REQUEST__INIT;
  ProtobufCMessage *resp;
  char det[512];
  grpc_status_code code = cz_rpc_call(&c, "GetStatus", &req.base, &cuzk__v1__get_status_response__descriptor, &resp, det, sizeof det, 30000);
  if (code != GRPC_STATUS_OK) return cz_rpc_close(&c), report_error("GetStatus", code, det);
  const Cuzk__V1__GetStatusResponse *s = (const Cuzk__V1__GetStatusResponse *)resp;
  static const char *const tiers[] = {"hot", "warm", "cold"};
  printf("uptime_seconds %llu\nproofs_completed %llu\nproofs_failed %llu\nmemory_bytes %llu / %llu\n",
         (unsigned long long)s->uptime_seconds, (unsigned long long)s->total_proofs_completed,
         (unsigned long long)s->total_proofs_failed, (unsigned long long)s->pinned_memory_bytes,
         (unsigned long long)s->pinned_memory_limit_bytes);
  for (size_t i = 0; i < s->n_queues; i++)
    printf("queue %s pending %u in_progress %u\n", s->queues[i]->proof_kind, s->queues[i]->pending,
           s->queues[i]->in_progress);
  for (size_t i = 0; i < s->n_gpus; i++)
    printf("worker %u %s job %s %s\n", s->gpus[i]->ordinal, s->gpus[i]->name,
           s->gpus[i]->current_job_id[0] ? s->gpus[i]->current_job_id : "-",
           s->gpus[i]->current_proof_kind);
  for (size_t i = 0; i < s->n_loaded_srs; i++)
    printf("srs %s %s %llu bytes refs %u\n", s->loaded_srs[i]->circuit_id,
           (unsigned)s->loaded_srs[i]->tier < 3 ? tiers[s->loaded_srs[i]->tier] : "?",
           (unsigned long long)s->loaded_srs[i]->size_bytes, s->loaded_srs[i]->ref_count);
  protobuf_c_message_free_unpacked(resp, NULL);
  cz_rpc_close(&c);
  return 0;
}

int cmd_client_metrics(int argc, char **argv) {
  opts o;
  int rc = parse(argc, argv, &o, false);
  if (rc) return rc == 1 ? 0 : rc;
  cz_rpc_client c;
  if (open_client(&c, &o)) return 1;
  Cuzk__V1__GetMetricsRequest req = CUZK__V1__GET_METRICS_REQUEST__INIT;
  ProtobufCMessage *resp;
  char det[512];
  grpc_status_code code = cz_rpc_call(&c, "GetMetrics", &req.base, &cuzk__v1__get_metrics_response__descriptor, &resp, det, sizeof det, 30000);
  if (code != GRPC_STATUS_OK) return cz_rpc_close(&c), report_error("GetMetrics", code, det);
  fputs(((Cuzk__V1__GetMetricsResponse *)resp)->prometheus_text, stdout);
  protobuf_c_message_free_unpacked(resp, NULL);
  cz_rpc_close(&c);
  return 0;
}

static int srs_command(int argc, char **argv, bool preload) {
  opts o;
  int rc = parse(argc, argv, &o, false);
  if (rc) return rc == 1 ? 0 : rc;
  if (!o.circuit) return fprintf(stderr, "%s: -c/--circuit ID is required\n", argv[0]), 2;
  cz_rpc_client c;
  if (open_client(&c, &o)) return 1;
  ProtobufCMessage *resp;
  char det[512];
  grpc_status_code code;
  if (preload) {
    Cuzk__V1__PreloadSRSRequest req = CUZK__V1__PRELOAD_SRSREQUEST__INIT;
    req.circuit_id = (char *)o.circuit;
    code = cz_rpc_call(&c, "PreloadSRS", &req.base, &cuzk__v1__preload_srsresponse__descriptor, &resp, det, sizeof det, 0);
    if (code == GRPC_STATUS_OK) {
      const Cuzk__V1__PreloadSRSResponse *r = (const Cuzk__V1__PreloadSRSResponse *)resp;
      printf("%s already_loaded %s load_time_ms %llu\n", o.circuit, r->already_loaded ? "true" : "false",
             (unsigned long long)r->load_time_ms);
    }
  } else {
    Cuzk__V1__EvictSRSRequest req = CUZK__V1__EVICT_SRSREQUEST__INIT;
    req.circuit_id = (char *)o.circuit;
    code = cz_rpc_call(&c, "EvictSRS", &req.base, &cuzk__v1__evict_srsresponse__descriptor, &resp, det, sizeof det, 30000);
    if (code == GRPC_STATUS_OK) {
      const Cuzk__V1__EvictSRSResponse *r = (const Cuzk__V1__EvictSRSResponse *)resp;
      printf("%s was_loaded %s freed_bytes %llu\n", o.circuit, r->was_loaded ? "true" : "false",
             (unsigned long long)r->freed_bytes);
    }
  }
  if (code != GRPC_STATUS_OK) return cz_rpc_close(&c), report_error(argv[0], code, det);
  protobuf_c_message_free_unpacked(resp, NULL);
  cz_rpc_close(&c);
  return 0;
}

int cmd_client_preload(int argc, char **argv) { return srs_command(argc, argv, true); }
int cmd_client_evict(int argc, char **argv) { return srs_command(argc, argv, false); }

/* ---- single / batch ---------------------------------------------------------- */

static int read_file(const char *path, ProtobufCBinaryData *out) {
  FILE *f = fopen(path, "rb");
  if (!f) return perror(path), -1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  out->data = malloc(n > 0 ? (size_t)n : 1);
  out->len = n > 0 && fread(out->data, 1, (size_t)n, f) == (size_t)n ? (size_t)n : 0;
  fclose(f);
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
  if (!strcmp(t, "porep") || !strcmp(t, "porep-c2") || !strcmp(t, "c2")) return CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
  if (!strcmp(t, "snap") || !strcmp(t, "snap-deals") || !strcmp(t, "update")) return CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE;
  if (!strcmp(t, "wpost") || !strcmp(t, "window-post") || !strcmp(t, "window")) return CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION;
  if (!strcmp(t, "winning") || !strcmp(t, "winning-post")) return CUZK__V1__PROOF_KIND__WINNING_POST;
  return -1;
}

typedef struct {
  const opts *o;
  Cuzk__V1__SubmitProofRequest *base;
  pthread_mutex_t mu;
  unsigned long long next, ok, failed;
  struct timespec t0;
} batch_state;

static double since(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void *prove_worker(void *arg) {
  batch_state *b = arg;
  cz_rpc_client c;
  if (open_client(&c, b->o)) return NULL;
  for (;;) {
    pthread_mutex_lock(&b->mu);
    unsigned long long i = b->next < b->o->count ? b->next++ : b->o->count;
    pthread_mutex_unlock(&b->mu);
    if (i >= b->o->count) break;
    Cuzk__V1__SubmitProofRequest sub = *b->base;
    char id[160];
    if (b->o->request_id) snprintf(id, sizeof id, "%s%s%llu", b->o->request_id, b->o->count > 1 ? "-" : "", i);
    else id[0] = 0;
    if (b->o->request_id && b->o->count == 1) snprintf(id, sizeof id, "%s", b->o->request_id);
    sub.request_id = id;
    Cuzk__V1__ProveRequest req = CUZK__V1__PROVE_REQUEST__INIT;
    req.submit = &sub;
    ProtobufCMessage *resp;
    char det[512];
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    grpc_status_code code = cz_rpc_call(&c, "Prove", &req.base, &cuzk__v1__prove_response__descriptor, &resp, det, sizeof det, 0);
    double wall = since(&t);
    bool ok = false;
    pthread_mutex_lock(&b->mu);
    if (code != GRPC_STATUS_OK) {
      printf("proof %llu error %s: %s\n", i, cz_rpc_code_name(code), det);
    } else {
      const Cuzk__V1__AwaitProofResponse *r = ((Cuzk__V1__ProveResponse *)resp)->result;
      static const char *const st[] = {"UNKNOWN", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT"};
      if (!r) {
        printf("proof %llu error: empty result\n", i);
      } else {
        ok = r->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
        printf("proof %llu job %s status %s bytes %zu wall_s %.3f queue_ms %llu srs_ms %llu synth_ms %llu "
               "gpu_ms %llu total_ms %llu%s%s\n",
               i, r->job_id, (unsigned)r->status < 5 ? st[r->status] : "?", r->proof.len, wall,
               (unsigned long long)r->queue_wait_ms, (unsigned long long)r->srs_load_ms,
               (unsigned long long)r->synthesis_ms, (unsigned long long)r->gpu_compute_ms,
               (unsigned long long)r->total_ms, r->error_message[0] ? " error " : "", r->error_message);
      }
      protobuf_c_message_free_unpacked(resp, NULL);
    }
    if (ok) b->ok++;
    else b->failed++;
    fflush(stdout);
    pthread_mutex_unlock(&b->mu);
  }
  cz_rpc_close(&c);
  return NULL;
}

static int prove_command(int argc, char **argv, bool batch) {
  opts o;
  int rc = parse(argc, argv, &o, batch);
  if (rc) return rc == 1 ? 0 : rc;
  if (!batch) o.count = 1, o.concurrency = 1;
  int kind = kind_of(o.type);
  if (kind < 0) return fprintf(stderr, "%s: unknown type %s\n", argv[0], o.type), 2;
  if (!o.count || !o.concurrency) return fprintf(stderr, "%s: count and concurrency must be > 0\n", argv[0]), 2;
  Cuzk__V1__SubmitProofRequest sub = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
  ProtobufCBinaryData vp = {0, NULL};
  sub.proof_kind = (Cuzk__V1__ProofKind)kind;
  sub.priority = (Cuzk__V1__Priority)o.priority;
  sub.registered_proof = o.registered_proof;
  sub.sector_number = o.sector_num;
  sub.miner_id = o.miner_id;
  sub.partition_index = (uint32_t)o.partition;
  int err = 0;
  if (o.c1) err |= read_file(o.c1, &sub.vanilla_proof);
  if (o.vanilla && kind == CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT) err |= read_file(o.vanilla, &sub.vanilla_proof);
  else if (o.vanilla) {
    err |= read_file(o.vanilla, &vp);
    sub.n_vanilla_proofs = 1;
    sub.vanilla_proofs = &vp;
  }
  err |= hex32("--randomness", o.randomness, &sub.randomness);
  err |= hex32("--comm-r-old", o.comm_r_old, &sub.comm_r_old);
  err |= hex32("--comm-r-new", o.comm_r_new, &sub.comm_r_new);
  err |= hex32("--comm-d-new", o.comm_d_new, &sub.comm_d_new);
  batch_state b = {.o = &o, .base = &sub};
  if (!err) {
    pthread_mutex_init(&b.mu, NULL);
    clock_gettime(CLOCK_MONOTONIC, &b.t0);
    unsigned long long n = o.concurrency;
    pthread_t *th = calloc(n, sizeof *th);
    for (unsigned long long i = 0; i < n; i++) pthread_create(&th[i], NULL, prove_worker, &b);
    for (unsigned long long i = 0; i < n; i++) pthread_join(th[i], NULL);
    free(th);
    double wall = since(&b.t0);
    if (batch)
      printf("summary proofs %llu completed %llu failed %llu wall_s %.3f throughput_proofs_per_min %.3f\n",
             o.count, b.ok, b.failed, wall, wall > 0 ? (double)b.ok * 60.0 / wall : 0.0);
  }
  free(sub.vanilla_proof.data);
  free(vp.data);
  free(sub.randomness.data);
  free(sub.comm_r_old.data);
  free(sub.comm_r_new.data);
  free(sub.comm_d_new.data);
  return err ? 2 : b.failed ? 1 : 0;
}

int cmd_client_single(int argc, char **argv) { return prove_command(argc, argv, false); }
int cmd_client_batch(int argc, char **argv) { return prove_command(argc, argv, true); }
