#!/usr/bin/env bash
# cuzk-bench circuit-info --kind update: the update circuit's size against
# rust-fil-proofs' storage-proofs-update tests/circuit.rs assertions (1 KiB
# 1,248,389, 2 KiB 1,705,039 constraints; 5 inputs with ONE), by
# registered proof and by (test) sector size, and one clear line for a size
# rust-fil-proofs does not allow.
# Usage: test_snap_circuit_info.sh path/to/cuzk-bench   (run from the repo root)
set -u
BENCH=${1:?usage: $0 path/to/cuzk-bench}
source "$(dirname "${BASH_SOURCE[0]}")/../../expect_exit.sh"

expect 0 "2 KiB by registered proof" "circuit.constraints 1705039 constraints" \
  "$BENCH" circuit-info --kind update --registered-proof 0
expect 0 "2 KiB inputs" "circuit.inputs 5 inputs" \
  "$BENCH" circuit-info --kind update --sector-size 2KiB
expect 0 "1 KiB (a test size)" "circuit.constraints 1248389 constraints" \
  "$BENCH" circuit-info --kind update --sector-size 1KiB
expect 0 "8 MiB: 4 partitions" "circuit.partitions 4 partitions" \
  "$BENCH" circuit-info --kind update --registered-proof 1
expect 2 "3 KiB is no size" "no registered update proof" \
  "$BENCH" circuit-info --kind update --sector-size 3KiB
expect 2 "update 5 is unknown" "no registered update proof" \
  "$BENCH" circuit-info --kind update --registered-proof 5
expect 2 "--witness is PoSt only" "are for PoSt" \
  "$BENCH" circuit-info --kind update --registered-proof 0 --witness
expect_report test_snap_circuit_info
