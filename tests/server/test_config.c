/* The daemon's TOML config: defaults of docs/interface.md, every key, sizes and
 * durations, and errors that name their line. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "cuzk/server.h"

static cz_err parse(cz_daemon_config *c, const char *text, char *msg) {
  cz_daemon_config_default(c);
  return cz_daemon_config_parse(c, text, strlen(text), msg, 256);
}

static void test_defaults(void) {
  unsetenv("FIL_PROOFS_PARAMETER_CACHE");
  cz_daemon_config c;
  cz_daemon_config_default(&c);
  CHECK(!strcmp(c.listen, "unix:///run/curio/cuzk.sock"));
  CHECK(!strcmp(c.status_listen, ""));
  CHECK_EQ_INT(c.socket_mode, 0660);
  CHECK(!strcmp(c.socket_group, ""));
  CHECK(!strcmp(c.param_cache, "/data/zk/params"));
  CHECK_EQ_INT(c.total_budget, 0); /* auto */
  CHECK_EQ_INT(c.safety_margin, 5ull << 30);
  CHECK_EQ_INT(c.eviction_min_idle_ms, 300000);
  CHECK_EQ_INT(c.n_gpu_devices, 0);
  CHECK_EQ_INT(c.gpu_unhealthy_after, 3);
  CHECK_EQ_INT(c.gpu_self_test_interval_ms, 60000);
  CHECK_EQ_INT(c.test_emulated_devices, 0);
  CHECK_EQ_INT(c.gpu_threads, 0);
  CHECK_EQ_INT(c.gpu_workers_per_device, 2);
  CHECK_EQ_INT(c.max_batch_size, 1);
  CHECK_EQ_INT(c.max_batch_wait_ms, 10000);
  CHECK_EQ_INT(c.synthesis_threads, 0);
  CHECK(c.pipeline_enabled);
  CHECK_EQ_INT(c.synthesis_concurrency, 1);
  CHECK_EQ_INT(c.max_parallel_synthesis, 18);
  CHECK_EQ_INT(c.max_gpu_queue_depth, 0);
  CHECK(!strcmp(c.log_level, "info"));
  CHECK(c.pce);
  CHECK(!strcmp(c.backend, "auto"));
  setenv("FIL_PROOFS_PARAMETER_CACHE", "/var/tmp/filecoin-proof-parameters", 1);
  cz_daemon_config_default(&c);
  CHECK(!strcmp(c.param_cache, "/var/tmp/filecoin-proof-parameters"));
  unsetenv("FIL_PROOFS_PARAMETER_CACHE");
}

static void test_full(void) {
  const char *text =
      "# cuzk example config\n"
      "[daemon]\n"
      "listen = \"0.0.0.0:9820\"   # gRPC\n"
      "status_listen = '0.0.0.0:9821'\n"
      "socket_mode = \"0600\"\nsocket_group = \"curio\"\n"
      "\n"
      "[srs]\nparam_cache = \"/data/zk/params\"\n"
      "[memory]\n"
      "total_budget = \"400GiB\"\n"
      "safety_margin = \"512 MiB\"\n"
      "eviction_min_idle = \"30s\"\n"
      "[gpus]\n"
      "devices = [\n  3]\n"
      "gpu_threads = 0\n"
      "gpu_workers_per_device = 3\n"
      "[gpus.affinity]\n"
      "0 = \"porep-32g\"\n"
      "[scheduler]\nmax_batch_size = 4\nmax_batch_wait_ms = 2_500\n"
      "[synthesis]\nthreads = 8\n"
      "[pipeline]\nenabled = false\nsynthesis_concurrency = 2\nmax_parallel_synthesis = 9\n"
      "max_gpu_queue_depth = 5\n"
      "[logging]\nlevel = \"debug\"\n";
  cz_daemon_config c;
  char msg[256] = "";
  CHECK_EQ_INT(parse(&c, text, msg), CZ_OK);
  if (msg[0]) fprintf(stderr, "%s\n", msg);
  CHECK(!strcmp(c.listen, "0.0.0.0:9820"));
  CHECK(!strcmp(c.status_listen, "0.0.0.0:9821"));
  CHECK_EQ_INT(c.socket_mode, 0600);
  CHECK(!strcmp(c.socket_group, "curio"));
  CHECK_EQ_INT(c.total_budget, 400ull << 30);
  CHECK_EQ_INT(c.safety_margin, 512ull << 20);
  CHECK_EQ_INT(c.eviction_min_idle_ms, 30000);
  CHECK_EQ_INT(c.n_gpu_devices, 1);
  CHECK_EQ_INT(c.gpu_devices[0], 3);
  CHECK_EQ_INT(c.gpu_threads, 0);
  CHECK_EQ_INT(c.gpu_workers_per_device, 3);
  CHECK_EQ_INT(c.max_batch_size, 4);
  CHECK_EQ_INT(c.max_batch_wait_ms, 2500);
  CHECK_EQ_INT(c.synthesis_threads, 8);
  CHECK(!c.pipeline_enabled);
  CHECK_EQ_INT(c.synthesis_concurrency, 2);
  CHECK_EQ_INT(c.max_parallel_synthesis, 9);
  CHECK_EQ_INT(c.max_gpu_queue_depth, 5);
  CHECK(!strcmp(c.log_level, "debug"));
  /* [gpus.affinity] is not ours: skipped, and named. */
  CHECK(strstr(c.warning, "gpus.affinity.0") != NULL);
  cz_engine_config ec;
  cz_daemon_engine_config(&c, &ec);
  CHECK_EQ_INT(ec.n_workers, 3); /* one device x gpu_workers_per_device */
  CHECK_EQ_INT(ec.max_parallel_synthesis, 9);
  CHECK_EQ_INT(ec.memory_budget, 400ull << 30);
  CHECK_EQ_INT(ec.max_batch_size, 4);
  /* "auto" and dotted keys at top level. */
  CHECK_EQ_INT(parse(&c, "memory.total_budget = \"auto\"\ndaemon.listen=\"unix:///tmp/x.sock\"",
                     msg),
               CZ_OK);
  CHECK_EQ_INT(c.total_budget, 0);
  CHECK(!strcmp(c.listen, "unix:///tmp/x.sock"));
}

static void test_units(void) {
  uint64_t v = 0;
  CHECK(cz_parse_size("5GiB", &v) == CZ_OK && v == 5ull << 30);
  CHECK(cz_parse_size("5 gib", &v) == CZ_OK && v == 5ull << 30);
  CHECK(cz_parse_size("2GB", &v) == CZ_OK && v == 2000000000ull);
  CHECK(cz_parse_size("100MB", &v) == CZ_OK && v == 100000000ull);
  CHECK(cz_parse_size("3MiB", &v) == CZ_OK && v == 3ull << 20);
  CHECK(cz_parse_size("4096", &v) == CZ_OK && v == 4096);
  CHECK(cz_parse_size("4096 bytes", &v) == CZ_OK && v == 4096);
  CHECK(cz_parse_size("1.5GiB", &v) == CZ_OK && v == 3ull << 29);
  CHECK(cz_parse_size("GiB", &v) == CZ_ERR_PARSE);
  CHECK(cz_parse_size("5 parsecs", &v) == CZ_ERR_PARSE);
  CHECK(cz_parse_size("99999999999999999999", &v) == CZ_ERR_PARSE);
  CHECK(cz_parse_size("99999999999TiB", &v) == CZ_ERR_PARSE);
  CHECK(cz_parse_duration_ms("5m", &v) == CZ_OK && v == 300000);
  CHECK(cz_parse_duration_ms("30s", &v) == CZ_OK && v == 30000);
  CHECK(cz_parse_duration_ms("30 seconds", &v) == CZ_OK && v == 30000);
  CHECK(cz_parse_duration_ms("2 minutes", &v) == CZ_OK && v == 120000);
  CHECK(cz_parse_duration_ms("250ms", &v) == CZ_OK && v == 250);
  CHECK(cz_parse_duration_ms("1h", &v) == CZ_OK && v == 3600000);
  CHECK(cz_parse_duration_ms("soon", &v) == CZ_ERR_PARSE);
  CHECK(cz_parse_duration_ms("5 fortnights", &v) == CZ_ERR_PARSE);
}

static void test_errors(void) {
  cz_daemon_config c;
  char msg[256];
  CHECK_EQ_INT(parse(&c, "[daemon]\nlisten = \"x\n", msg), CZ_ERR_PARSE);
  CHECK(strstr(msg, "line 2") != NULL);
  CHECK_EQ_INT(parse(&c, "[memory\n", msg), CZ_ERR_PARSE);
  CHECK(strstr(msg, "line 1") != NULL);
  CHECK_EQ_INT(parse(&c, "a = 1\n\n[memory]\ntotal_budget = \"lots\"\n", msg), CZ_ERR_PARSE);
  CHECK(strstr(msg, "line 4") && strstr(msg, "memory.total_budget"));
  CHECK_EQ_INT(parse(&c, "[memory]\ntotal_budget = 0\n", msg), CZ_ERR_PARSE);
  CHECK_EQ_INT(parse(&c, "[scheduler]\nmax_batch_size = -1\n", msg), CZ_ERR_PARSE);
  CHECK_EQ_INT(parse(&c, "[scheduler]\nmax_batch_size = \"4\"\n", msg), CZ_ERR_PARSE);
  CHECK_EQ_INT(parse(&c, "[pipeline]\nenabled = 1\n", msg), CZ_ERR_PARSE);
  CHECK_EQ_INT(parse(&c, "[logging]\nlevel = \"loud\"\n", msg), CZ_ERR_PARSE);
  CHECK_EQ_INT(parse(&c, "[gpus]\nbackend = \"opencl\"\n", msg), CZ_ERR_PARSE);
  CHECK(strstr(msg, "cpu, cuda or auto") != NULL);
  CHECK_EQ_INT(parse(&c, "[synthesis]\npce = \"no\"\n", msg), CZ_ERR_PARSE);
  CHECK_EQ_INT(parse(&c, "[gpus]\ndevices = [0, 1\n", msg), CZ_ERR_PARSE);
  CHECK_EQ_INT(parse(&c, "[gpus]\ndevices = [\"a\"]\n", msg), CZ_ERR_PARSE);
  /* Many devices in one daemon, each listed once; their health settings
   * and the test-only emulated devices. */
  CHECK_EQ_INT(parse(&c,
                     "[gpus]\ndevices = [0, 1, 3]\nunhealthy_after = 5\n"
                     "self_test_interval = \"10s\"\n",
                     msg),
               CZ_OK);
  CHECK(c.n_gpu_devices == 3 && c.gpu_devices[2] == 3 && c.gpu_unhealthy_after == 5);
  CHECK_EQ_INT(c.gpu_self_test_interval_ms, 10000);
  cz_engine_config dec;
  cz_daemon_engine_config(&c, &dec);
  CHECK_EQ_INT(dec.n_workers, 6); /* three devices x two workers */
  CHECK_EQ_INT(dec.device_fail_limit, 5);
  CHECK_EQ_INT(dec.self_test_interval_ms, 10000);
  CHECK_EQ_INT(parse(&c, "[gpus]\ndevices = [0, 1, 0]\n", msg), CZ_ERR_PARSE);
  CHECK(strstr(msg, "line 2: gpus.devices: a device is listed twice") != NULL);
  CHECK_EQ_INT(parse(&c, "[gpus]\ntest_emulated_devices = 4\n", msg), CZ_OK);
  CHECK_EQ_INT(c.test_emulated_devices, 4);
  CHECK_EQ_INT(parse(&c, "[gpus]\ntest_emulated_devices = 17\n", msg), CZ_ERR_PARSE);
  /* Settings that would do nothing are refused, naming the key. */
  CHECK_EQ_INT(parse(&c, "[gpus]\ngpu_threads = 16\n", msg), CZ_ERR_PARSE);
  CHECK(strstr(msg, "line 2: gpus.gpu_threads: not implemented") != NULL);
  CHECK_EQ_INT(parse(&c, "[gpus]\ndevices = [2]\ngpu_threads = 0\n", msg), CZ_OK);
  CHECK(c.n_gpu_devices == 1 && c.gpu_devices[0] == 2);
  CHECK_EQ_INT(parse(&c, "listen\n", msg), CZ_ERR_PARSE);
  CHECK_EQ_INT(parse(&c, "[daemon]\nlisten = \"a\" \"b\"\n", msg), CZ_ERR_PARSE);
  CHECK_EQ_INT(parse(&c, "[daemon]\nlisten = \"a\\qb\"\n", msg), CZ_ERR_PARSE);
  /* socket_mode: an octal string, at most 0777. */
  static const char *const bad_modes[] = {"660",           "\"\"",      "\"0999\"", "\"01777\"",
                                          "\"rw-rw----\"", "\"0660 \"", "\"-660\""};
  for (size_t i = 0; i < sizeof bad_modes / sizeof bad_modes[0]; i++) {
    char text[64];
    snprintf(text, sizeof text, "[daemon]\nsocket_mode = %s\n", bad_modes[i]);
    CHECK_EQ_INT(parse(&c, text, msg), CZ_ERR_PARSE);
    CHECK(strstr(msg, "line 2: daemon.socket_mode: expected an octal mode") != NULL);
  }
  CHECK_EQ_INT(parse(&c, "daemon.socket_mode = \"755\"\n", msg), CZ_OK);
  CHECK_EQ_INT(c.socket_mode, 0755);
  CHECK_EQ_INT(parse(&c, "[daemon]\nsocket_group = 5\n", msg), CZ_ERR_PARSE);
  CHECK_EQ_INT(cz_daemon_config_load(&c, "/nonexistent/cuzk.toml", msg, sizeof msg), CZ_ERR_IO);
  /* Every byte sequence is answered, never crashes: random garbage. */
  for (int i = 0; i < 2000; i++) {
    char buf[64];
    size_t n = (size_t)(check_rand64() % sizeof buf);
    for (size_t k = 0; k < n; k++) buf[k] = "[]=\"'#.\n ab1_-,"[check_rand64() % 15];
    cz_daemon_config_default(&c);
    cz_err err = cz_daemon_config_parse(&c, buf, n, msg, sizeof msg);
    CHECK(err == CZ_OK || err == CZ_ERR_PARSE);
  }
}

/* Listen addresses: ports are never wrapped, IPv6 needs brackets. */
static void test_listen(void) {
  cz_listen_addr a;
  char msg[256];
  CHECK_EQ_INT(cz_listen_parse("unix:///run/curio/cuzk.sock", &a, msg, sizeof msg), CZ_OK);
  CHECK(a.is_unix && !strcmp(a.path, "/run/curio/cuzk.sock"));
  CHECK_EQ_INT(cz_listen_parse("127.0.0.1:9820", &a, msg, sizeof msg), CZ_OK);
  CHECK(!a.is_unix && !strcmp(a.host, "127.0.0.1") && a.port == 9820 && a.loopback);
  CHECK_EQ_INT(cz_listen_parse("http://127.3.4.5:0", &a, msg, sizeof msg), CZ_OK);
  CHECK(a.port == 0 && a.loopback);
  CHECK_EQ_INT(cz_listen_parse("[::1]:9821", &a, msg, sizeof msg), CZ_OK);
  CHECK(!strcmp(a.host, "::1") && a.port == 9821 && a.loopback);
  CHECK_EQ_INT(cz_listen_parse("[::ffff:127.0.0.1]:65535", &a, msg, sizeof msg), CZ_OK);
  CHECK(a.port == 65535 && a.loopback);
  CHECK_EQ_INT(cz_listen_parse("localhost:1", &a, msg, sizeof msg), CZ_OK);
  CHECK(a.loopback);
  static const char *const open_hosts[] = {"0.0.0.0:9820", "[::]:9820", "10.0.0.1:9820",
                                           "prover.example:9820", "[::2]:1"};
  for (size_t i = 0; i < sizeof open_hosts / sizeof open_hosts[0]; i++) {
    CHECK_EQ_INT(cz_listen_parse(open_hosts[i], &a, msg, sizeof msg), CZ_OK);
    CHECK(!a.loopback);
  }
  static const char *const bad[] = {"127.0.0.1:99999", "127.0.0.1:65536", "127.0.0.1:4294967297",
                                    "127.0.0.1:-1",    "127.0.0.1:",      "127.0.0.1:80x",
                                    "127.0.0.1",       ":9820",           "::1:9820",
                                    "[::1]9820",       "[::1:9820",       "[nope]:9820",
                                    "unix://",         "127.0.0.1:+80",   "127.0.0.1: 80"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK_EQ_INT(cz_listen_parse(bad[i], &a, msg, sizeof msg), CZ_ERR_PARSE);
    CHECK(strstr(msg, bad[i]) != NULL && !strchr(msg, '\n'));
    CHECK(!a.is_unix && a.port == 0 && !a.host[0]);
  }
  CHECK(cz_listen_parse("127.0.0.1:99999", &a, msg, sizeof msg) == CZ_ERR_PARSE &&
        strstr(msg, "port 99999 is not 1-65535") != NULL);
}

/* The sample config parses with no unknown key and holds the defaults. */
static void test_example(void) {
  cz_daemon_config c, d;
  char msg[256] = "";
  unsetenv("FIL_PROOFS_PARAMETER_CACHE");
  cz_daemon_config_default(&d);
  cz_daemon_config_default(&c);
  c.pce = false;
  snprintf(c.backend, sizeof c.backend, "cpu");
  CHECK_EQ_INT(cz_daemon_config_load(&c, "tools/cuzk-daemon/cuzk.example.toml", msg, sizeof msg),
               CZ_OK);
  CHECK(!strcmp(c.warning, ""));
  CHECK(c.pce);
  CHECK(!strcmp(c.backend, "auto"));
  CHECK(!strcmp(c.listen, d.listen) && !strcmp(c.param_cache, d.param_cache));
  CHECK_EQ_INT(c.total_budget, d.total_budget);
  CHECK_EQ_INT(c.safety_margin, d.safety_margin);
  CHECK_EQ_INT(c.eviction_min_idle_ms, d.eviction_min_idle_ms);
  CHECK_EQ_INT(c.max_batch_size, d.max_batch_size);
  CHECK_EQ_INT(c.max_gpu_queue_depth, d.max_gpu_queue_depth);
  CHECK_EQ_INT(c.socket_mode, d.socket_mode);
  CHECK(!strcmp(c.socket_group, d.socket_group));
  CHECK_EQ_INT(parse(&c, "[synthesis]\npce = false\n[gpus]\nbackend = \"cuda\"\n", msg), CZ_OK);
  CHECK(!c.pce);
  CHECK(!strcmp(c.backend, "cuda"));
}

/* [[circom.keys]]: one entry per table header, keys into the last one. */
static void test_circom_keys(void) {
  cz_daemon_config c;
  char msg[256] = "";
  CHECK(parse(&c,
              "[[circom.keys]]\nname = \"a\"\npath = \"/k/a.zkey\"\n"
              "[memory]\ntotal_budget = \"1GiB\"\n"
              "[[circom.keys]]\nname = \"b\"\npath = \"/k/b.zkey\"\ncheck_subgroup = true\n",
              msg) == CZ_OK);
  CHECK_EQ_INT(c.n_circom_keys, 2);
  CHECK(!strcmp(c.circom_keys[0].name, "a") && !strcmp(c.circom_keys[0].path, "/k/a.zkey"));
  CHECK(!c.circom_keys[0].check_subgroup);
  CHECK(!strcmp(c.circom_keys[1].name, "b") && c.circom_keys[1].check_subgroup);
  CHECK_EQ_INT(c.total_budget, 1ull << 30);
  CHECK(!c.warning[0]);
  /* Not an array of tables: refused with the line. */
  CHECK(parse(&c, "[circom.keys]\nname = \"a\"\n", msg) == CZ_ERR_PARSE);
  CHECK(strstr(msg, "line 2") && strstr(msg, "[[circom.keys]]"));
  CHECK(parse(&c, "[[circom.keys]]\ncheck_subgroup = 1\n", msg) == CZ_ERR_PARSE);
  CHECK(parse(&c, "[[circom.keys]]\ncolour = \"red\"\n", msg) == CZ_OK);
  CHECK(strstr(c.warning, "circom.keys.colour") != NULL);
  char many[64 * (CZ_MAX_CIRCOM_KEYS + 1) + 1] = "";
  for (int i = 0; i <= CZ_MAX_CIRCOM_KEYS; i++) strcat(many, "[[circom.keys]]\n");
  CHECK(parse(&c, many, msg) == CZ_ERR_PARSE && strstr(msg, "too many"));
}

int main(void) {
  test_defaults();
  test_circom_keys();
  test_example();
  test_full();
  test_units();
  test_listen();
  test_errors();
  return check_report("test_config");
}
