/* cuzk-bench's daemon commands: status, metrics, preload, evict, single,
 * batch. Each takes -a/--addr ADDR (default http://127.0.0.1:9820, or
 * unix://PATH). single and batch send Prove requests and print one line per
 * proof; batch shows its progress on stderr while proofs run and ends with
 * a summary in proofs/min. With --verify-vk (PoRep) each returned proof is
 * checked here too, against the C1's public inputs: the daemon verifies
 * before it answers, this checks what came over the wire. */
#include <pthread.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "commands.h"
#include "common/args.h"
#include "common/progress_out.h"
#include "cuzk/groth16.h"
#include "cuzk/porep.h"
#include "input.h"
#include "post_request.h"
#include "snap_request.h"
#include "cuzk/sdr.h"
#include "cuzk/v1/proving.pb-c.h"
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

static int usage(const char *cmd, FILE *out) {
  fprintf(
      out,
      "usage: cuzk-bench %s [-a|--addr ADDR] ...\n"
      "  status | metrics\n"
      "  preload -c|--circuit ID      evict -c|--circuit ID\n"
      "  single -t porep|snap|wpost|winning [--c1 FILE | --vanilla FILE | --request FILE]\n"
      "         [--registered-proof N] [--sector-num 1] [--miner-id 1000] [--partition 0]\n"
      "         [--randomness HEX]\n"
      "         [--comm-r-old HEX --comm-r-new HEX --comm-d-new HEX] [--priority 0-4] [--id ID]\n"
      "         [--verify-vk FILE] [--save-proofs DIR]\n"
      "  batch  (single's options) [-c|--count 3] [-j|--concurrency 1] [--progress SECONDS]\n"
      "  --vanilla FILE: PoSt, snap: a JSON array of base64 bincode vanilla proofs (or one raw\n"
      "    bincode file); --request FILE: a gen-vanilla request.json (kind, registered proof,\n"
      "    randomness, miner, partition and its vanilla.json; with -t snap the registered\n"
      "    proof, the three commitments and the partition proofs)\n"
      "  --verify-vk FILE: check each PoRep proof against the C1 with this verifying key\n"
      "    (bellperson layout; a .params file works: its key is at its head)\n"
      "  --save-proofs DIR: write proof I to DIR/proof-I.bin\n"
      "  --progress S: batch progress on stderr: a line every S seconds when stderr is not a\n"
      "    terminal (default 5; 0 = none, as the global --quiet), else one rewritten line\n"
      "  options also as --name=VALUE; -a/--addr may stand before the "
      "command\n" CZ_BENCH_EXIT_STATUS,
      cmd);
  return 2;
}

/* A decimal number of at most max; no sign, no wrap. */
static bool parse_number(const char *v, unsigned long long max, unsigned long long *out) {
  if (!*v || strspn(v, "0123456789") != strlen(v)) return false;
  errno = 0;
  char *end;
  unsigned long long n = strtoull(v, &end, 10);
  if (errno || *end || n > max) return false;
  *out = n;
  return true;
}

/* Options as "--name VALUE", "--name=VALUE" or "-x VALUE"; an unknown one
 * is named as unknown before its value is looked for. Every number is
 * range-checked. Returns 0, 1 after --help (exit 0), or 2 after one line. */
static int parse(int argc, char **argv, opts *o, bool batch) {
  memset(o, 0, sizeof *o);
  o->sector_num = 1;
  o->miner_id = 1000;
  o->count = 3;
  o->concurrency = 1;
  o->type = "porep";
  o->progress_s = 5;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) return usage(argv[0], stdout), 1;
    char name[64];
    const char *eq = !strncmp(arg, "--", 2) ? strchr(arg, '=') : NULL;
    size_t nl = eq ? (size_t)(eq - arg) : strlen(arg);
    if (nl >= sizeof name) return fprintf(stderr, "%s: unknown option %.40s...\n", argv[0], arg), 2;
    memcpy(name, arg, nl);
    name[nl] = 0;
    const char *a = name, **str = NULL;
    unsigned long long *num = NULL, max = UINT64_MAX;
    if (!strcmp(a, "-a") || !strcmp(a, "--addr")) str = &o->addr;
    else if (!strcmp(a, "-t") || !strcmp(a, "--type")) str = &o->type;
    else if (!strcmp(a, "--c1")) str = &o->c1;
    else if (!strcmp(a, "--vanilla")) str = &o->vanilla;
    else if (!strcmp(a, "--request")) str = &o->request;
    else if (!strcmp(a, "--randomness")) str = &o->randomness;
    else if (!strcmp(a, "--comm-r-old")) str = &o->comm_r_old;
    else if (!strcmp(a, "--comm-r-new")) str = &o->comm_r_new;
    else if (!strcmp(a, "--comm-d-new")) str = &o->comm_d_new;
    else if (!strcmp(a, "--id")) str = &o->request_id;
    else if (!strcmp(a, "--verify-vk")) str = &o->verify_vk;
    else if (!strcmp(a, "--save-proofs")) str = &o->save_proofs;
    else if (!strcmp(a, "--log-level")) str = &o->log_level;
    else if (!strcmp(a, "--progress")) str = &o->progress;
    else if ((!strcmp(a, "-c") && !batch) || !strcmp(a, "--circuit")) str = &o->circuit;
    else if (!strcmp(a, "--registered-proof")) num = &o->registered_proof, o->has_registered = true;
    else if (!strcmp(a, "--sector-num")) num = &o->sector_num;
    else if (!strcmp(a, "--miner-id")) num = &o->miner_id;
    else if (!strcmp(a, "--partition")) num = &o->partition, max = UINT32_MAX;
    else if (!strcmp(a, "-c") || !strcmp(a, "--count")) num = &o->count, max = 1000000;
    else if (!strcmp(a, "-j") || !strcmp(a, "--concurrency")) num = &o->concurrency, max = 1024;
    else if (!strcmp(a, "--priority")) num = &o->priority, max = 4;
    else return fprintf(stderr, "%s: unknown option %s\n", argv[0], a), 2;
    const char *v = eq ? eq + 1 : NULL;
    if (!v) {
      if (i + 1 >= argc) return fprintf(stderr, "%s: %s needs a value\n", argv[0], a), 2;
      v = argv[++i];
    }
    if (str) {
      *str = v;
    } else if (!parse_number(v, max, num)) {
      return fprintf(stderr, "%s: %s: expected a whole number 0..%llu, got '%s'\n", argv[0], a, max,
                     v),
             2;
    }
  }
  if (o->progress) {
    char *end;
    o->progress_s = strtod(o->progress, &end);
    if (!*o->progress || *end || !(o->progress_s >= 0))
      return fprintf(stderr, "%s: --progress: not a number of seconds: %s\n", argv[0], o->progress),
             2;
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

/* One GetStatus.gpus entry: a device (it reports its memory) with its
 * health, or a CPU proving worker. */
static void print_gpu(const Cuzk__V1__GPUStatus *g) {
  const char *job = g->current_job_id[0] ? g->current_job_id : "-";
  if (!g->vram_total_bytes) {
    printf("worker %u %s job %s %s\n", g->ordinal, g->name, job, g->current_proof_kind);
    return;
  }
  printf("gpu %u %s %s%s%s job %s %s partition %u vram_free %llu / %llu proved %llu faults %llu\n",
         g->ordinal, g->name, g->healthy ? "healthy" : "UNHEALTHY", g->healthy ? "" : ": ",
         g->healthy ? "" : g->unhealthy_reason, g->busy ? job : "-", g->current_proof_kind,
         g->current_partition, (unsigned long long)g->vram_free_bytes,
         (unsigned long long)g->vram_total_bytes, (unsigned long long)g->partitions_proved,
         (unsigned long long)g->faults);
}

/* A command of one request and its answer: parses the options, opens the
 * client and calls method (30 s deadline). True with *resp and *c open;
 * false with *c closed (or never opened) and the command's exit status in
 * *rc (0 after --help). */
static bool call_once(int argc, char **argv, cz_rpc_client *c, const char *method,
                      const ProtobufCMessage *req, const ProtobufCMessageDescriptor *answer,
                      ProtobufCMessage **resp, int *rc) {
  opts o;
  *rc = parse(argc, argv, &o, false);
  if (*rc) {
    *rc = *rc == 1 ? 0 : *rc;
    return false;
  }
  if ((*rc = open_client(c, &o)) != 0) return false;
  char det[512];
  grpc_status_code code = cz_rpc_call(c, method, req, answer, resp, det, sizeof det, 30000);
  if (code == GRPC_STATUS_OK) return true;
  cz_rpc_close(c);
  *rc = report_error(method, code, det);
  return false;
}

int cmd_client_status(int argc, char **argv) {
  cz_rpc_client c;
  Cuzk__V1__GetStatusRequest req = CUZK__V1__GET_STATUS_REQUEST__INIT;
  ProtobufCMessage *resp;
  int rc;
  if (!call_once(argc, argv, &c, "GetStatus", &req.base, &cuzk__v1__get_status_response__descriptor,
                 &resp, &rc))
    return rc;
  const Cuzk__V1__GetStatusResponse *s = (const Cuzk__V1__GetStatusResponse *)resp;
  static const char *const tiers[] = {"hot", "warm", "cold"};
  printf(
      "uptime_seconds %llu\nproofs_completed %llu\nproofs_failed %llu\nmemory_bytes %llu / %llu\n",
      (unsigned long long)s->uptime_seconds, (unsigned long long)s->total_proofs_completed,
      (unsigned long long)s->total_proofs_failed, (unsigned long long)s->pinned_memory_bytes,
      (unsigned long long)s->pinned_memory_limit_bytes);
  for (size_t i = 0; i < s->n_queues; i++)
    printf("queue %s pending %u in_progress %u\n", s->queues[i]->proof_kind, s->queues[i]->pending,
           s->queues[i]->in_progress);
  for (size_t i = 0; i < s->n_gpus; i++) print_gpu(s->gpus[i]);
  for (size_t i = 0; i < s->n_loaded_srs; i++)
    printf("srs %s %s %llu bytes refs %u\n", s->loaded_srs[i]->circuit_id,
           (unsigned)s->loaded_srs[i]->tier < 3 ? tiers[s->loaded_srs[i]->tier] : "?",
           (unsigned long long)s->loaded_srs[i]->size_bytes, s->loaded_srs[i]->ref_count);
  protobuf_c_message_free_unpacked(resp, NULL);
  cz_rpc_close(&c);
  return 0;
}

int cmd_client_metrics(int argc, char **argv) {
  cz_rpc_client c;
  Cuzk__V1__GetMetricsRequest req = CUZK__V1__GET_METRICS_REQUEST__INIT;
  ProtobufCMessage *resp;
  int rc;
  if (!call_once(argc, argv, &c, "GetMetrics", &req.base,
                 &cuzk__v1__get_metrics_response__descriptor, &resp, &rc))
    return rc;
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
    code = cz_rpc_call(&c, "PreloadSRS", &req.base, &cuzk__v1__preload_srsresponse__descriptor,
                       &resp, det, sizeof det, 0);
    if (code == GRPC_STATUS_OK) {
      const Cuzk__V1__PreloadSRSResponse *r = (const Cuzk__V1__PreloadSRSResponse *)resp;
      printf("%s already_loaded %s load_time_ms %llu\n", o.circuit,
             r->already_loaded ? "true" : "false", (unsigned long long)r->load_time_ms);
    }
  } else {
    Cuzk__V1__EvictSRSRequest req = CUZK__V1__EVICT_SRSREQUEST__INIT;
    req.circuit_id = (char *)o.circuit;
    code = cz_rpc_call(&c, "EvictSRS", &req.base, &cuzk__v1__evict_srsresponse__descriptor, &resp,
                       det, sizeof det, 30000);
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

/* --verify-vk: the key and the C1 the proofs must verify against. */
typedef struct {
  cz_groth16_vk vk;
  cz_porep_c1 c1;
  size_t n_inputs;
} local_verifier;

/* The verifying key at the head of path (a key file, or a whole .params
 * file: only its head is read). */
static int verifier_open(local_verifier *v, const char *vk_path, const ProtobufCBinaryData *c1) {
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

static void verifier_close(local_verifier *v) {
  cz_groth16_vk_free(&v->vk);
  cz_porep_c1_free(&v->c1);
}

/* "valid", or why not. */
static const char *verifier_check(const local_verifier *v, const uint8_t *proof, size_t len) {
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
  if (open_client(&c, b->o)) return NULL;
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
      printf("proof %llu error %s: %s done %llu/%llu\n", i, cz_rpc_code_name(code), det,
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
          verdict = verifier_check(b->verifier, r->proof.data, r->proof.len);
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

/* --request FILE: the PoSt type, registered proof, randomness, miner,
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
  if (verifier_open(ver, o->verify_vk, &r->sub.vanilla_proof) != 0) return 1;
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
  int rc = parse(argc, argv, &o, batch);
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
  if (verifying) verifier_close(&ver);
  request_free(&r);
  return err ? 2 : b.failed ? 1 : 0;
}

int cmd_client_single(int argc, char **argv) { return prove_command(argc, argv, false); }
int cmd_client_batch(int argc, char **argv) { return prove_command(argc, argv, true); }
