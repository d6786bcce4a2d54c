/* cuzk-daemon: the cuzk.v1 proving service.
 *   cuzk-daemon [-c|--config FILE] [-l|--listen ADDR] [--log-level L]
 *               [--status-listen HOST:PORT] [--test-params] [--backend B]
 *               [--no-pce]
 * The first SIGINT/SIGTERM drains (queued jobs are cancelled, running ones
 * finish); a second one cancels the running jobs at their next phase.
 * SIGHUP re-reads logging.level from the config file (never stops the
 * daemon); SIGPIPE is ignored, and so is SIGXFSZ (a file size limit then
 * fails a cache write with EFBIG, which is logged, instead of killing the
 * daemon). */
#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cuzk/engine.h"
#include "cuzk/log.h"
#include "cuzk/server.h"
#include "provers.h"

/* Read when it exists and no -c is given, as upstream's cuzk-daemon does. */
#define DEFAULT_CONFIG "/data/zk/cuzk.toml"

static void usage(FILE *f) {
  fprintf(f,
          "usage: cuzk-daemon [-c|--config FILE] [-l|--listen ADDR] [--log-level LEVEL]\n"
          "                   [--status-listen HOST:PORT] [--test-params]\n"
          "                   [--backend cpu|cuda|auto] [--no-pce]\n"
          "  FILE: the TOML config (default " DEFAULT_CONFIG
          ", read when it exists)\n"
          "  ADDR: unix:///path/to.sock (default unix:///run/curio/cuzk.sock) or host:port\n"
          "  LEVEL: trace, debug, info (default), warn, error\n"
          "  --test-params: without official v28 parameters, prove with cached TEST\n"
          "    parameters (srs.allow_test_params): such proofs never verify on chain\n"
          "  --backend: the Groth16 backend (gpus.backend, default auto: CUDA when a\n"
          "    device is there, else the CPU; cuda without a device: refused at start)\n"
          "  --no-pce: plain synthesis only, no recorded circuit shapes (synthesis.pce)\n"
          "  --version: the version and git commit\n"
          "signals: SIGINT/SIGTERM drain (a second one cancels running jobs), SIGHUP\n"
          "  re-reads logging.level from FILE\n"
          "exit status: 0 ok (stopped by a signal), 1 failed to start, 2 usage or unusable input\n"
          "  (1: the address or the engine; 2: the options or the config file)\n");
}

/* The parameter directory: a warning when it is missing or holds no
 * v28-*.params file (every official Filecoin parameter file is named so),
 * since every proof would then fail at its SRS load, long after start. */
static void check_param_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) {
    cz_log(CZ_LOG_WARN, "daemon",
           "parameter directory %s: %s: proofs need official v28 parameters there "
           "(or --test-params)",
           dir, strerror(errno));
    return;
  }
  bool found = false;
  for (struct dirent *de; !found && (de = readdir(d)) != NULL;) {
    size_t n = strlen(de->d_name);
    found = n > 11 && !strncmp(de->d_name, "v28-", 4) && !strcmp(de->d_name + n - 7, ".params");
  }
  closedir(d);
  if (!found)
    cz_log(CZ_LOG_WARN, "daemon",
           "parameter directory %s holds no v28-*.params file: proofs need "
           "official v28 parameters there (or --test-params)",
           dir);
}

/* SIGINT, SIGTERM and SIGHUP: blocked in every thread, taken by sigwait. */
static sigset_t stop_signals;
static cz_engine *the_engine;
static const char *config_path;  /* -c, or NULL */
static const char *level_option; /* --log-level, or NULL */

/* Apply logging.level and logging.format (both checked by the parser). */
static void setup_log(const cz_daemon_config *cfg) {
  cz_log_level lv = CZ_LOG_INFO;
  cz_log_format f = CZ_LOG_TEXT;
  cz_log_parse_level(cfg->log_level, &lv);
  cz_log_parse_format(cfg->log_format, &f);
  cz_log_setup(lv, f);
}

/* SIGHUP: logging.level from the config file again; --log-level still wins
 * over it, as it does at start. A bad file changes nothing. */
static void reload(void) {
  if (!config_path) {
    cz_log(CZ_LOG_WARN, "daemon", "SIGHUP: no config file (-c), nothing to re-read");
    return;
  }
  cz_daemon_config cfg;
  cz_daemon_config_default(&cfg);
  char msg[512] = "";
  if (cz_daemon_config_load(&cfg, config_path, msg, sizeof msg) != CZ_OK) {
    cz_log(CZ_LOG_WARN, "daemon", "SIGHUP: config %s: %s (nothing changed)", config_path, msg);
    return;
  }
  if (level_option) {
    cz_log(CZ_LOG_WARN, "daemon", "SIGHUP: logging.level stays %s (--log-level overrides %s)",
           level_option, config_path);
    return;
  }
  /* Said at the more verbose of the two levels, so that a change is seen. */
  bool said = cz_log_enabled(CZ_LOG_INFO);
  if (said)
    cz_log(CZ_LOG_INFO, "daemon", "SIGHUP: logging.level %s (from %s)", cfg.log_level, config_path);
  cz_log_level lv = CZ_LOG_INFO;
  cz_log_parse_level(cfg.log_level, &lv);
  cz_log_setup(lv, cfg.log_format[0] == 'j' ? CZ_LOG_JSON : CZ_LOG_TEXT);
  if (!said)
    cz_log(CZ_LOG_INFO, "daemon", "SIGHUP: logging.level %s (from %s)", cfg.log_level, config_path);
}

/* The next stop signal; a SIGHUP on the way is a reload. */
static int wait_stop(void) {
  for (;;) {
    int sig = 0;
    if (sigwait(&stop_signals, &sig) != 0) return 0;
    if (sig != SIGHUP) return sig;
    reload();
  }
}

/* After the first signal: a second one cancels running jobs. */
static void *second_signal(void *arg) {
  (void)arg;
  int sig = wait_stop();
  if (sig) {
    cz_log(CZ_LOG_WARN, "daemon", "signal %d again: cancelling running jobs", sig);
    cz_engine_shutdown(the_engine, false);
  }
  return NULL;
}

/* Sets [section] key = "value" from a command-line option, through the
 * config parser so that its checks apply; false (said on stderr) when the
 * value is not one of `expected`. */
static bool set_option(cz_daemon_config *cfg, const char *section, const char *key,
                       const char *value, const char *option, const char *expected) {
  char text[96], msg[256];
  snprintf(text, sizeof text, "[%s]\n%s = \"%.20s\"\n", section, key, value);
  if (cz_daemon_config_parse(cfg, text, strlen(text), msg, sizeof msg) == CZ_OK) return true;
  cz_log(CZ_LOG_ERROR, "daemon", "%s %s: expected %s", option, value, expected);
  return false;
}

/* The command line as given (NULL / false: not given). */
typedef struct {
  const char *config, *listen, *level, *status, *backend;
  bool test_params, no_pce;
} daemon_args;

/* -1 when the daemon should start, else the exit status (--help,
 * --version, or a usage error said on stderr). */
static int parse_args(int argc, char **argv, daemon_args *a) {
  *a = (daemon_args){0};
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    const char **dst = NULL;
    if (!strcmp(arg, "-c") || !strcmp(arg, "--config")) dst = &a->config;
    else if (!strcmp(arg, "-l") || !strcmp(arg, "--listen")) dst = &a->listen;
    else if (!strcmp(arg, "--log-level")) dst = &a->level;
    else if (!strcmp(arg, "--status-listen")) dst = &a->status;
    else if (!strcmp(arg, "--backend")) dst = &a->backend;
    else if (!strcmp(arg, "--no-pce")) {
      a->no_pce = true;
      continue;
    } else if (!strcmp(arg, "--test-params")) {
      a->test_params = true;
      continue;
    } else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(arg, "--version")) {
      printf("cuzk-daemon %s (git %s)\n", CUZK_VERSION, CUZK_GIT_COMMIT);
      return 0;
    } else {
      cz_log(CZ_LOG_ERROR, "daemon", "unknown argument %s", arg);
      usage(stderr);
      return 2;
    }
    if (++i >= argc) {
      cz_log(CZ_LOG_ERROR, "daemon", "%s needs a value", arg);
      return 2;
    }
    *dst = argv[i];
  }
  return -1;
}

/* The config: the file (an explicit -c must exist; the default path is
 * read only when it does), then the options over it, logging set up from
 * the result. a->config becomes the file read (or NULL). 0, or 2 after a
 * log line. */
static int load_config(daemon_args *a, cz_daemon_config *cfg) {
  cz_daemon_config_default(cfg);
  char msg[512] = "";
  if (!a->config && access(DEFAULT_CONFIG, F_OK) == 0) a->config = DEFAULT_CONFIG;
  if (a->config && cz_daemon_config_load(cfg, a->config, msg, sizeof msg) != CZ_OK) {
    cz_log(CZ_LOG_ERROR, "daemon", "config %s: %s", a->config, msg);
    return 2;
  }
  setup_log(cfg); /* the file's level and format, until --log-level below */
  if (cfg->warning[0]) cz_log(CZ_LOG_WARN, "daemon", "config: ignoring %s", cfg->warning);
  if (a->listen) snprintf(cfg->listen, sizeof cfg->listen, "%s", a->listen);
  if (a->status) snprintf(cfg->status_listen, sizeof cfg->status_listen, "%s", a->status);
  if (a->test_params) cfg->allow_test_params = true;
  if (a->no_pce) cfg->pce = false;
  if ((a->backend &&
       !set_option(cfg, "gpus", "backend", a->backend, "--backend", "cpu, cuda or auto")) ||
      (a->level && !set_option(cfg, "logging", "level", a->level, "--log-level",
                               "trace, debug, info, warn or error")))
    return 2;
  setup_log(cfg);
  config_path = a->config;
  level_option = a->level;
  return 0;
}

/* The listen address, and the socket's group (-1: none) for a unix one
 * with daemon.socket_group. 0, or 2 after a log line. */
static int listen_setup(const cz_daemon_config *cfg, cz_listen_addr *la, long *gid) {
  char msg[512] = "";
  *gid = -1;
  if (cz_listen_parse(cfg->listen, la, msg, sizeof msg) != CZ_OK) {
    cz_log(CZ_LOG_ERROR, "daemon", "%s", msg);
    return 2;
  }
  if (!la->is_unix || !cfg->socket_group[0]) return 0;
  struct group *g = getgrnam(cfg->socket_group);
  if (!g) {
    cz_log(CZ_LOG_ERROR, "daemon", "daemon.socket_group %s: no such group", cfg->socket_group);
    return 2;
  }
  *gid = (long)g->gr_gid;
  return 0;
}

/* What runs: the engine with its provers, the gRPC server and the status
 * endpoint (NULL when not configured). */
typedef struct {
  cz_engine *engine;
  cz_circom_keys *circom;
  cz_server *srv;
  cz_http_status *http;
} services;

/* Every service started, in order; on a failure the ones started are
 * stopped again. 0, or 1 after a log line. */
static int start_services(const cz_daemon_config *cfg, long gid, services *sv) {
  char msg[512] = "";
  *sv = (services){0};
  cz_engine_config ec;
  cz_daemon_engine_config(cfg, &ec);
  cz_daemon_workers_for_devices(cfg, &ec);
  if (cz_engine_create(&sv->engine, &ec, msg, sizeof msg) != CZ_OK) {
    cz_log(CZ_LOG_ERROR, "daemon", "engine: %s", msg[0] ? msg : "cannot create");
    return 1;
  }
  the_engine = sv->engine;
  if (cz_daemon_register_provers(sv->engine, cfg, &sv->circom, msg, sizeof msg) != CZ_OK ||
      cz_engine_start(sv->engine) != CZ_OK ||
      cz_daemon_load_circom_keys(sv->circom, cfg, msg, sizeof msg) != CZ_OK) {
    cz_log(CZ_LOG_ERROR, "daemon", "provers: %s", msg[0] ? msg : "cannot start");
    cz_engine_destroy(sv->engine);
    return 1;
  }
  if (cz_server_start(&sv->srv, sv->engine, sv->circom, cfg->listen, cfg->socket_mode, gid, msg,
                      sizeof msg) != CZ_OK) {
    cz_log(CZ_LOG_ERROR, "daemon", "%s", msg);
    cz_engine_destroy(sv->engine);
    return 1;
  }
  if (cfg->status_listen[0] &&
      cz_http_status_start(&sv->http, sv->engine, cfg->status_listen, msg, sizeof msg) != CZ_OK) {
    cz_log(CZ_LOG_ERROR, "daemon", "%s", msg);
    cz_server_stop(sv->srv);
    cz_engine_destroy(sv->engine);
    return 1;
  }
  return 0;
}

/* The start-up lines: exposure warning, version, config, where it listens. */
static void log_started(const cz_daemon_config *cfg, const cz_listen_addr *la, const char *config,
                        bool default_config, const services *sv) {
  if (!la->is_unix && !la->loopback)
    cz_log(CZ_LOG_WARN, "daemon",
           "%s is not a loopback address and the cuzk.v1 API has no "
           "authentication: whoever reaches it can submit and cancel proofs",
           cfg->listen);
  cz_engine_stats st;
  cz_engine_get_stats(sv->engine, &st);
  /* srs.param_cache in the file wins; else $FIL_PROOFS_PARAMETER_CACHE
   * (cz_daemon_config_default); else /data/zk/params. */
  cz_log(CZ_LOG_INFO, "daemon", "cuzk-daemon %s (git %s)", CUZK_VERSION, CUZK_GIT_COMMIT);
  if (config)
    cz_log(CZ_LOG_INFO, "daemon", "config %s%s", config,
           default_config ? " (the default path)" : "");
  else
    cz_log(CZ_LOG_INFO, "daemon", "no config file at %s (the default path): using defaults",
           DEFAULT_CONFIG);
  const char *env = getenv("FIL_PROOFS_PARAMETER_CACHE");
  bool from_env = env && env[0] && !strcmp(env, cfg->param_cache);
  cz_log(CZ_LOG_INFO, "daemon",
         "listening on %s (%u workers, memory budget %llu bytes, params %s%s)", cfg->listen,
         st.n_workers, (unsigned long long)st.memory_budget, cfg->param_cache,
         from_env ? " from FIL_PROOFS_PARAMETER_CACHE" : "");
  if (cz_server_port(sv->srv))
    cz_log(CZ_LOG_INFO, "daemon", "grpc port %d", cz_server_port(sv->srv));
  if (sv->http)
    cz_log(CZ_LOG_INFO, "daemon", "status port %d (GET /status)", cz_http_status_port(sv->http));
  check_param_dir(cfg->param_cache);
}

/* After the first stop signal: drain (a second one, on its watcher thread,
 * cancels), then stop the services. */
static void drain_and_stop(int sig, const services *sv) {
  cz_log(CZ_LOG_INFO, "daemon", "signal %d: draining (again to cancel)", sig);
  pthread_t t;
  bool watcher = pthread_create(&t, NULL, second_signal, NULL) == 0;
  if (watcher) pthread_detach(t);
  cz_engine_shutdown(sv->engine, true); /* awaiters get their answers */
  cz_http_status_stop(sv->http);
  cz_server_stop(sv->srv);
  cz_engine_stats st;
  cz_engine_get_stats(sv->engine, &st);
  cz_log(CZ_LOG_INFO, "daemon", "stopped (%llu completed, %llu failed)",
         (unsigned long long)st.total_completed, (unsigned long long)st.total_failed);
  /* The watcher may still wait in sigwait: the engine stays allocated. */
}

int main(int argc, char **argv) {
  cz_log_setup(CZ_LOG_INFO, CZ_LOG_TEXT);
  daemon_args args;
  int rc = parse_args(argc, argv, &args);
  if (rc >= 0) return rc;
  bool default_config = !args.config;
  cz_daemon_config cfg;
  cz_listen_addr la;
  long gid;
  if ((rc = load_config(&args, &cfg)) != 0 || (rc = listen_setup(&cfg, &la, &gid)) != 0) return rc;

  /* Every thread inherits this mask; only sigwait sees these signals. */
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
  signal(SIGPIPE, SIG_IGN);
  signal(SIGXFSZ, SIG_IGN);

  services sv;
  if ((rc = start_services(&cfg, gid, &sv)) != 0) return rc;
  log_started(&cfg, &la, args.config, default_config, &sv);
  drain_and_stop(wait_stop(), &sv);
  return 0;
}
