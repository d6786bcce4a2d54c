/* cuzk-daemon: the cuzk.v1 proving service.
 *   cuzk-daemon [-c|--config FILE] [-l|--listen ADDR] [--log-level L]
 *               [--status-listen HOST:PORT] [--test-params] [--backend B]
 *               [--no-pce]
 * The first SIGINT/SIGTERM drains (queued jobs are cancelled, running ones
 * finish); a second one cancels the running jobs at their next phase.
 * SIGHUP re-reads logging.level from the config file (never stops the
 * daemon); SIGPIPE is ignored. */
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
          "  FILE: the TOML config (default " DEFAULT_CONFIG ", read when it exists)\n"
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
    cz_log(CZ_LOG_WARN, "daemon", "parameter directory %s: %s: proofs need official v28 parameters there "
           "(or --test-params)", dir, strerror(errno));
    return;
  }
  bool found = false;
  for (struct dirent *de; !found && (de = readdir(d)) != NULL;) {
    size_t n = strlen(de->d_name);
    found = n > 11 && !strncmp(de->d_name, "v28-", 4) && !strcmp(de->d_name + n - 7, ".params");
  }
  closedir(d);
  if (!found)
    cz_log(CZ_LOG_WARN, "daemon", "parameter directory %s holds no v28-*.params file: proofs need "
           "official v28 parameters there (or --test-params)", dir);
}

/* SIGINT, SIGTERM and SIGHUP: blocked in every thread, taken by sigwait. */
static sigset_t stop_signals;
static cz_engine *the_engine;
static const char *config_path; /* -c, or NULL */
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
  if (said) cz_log(CZ_LOG_INFO, "daemon", "SIGHUP: logging.level %s (from %s)", cfg.log_level, config_path);
  cz_log_level lv = CZ_LOG_INFO;
  cz_log_parse_level(cfg.log_level, &lv);
  cz_log_setup(lv, cfg.log_format[0] == 'j' ? CZ_LOG_JSON : CZ_LOG_TEXT);
  if (!said) cz_log(CZ_LOG_INFO, "daemon", "SIGHUP: logging.level %s (from %s)", cfg.log_level, config_path);
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

int main(int argc, char **argv) {
  cz_log_setup(CZ_LOG_INFO, CZ_LOG_TEXT);
  const char *config = NULL, *listen = NULL, *level = NULL, *status = NULL, *backend = NULL;
  bool test_params = false, no_pce = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char **dst = NULL;
    if (!strcmp(a, "-c") || !strcmp(a, "--config")) dst = &config;
    else if (!strcmp(a, "-l") || !strcmp(a, "--listen")) dst = &listen;
    else if (!strcmp(a, "--log-level")) dst = &level;
    else if (!strcmp(a, "--status-listen")) dst = &status;
    else if (!strcmp(a, "--backend")) dst = &backend;
    else if (!strcmp(a, "--no-pce")) {
      no_pce = true;
      continue;
    }
    else if (!strcmp(a, "--test-params")) {
      test_params = true;
      continue;
    }
    else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--version")) {
      printf("cuzk-daemon %s (git %s)\n", CUZK_VERSION, CUZK_GIT_COMMIT);
      return 0;
    } else {
      cz_log(CZ_LOG_ERROR, "daemon", "unknown argument %s", a);
      usage(stderr);
      return 2;
    }
    if (++i >= argc) {
      cz_log(CZ_LOG_ERROR, "daemon", "%s needs a value", a);
      return 2;
    }
    *dst = argv[i];
  }

  cz_daemon_config cfg;
  cz_daemon_config_default(&cfg);
  char msg[512] = "";
  /* An explicit -c must exist; the default one is read only when it does. */
  bool default_config = !config;
  if (default_config && access(DEFAULT_CONFIG, F_OK) == 0) config = DEFAULT_CONFIG;
  if (config && cz_daemon_config_load(&cfg, config, msg, sizeof msg) != CZ_OK) {
    cz_log(CZ_LOG_ERROR, "daemon", "config %s: %s", config, msg);
    return 2;
  }
  setup_log(&cfg); /* the file's level and format, until --log-level below */
  if (cfg.warning[0]) cz_log(CZ_LOG_WARN, "daemon", "config: ignoring %s", cfg.warning);
  if (listen) snprintf(cfg.listen, sizeof cfg.listen, "%s", listen);
  if (status) snprintf(cfg.status_listen, sizeof cfg.status_listen, "%s", status);
  if (test_params) cfg.allow_test_params = true;
  if (no_pce) cfg.pce = false;
  if ((backend && !set_option(&cfg, "gpus", "backend", backend, "--backend",
                              "cpu, cuda or auto")) ||
      (level && !set_option(&cfg, "logging", "level", level, "--log-level",
                            "trace, debug, info, warn or error")))
    return 2;
  setup_log(&cfg);
  config_path = config;
  level_option = level;
  cz_listen_addr la;
  if (cz_listen_parse(cfg.listen, &la, msg, sizeof msg) != CZ_OK) {
    cz_log(CZ_LOG_ERROR, "daemon", "%s", msg);
    return 2;
  }
  long gid = -1;
  if (la.is_unix && cfg.socket_group[0]) {
    struct group *g = getgrnam(cfg.socket_group);
    if (!g) {
      cz_log(CZ_LOG_ERROR, "daemon", "daemon.socket_group %s: no such group", cfg.socket_group);
      return 2;
    }
    gid = (long)g->gr_gid;
  }

  /* Every thread inherits this mask; only sigwait sees these signals. */
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
  signal(SIGPIPE, SIG_IGN);

  cz_engine_config ec;
  cz_daemon_engine_config(&cfg, &ec);
  cz_daemon_workers_for_devices(&cfg, &ec);
  cz_engine *e = NULL;
  if (cz_engine_create(&e, &ec, msg, sizeof msg) != CZ_OK) {
    cz_log(CZ_LOG_ERROR, "daemon", "engine: %s", msg[0] ? msg : "cannot create");
    return 1;
  }
  the_engine = e;
  cz_circom_keys *circom = NULL;
  if (cz_daemon_register_provers(e, &cfg, &circom, msg, sizeof msg) != CZ_OK ||
      cz_engine_start(e) != CZ_OK ||
      cz_daemon_load_circom_keys(circom, &cfg, msg, sizeof msg) != CZ_OK) {
    cz_log(CZ_LOG_ERROR, "daemon", "provers: %s", msg[0] ? msg : "cannot start");
    cz_engine_destroy(e);
    return 1;
  }
  cz_server *srv = NULL;
  if (cz_server_start(&srv, e, circom, cfg.listen, cfg.socket_mode, gid, msg, sizeof msg) !=
      CZ_OK) {
    cz_log(CZ_LOG_ERROR, "daemon", "%s", msg);
    cz_engine_destroy(e);
    return 1;
  }
  cz_http_status *http = NULL;
  if (cfg.status_listen[0] &&
      cz_http_status_start(&http, e, cfg.status_listen, msg, sizeof msg) != CZ_OK) {
    cz_log(CZ_LOG_ERROR, "daemon", "%s", msg);
    cz_server_stop(srv);
    cz_engine_destroy(e);
    return 1;
  }
  if (!la.is_unix && !la.loopback)
    cz_log(CZ_LOG_WARN, "daemon",
           "%s is not a loopback address and the cuzk.v1 API has no "
           "authentication: whoever reaches it can submit and cancel proofs",
           cfg.listen);
  cz_engine_stats st;
  cz_engine_get_stats(e, &st);
  /* srs.param_cache in the file wins; else $FIL_PROOFS_PARAMETER_CACHE
   * (cz_daemon_config_default); else /data/zk/params. */
  cz_log(CZ_LOG_INFO, "daemon", "cuzk-daemon %s (git %s)", CUZK_VERSION, CUZK_GIT_COMMIT);
  if (config) cz_log(CZ_LOG_INFO, "daemon", "config %s%s", config, default_config ? " (the default path)" : "");
  else cz_log(CZ_LOG_INFO, "daemon", "no config file at %s (the default path): using defaults", DEFAULT_CONFIG);
  const char *env = getenv("FIL_PROOFS_PARAMETER_CACHE");
  bool from_env = env && env[0] && !strcmp(env, cfg.param_cache);
  cz_log(CZ_LOG_INFO, "daemon", "listening on %s (%u workers, memory budget %llu bytes, params %s%s)",
         cfg.listen, st.n_workers, (unsigned long long)st.memory_budget, cfg.param_cache,
         from_env ? " from FIL_PROOFS_PARAMETER_CACHE" : "");
  if (cz_server_port(srv)) cz_log(CZ_LOG_INFO, "daemon", "grpc port %d", cz_server_port(srv));
  if (http) cz_log(CZ_LOG_INFO, "daemon", "status port %d (GET /status)", cz_http_status_port(http));
  check_param_dir(cfg.param_cache);

  int sig = wait_stop();
  cz_log(CZ_LOG_INFO, "daemon", "signal %d: draining (again to cancel)", sig);
  pthread_t t;
  bool watcher = pthread_create(&t, NULL, second_signal, NULL) == 0;
  if (watcher) pthread_detach(t);
  cz_engine_shutdown(e, true); /* awaiters get their answers */
  cz_http_status_stop(http);
  cz_server_stop(srv);
  cz_engine_get_stats(e, &st);
  cz_log(CZ_LOG_INFO, "daemon", "stopped (%llu completed, %llu failed)",
         (unsigned long long)st.total_completed, (unsigned long long)st.total_failed);
  /* The watcher may still wait in sigwait: the engine stays allocated. */
  return 0;
}
