# Sourced by the daemon benchmarks (bench/daemon/*.sh, bench/filecoin/ni_porep.sh):
# their common set-up, a daemon on test parameters, its start and its stop.

# bench_setup NAME TAG BUILD [NEEDS_DAEMON]: the variables every benchmark
# uses: build=BUILD, bench, daemon, py; BUDGET (default 16GiB); PARAMS (the
# cached test parameters: $CUZK_TEST_PARAM_CACHE or BUILD/test-params) and
# OUTDIR (default a new /tmp/TAG.XXXXXX), both made and absolute (the daemon
# takes only an absolute socket path); say() for NAME's progress lines.
# Exits 2 when cuzk-bench, or (NEEDS_DAEMON 1, the default) cuzk-daemon,
# is not built.
bench_setup() {
  build=$3
  bench="$build/cuzk-bench"
  daemon="$build/cuzk-daemon"
  py=/usr/bin/python3
  BUDGET=${BUDGET:-16GiB}
  PARAMS=${PARAMS:-${CUZK_TEST_PARAM_CACHE:-$build/test-params}}
  OUTDIR=${OUTDIR:-$(mktemp -d "/tmp/$2.XXXXXX")}
  bench_name=$1
  local f
  for f in "$bench" $([ "${4:-1}" = 0 ] || echo "$daemon"); do
    [ -x "$f" ] || { echo "$1: $f is not built" >&2; exit 2; }
  done
  mkdir -p "$OUTDIR" "$PARAMS"
  PARAMS=$(cd "$PARAMS" && pwd)
  OUTDIR=$(cd "$OUTDIR" && pwd)
}
say() { echo "$bench_name: $*" >&2; }

# daemon_config FILE PARAMS BUDGET WORKERS [MORE]: a config with test
# parameters cached in PARAMS, BUDGET memory, WORKERS gpu workers, then the
# TOML lines MORE, then those of $DAEMON_TOML (any benchmark's A/B switch:
# DAEMON_TOML=$'[pipeline]\nenabled = false'). Official files and recorded
# shapes live in $PARAM_CACHE (default: an empty folder beside FILE, so no
# official file is found).
daemon_config() {
  cat >"$1" <<EOF
[srs]
param_cache = "${PARAM_CACHE:-$(dirname "$1")/no-official-params}"
allow_test_params = true
test_param_cache = "$2"
[memory]
total_budget = "$3"
[gpus]
gpu_workers_per_device = $4
${5:-}
${DAEMON_TOML:-}
EOF
}

# daemon_start DAEMON CONFIG SOCK LOG: start it on the unix socket SOCK,
# stderr to LOG, its pid in $pid; return once it listens (exit 1 with its
# log if it dies first or does not listen within 30 s).
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
