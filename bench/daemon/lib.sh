# Sourced by the daemon benchmarks (first_proof.sh, bench/filecoin/ni_porep.sh):
# a test-parameter daemon's config, and its start and stop.

# daemon_config FILE PARAM_CACHE TEST_PARAMS BUDGET: one ordinary worker,
# test parameters from TEST_PARAMS, shapes and official files in PARAM_CACHE.
daemon_config() {
  cat >"$1" <<TOML
[srs]
param_cache = "$2"
allow_test_params = true
test_param_cache = "$3"
[memory]
total_budget = "$4"
[gpus]
gpu_workers_per_device = 1
TOML
}

# daemon_start DAEMON CONFIG SOCK LOG: start it on unix://SOCK, stderr into
# LOG; returns once it listens (exit 1 with its log if it died). Sets pid.
daemon_start() {
  rm -f "$3"
  "$1" -c "$2" -l "unix://$3" 2>"$4" &
  pid=$!
  for _ in $(seq 3000); do
    grep -q "listening on" "$4" && return 0
    kill -0 "$pid" 2>/dev/null || { cat "$4" >&2; exit 1; }
    sleep 0.01
  done
  echo "the daemon did not listen within 30 s" >&2
  exit 1
}

# daemon_stop: SIGTERM the daemon started last and wait for it.
daemon_stop() {
  [ -n "${pid:-}" ] || return 0
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=
}
