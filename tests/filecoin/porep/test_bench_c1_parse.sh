#!/bin/bash
# cuzk-bench c1-parse prints well-formed "name value unit" lines for a
# synthetic C1 (plain and in Curio's wrapper), the -i short form works, and
# unknown sector sizes are refused with status 2.
set -euo pipefail
bench="$1"
source "$(dirname "${BASH_SOURCE[0]}")/../../bench_lines.sh"
out=$("$bench" c1-parse --sector-size 2KiB -i 3)
echo "$out"
bench_lines_well_formed "$out"
for k in bytes challenges parse_cpu_ms parse_wall_ms load_wall_ms; do
  grep -q "^c1_parse.2KiB.$k " <<<"$out" || { echo "missing $k"; exit 1; }
done
# Here-strings, not echo | grep -q: grep -q's early exit can SIGPIPE the
# writer, which pipefail turns into a failure.
grep -q "^c1_parse.2KiB.parse_rate .* MB/s$" <<<"$out"
grep -q "^c1_parse.2KiB.challenges 2 challenges$" <<<"$out"
curio=$("$bench" c1-parse --sector-size 8MiB --v1 --curio --iterations 1)
grep -q "^c1_parse.curio.8MiB.parse_rate .* MB/s$" <<<"$curio"
if "$bench" c1-parse --sector-size 4KiB >/dev/null 2>&1; then echo "4KiB accepted"; exit 1; fi
echo ok
