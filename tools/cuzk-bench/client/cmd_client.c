/* cuzk-bench's daemon commands: status, metrics, preload, evict, single,
 * batch. Each takes -a/--addr ADDR (default http://127.0.0.1:9820, or
 * unix://PATH). single and batch send Prove requests and print one line per
 * proof; batch shows its progress on stderr while proofs run and ends with
 * a summary in proofs/min. With --verify-vk (PoRep) each returned proof is
 * checked here too, against the C1's public inputs: the daemon verifies
 * before it answers, this checks what came over the wire.
 *
 * This file holds the options and the commands of one request; single and
 * batch are in cmd_client_prove.c, the --verify-vk check in
 * client_verify.c. */
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "client_internal.h"
#include "commands.h"
#include "common/args.h"
#include "cuzk/v1/proving.pb-c.h"
#include "rpc_client.h"

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
int cz_client_parse(int argc, char **argv, opts *o, bool batch) {
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

int cz_client_open(cz_rpc_client *c, const opts *o) {
  if (cz_rpc_open(c, o->addr) != 0) {
    fprintf(stderr, "cannot open a channel to %s\n", o->addr ? o->addr : "http://127.0.0.1:9820");
    return 1;
  }
  return 0;
}

static int report_error(const char *what, grpc_status_code code, const char *details) {
  fprintf(stderr, "%s: %s: %s\n", what, cz_grpc_code_name(code), details);
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
  *rc = cz_client_parse(argc, argv, &o, false);
  if (*rc) {
    *rc = *rc == 1 ? 0 : *rc;
    return false;
  }
  if ((*rc = cz_client_open(c, &o)) != 0) return false;
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
  int rc = cz_client_parse(argc, argv, &o, false);
  if (rc) return rc == 1 ? 0 : rc;
  if (!o.circuit) return fprintf(stderr, "%s: -c/--circuit ID is required\n", argv[0]), 2;
  cz_rpc_client c;
  if (cz_client_open(&c, &o)) return 1;
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
