/* Layer: server */
/* cuzk-daemon's front end: the TOML config, Prometheus text, the status
 * JSON and its HTTP server (all in libcuzk), and the cuzk.v1 gRPC server
 * (built only with libgrpc and protobuf-c, in the cuzk-daemon target).
 * Sources: src/server/ (config.c, config_keys.c, config_syntax.c, metrics.c, http_status.c, grpc/).
 * The wire and config contract is docs/interface.md. The config and
 * text functions keep no state (any thread); a server must not outlive
 * the engine it serves. */
#ifndef CUZK_SERVER_H
#define CUZK_SERVER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/circom_keys.h"
#include "cuzk/engine.h"
#include "cuzk/err.h"
#include "cuzk/histogram.h"
#include "cuzk/groth16_prove.h"

/* ---- Config (config.c, config_keys.c, config_syntax.c) -------------------- */

#define CZ_MAX_GPU_DEVICES 16
#define CZ_MAX_CIRCOM_KEYS 32

/* One [[circom.keys]] table: a snarkjs key loaded at start. */
typedef struct {
  char name[64];       /* name (required) */
  char path[1024];     /* path of the .zkey (required) */
  bool check_subgroup; /* check_subgroup (false) */
} cz_circom_key_config;

typedef struct {
  char listen[256];        /* daemon.listen: unix:///path or host:port */
  char status_listen[256]; /* daemon.status_listen: "" = no HTTP server */
  /* cuzk extensions, applied to a unix socket once it is bound: */
  uint32_t socket_mode;   /* daemon.socket_mode ("0660"), an octal string <= 0777 */
  char socket_group[64];  /* daemon.socket_group (""): a group name, "" = unchanged */
  char param_cache[1024]; /* srs.param_cache */
  /* cuzk extensions, off by default: without an official file, prove with
   * TEST parameters (made on first use) cached in test_param_cache ("" =
   * $XDG_CACHE_HOME/cuzk). Their proofs verify here, never on chain. */
  bool allow_test_params;              /* srs.allow_test_params (false) */
  char test_param_cache[1024];         /* srs.test_param_cache ("") */
  uint64_t total_budget;               /* memory.total_budget bytes, 0 = "auto" */
  uint64_t safety_margin;              /* memory.safety_margin (5 GiB) */
  uint64_t eviction_min_idle_ms;       /* memory.eviction_min_idle (5 min) */
  int gpu_devices[CZ_MAX_GPU_DEVICES]; /* gpus.devices ([] = every one) */
  size_t n_gpu_devices;
  uint32_t gpu_threads;               /* gpus.gpu_threads (0) */
  uint32_t gpu_workers_per_device;    /* gpus.gpu_workers_per_device (2) */
  uint32_t gpu_unhealthy_after;       /* gpus.unhealthy_after (3): faults in a row */
  uint64_t gpu_self_test_interval_ms; /* gpus.self_test_interval (60 s) */
  /* TEST ONLY: gpus.test_emulated_devices (0): that many emulated devices
   * (the CPU runs their kernels, slowly) instead of the CUDA ones. */
  uint32_t test_emulated_devices;
  /* TEST ONLY: gpus.test_emulated_faults (""): faults they inject,
   * "D:fault ..." (cuzk/provers.h cz_provers_devices; checked at start). */
  char test_emulated_faults[256];
  uint32_t max_batch_size;         /* scheduler.max_batch_size (1) */
  uint64_t max_batch_wait_ms;      /* scheduler.max_batch_wait_ms (10000) */
  uint32_t synthesis_threads;      /* synthesis.threads (0 = all) */
  bool pipeline_enabled;           /* pipeline.enabled (true) */
  uint32_t synthesis_concurrency;  /* pipeline.synthesis_concurrency (1) */
  uint32_t max_parallel_synthesis; /* pipeline.max_parallel_synthesis (18) */
  uint32_t max_gpu_queue_depth;    /* pipeline.max_gpu_queue_depth (0) */
  char log_level[16];              /* logging.level (info) */
  char log_format[8];              /* logging.format (text): text or json, one object a line */
  char warning[256];               /* the first unknown key, if any ("" when none) */
  /* cuzk extensions: */
  bool pce;        /* synthesis.pce (true): pre-compiled synthesis */
  char backend[8]; /* gpus.backend (auto): cpu, cuda or auto */
  cz_circom_key_config circom_keys[CZ_MAX_CIRCOM_KEYS]; /* [[circom.keys]], in order */
  size_t n_circom_keys;
} cz_daemon_config;

/* docs/interface.md's defaults. listen: unix:///run/curio/cuzk.sock; param_cache:
 * $FIL_PROOFS_PARAMETER_CACHE when set, else /data/zk/params. */
void cz_daemon_config_default(cz_daemon_config *cfg);

/* Parse TOML text (the subset configs use: [table] / [a.b] headers, key =
 * string / integer / boolean / array of those, # comments) over cfg.
 * Unknown keys are skipped (cfg->warning names the first). CZ_ERR_PARSE with
 * msg "line N: why" for bad syntax or a bad value of a known key; cfg then
 * holds the keys before that line. */
CZ_MUST_CHECK cz_err cz_daemon_config_parse(cz_daemon_config *cfg, const char *text, size_t len,
                                            char *msg, size_t msg_len);
/* Read path and parse it (CZ_ERR_IO when unreadable, over 16 MiB or out of
 * memory). */
CZ_MUST_CHECK cz_err cz_daemon_config_load(cz_daemon_config *cfg, const char *path, char *msg,
                                           size_t msg_len);

/* A listen address, split (cz_listen_parse). */
typedef struct {
  bool is_unix;
  char path[256]; /* unix:///path: the path ("" for tcp) */
  char host[256]; /* host:port or [v6]:port: the host, without brackets */
  int port;       /* 0..65535; 0 = an ephemeral port */
  bool loopback;  /* tcp: 127.0.0.0/8, ::1 (also v4-mapped) or "localhost" */
} cz_listen_addr;

/* Split listen (unix:///path, host:port or [IPv6]:port; an http:// prefix
 * is dropped). The port is 1 to 5 digits, at most 65535 (never wrapped);
 * a bare IPv6 address without brackets, an empty host, a bracketed host
 * that is not an IPv6 literal and an empty unix path are refused. Names
 * are not resolved. CZ_ERR_PARSE with a one-line msg naming the address;
 * *out is zeroed on error. Any thread. */
CZ_MUST_CHECK cz_err cz_listen_parse(const char *listen, cz_listen_addr *out, char *msg,
                                     size_t msg_len);

/* "5GiB", "512 MiB", "2GB", "100MB", "4096", "4096 bytes", "1KiB", "1kB" ->
 * bytes (binary units are powers of 1024, decimal ones of 1000; units are
 * case-insensitive, and a bare "k", "m", "g", "t" is binary). A fraction
 * ("1.5GiB") is allowed. CZ_ERR_PARSE on anything else or overflow;
 * *bytes is set only on success. */
CZ_MUST_CHECK cz_err cz_parse_size(const char *s, uint64_t *bytes);
/* "5m", "30s", "30 seconds", "2 minutes", "500ms", "1h" -> milliseconds.
 * A bare number is seconds; units are case-sensitive ("5M" is refused).
 * CZ_ERR_PARSE otherwise or on overflow; *ms is set only on success. */
CZ_MUST_CHECK cz_err cz_parse_duration_ms(const char *s, uint64_t *ms);

/* The engine configuration the daemon config implies (workers =
 * devices x gpu_workers_per_device, with one device when none is listed
 * (test_emulated_devices when set); the device health settings;
 * the [pipeline] settings and synthesis.threads). */
void cz_daemon_engine_config(const cz_daemon_config *cfg, cz_engine_config *out);

/* ---- The Prometheus text writer (prom_text.c) --------------------------------
 * Text exposition format 0.0.4 into a growing buffer. Names and label names
 * are the caller's (written as given: [a-zA-Z_:][a-zA-Z0-9_:]*); label
 * values are escaped (\\, \", newline), as is HELP text (\\, newline).
 * Labels are a NULL-terminated list of name, value pairs (NULL: none). An
 * allocation failure is sticky: every later call does nothing and
 * cz_prom_finish returns NULL. One thread per cz_prom. */

typedef struct {
  char *buf;
  size_t len, cap;
  bool oom;
} cz_prom;

void cz_prom_init(cz_prom *p);
/* "# HELP name help" and "# TYPE name type" (counter, gauge, histogram,
 * summary, untyped). */
void cz_prom_family(cz_prom *p, const char *name, const char *type, const char *help);
/* "name{labels} v": an integral v below 2^53 as digits, else the shortest %g that reads back, NaN
 * and +Inf / -Inf as the format spells them. */
void cz_prom_sample(cz_prom *p, const char *name, const char *const *labels, double v);
/* name_bucket{labels,le="b"} for each bound (cumulative), le="+Inf" (the
 * count), name_sum and name_count. */
void cz_prom_histogram(cz_prom *p, const char *name, const char *const *labels,
                       const cz_histogram_snap *h);
/* The text (malloc'd, NUL-terminated, the caller's; NULL after an
 * allocation failure). p holds nothing afterwards. */
char *cz_prom_finish(cz_prom *p);

/* ---- Metrics and status (metrics.c) ------------------------------------------ */

/* Prometheus text exposition of s (malloc'd, NUL-terminated, the caller
 * frees it; NULL on OOM); GetMetrics and GET /metrics answer it.
 * Upstream's names (docs/interface.md): cuzk_proofs_completed_total, cuzk_proofs_failed_total,
 * cuzk_uptime_seconds, cuzk_queue_depth, cuzk_proofs_completed{proof_kind},
 * cuzk_proofs_failed{proof_kind}, cuzk_proof_duration_seconds (summary per
 * kind), cuzk_running_jobs, cuzk_gpu_workers; then cuzk's:
 * cuzk_memory_used_bytes, cuzk_memory_budget_bytes,
 * cuzk_proof_latency_seconds{proof_kind} (histogram, 0.1 s .. 1 h),
 * cuzk_prove_phase_seconds{phase} (histogram, 1 ms .. 10 min, from
 * cz_provers_phase_snapshot), cuzk_queue_pending{proof_kind},
 * cuzk_jobs_running{proof_kind}, cuzk_srs_tier_bytes{tier},
 * cuzk_srs_tier_entries{tier}, cuzk_srs_bytes{circuit_id,tier},
 * cuzk_ready (1 while accepting work). */
char *cz_metrics_text(const cz_engine_stats *s);
/* The same with the given phase histograms (tests). */
char *cz_metrics_text_with(const cz_engine_stats *s,
                           const cz_histogram_snap phases[CZ_PHASE_COUNT]);
/* GET /readyz: {"ready":accepting,"hot_circuits":[ids of HOT SRS]}
 * (malloc'd; NULL on OOM). */
char *cz_ready_json(const cz_engine_stats *s);
/* JSON of jobs (per kind), workers, memory and SRS (malloc'd; NULL on OOM). */
char *cz_status_json(const cz_engine_stats *s);
/* cz_status_json plus "jobs.list": the given jobs (cz_engine_list_jobs)
 * with their partitions (index, state, synth_start_ms, synth_ms,
 * prove_start_ms, prove_ms), and "backend": {name, note}. */
char *cz_status_json_full(const cz_engine_stats *s, const cz_job_info *jobs, size_t n_jobs,
                          const char *backend, const char *backend_note);

/* ---- HTTP status server (http_status.c) ----------------------------------------- */

typedef struct cz_http_status cz_http_status;
/* Serve on host:port from a thread, one connection at a time:
 *   GET /status   cz_status_json_full (application/json)
 *   GET /metrics  cz_metrics_text (text/plain; version=0.0.4)
 *   GET /healthz  200 "ok" while the process serves
 *   GET /readyz   cz_ready_json: 200 while the engine accepts work, 503
 *                 once it is draining or shutting down
 * and 404 otherwise (a query string is ignored). CZ_ERR_IO when host_port is not host:port or
 * cannot be bound (msg says why), CZ_ERR_NOMEM; *out is NULL on error. */
CZ_MUST_CHECK cz_err cz_http_status_start(cz_http_status **out, cz_engine *e, const char *host_port,
                                          char *msg, size_t msg_len);
/* The bound port (useful with port 0); 0 for NULL. */
int cz_http_status_port(const cz_http_status *h);
/* Stop the thread (within 200 ms), close the socket, free h. NULL allowed. */
void cz_http_status_stop(cz_http_status *h);

/* ---- The gRPC server (src/server/grpc/, cuzk-daemon only) -------------------- */

typedef struct cz_server cz_server;
/* Bind listen (cz_listen_parse; unix:///path: the parent directory is
 * created, a stale socket removed, and the new one given socket_mode and,
 * when socket_gid >= 0, that group; host:port without SO_REUSEPORT, so a
 * port another process holds is refused, not shared), register the cuzk.v1.ProvingEngine methods
 * and, beside them, cuzk.circom.v1.CircomProver's (proofs with circom's
 * keys; circom NULL: those answer UNIMPLEMENTED)
 * with 256 MiB message limits and start serving e from a completion-queue
 * thread. CZ_ERR_PARSE for a malformed address, CZ_ERR_IO when it cannot
 * be bound or the socket's mode or group cannot be set (msg says why, in
 * one line: "... address already in use" for a held port), CZ_ERR_NOMEM. */
CZ_MUST_CHECK cz_err cz_server_start(cz_server **out, cz_engine *e, cz_circom_keys *circom,
                                     const char *listen, unsigned socket_mode, long socket_gid,
                                     char *msg, size_t msg_len);
/* The bound TCP port (the one chosen for host:0); 0 for a unix socket. */
int cz_server_port(const cz_server *s);
/* Stop: no new calls; calls in flight are answered (awaiters see the engine
 * shut down first, see cz_engine_shutdown), then everything is freed (a
 * unix socket file is removed). NULL allowed. */
void cz_server_stop(cz_server *s);

#endif
