# Sourced by the bench/daemon scripts: a daemon on test parameters.

# daemon_config FILE PARAMS BUDGET WORKERS [MORE]: a config with no
# official files, test parameters cached in PARAMS, BUDGET memory, WORKERS
# gpu workers, then the TOML lines MORE.
daemon_config() {
  cat >"$1" <<EOF
[srs]
param_cache = "$(dirname "$1")/no-official-params"
allow_test_params = true
test_param_cache = "$2"
[memory]
total_budget = "$3"
[gpus]
gpu_workers_per_device = $4
${5:-}
EOF
}

# daemon_start DAEMON CONFIG SOCK LOG: start it on the unix socket SOCK,
# stderr to LOG, its pid in $pid; return once it listens (exit 1 with its
# log if it dies first).
daemon_start() {
  "$1" -c "$2" -l "unix://$3" 2>"$4" &
  pid=$!
  for _ in $(seq 300); do
    grep -q "listening on" "$4" && return 0
    kill -0 "$pid" 2>/dev/null || { cat "$4" >&2; exit 1; }
    sleep 0.1
  done
}
