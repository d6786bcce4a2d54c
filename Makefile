# The two commands a newcomer needs: `make test` and `make demo`.
# Each installs the Debian packages it is missing, then builds what it needs.
# prometheus and python3-yaml are tests/monitoring's (promtool, and a Prometheus
# server the tests start on a free loopback port of their own: the package's
# service, running or not, is never used).
BUILD       ?= build
JOBS        ?= $(shell nproc)
DEB_PACKAGES = build-essential cmake pkg-config libjansson-dev libssl-dev clang libclang-rt-14-dev \
               libgrpc-dev libprotobuf-c-dev protobuf-c-compiler python3-grpcio python3-grpc-tools \
               python3-prometheus-client python3-cryptography systemd dpkg-dev golang-go \
               prometheus python3-yaml

.PHONY: all deps build test test-e2e demo test-8mib bench-32gib test-asan fuzz-build fuzz-smoke fuzz fuzz-corpus bench install package clean

all: build

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing: $$missing"; \
	  SUDO=$$( [ $$(id -u) -eq 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $$missing; \
	fi
	@# snarkjs and circom2 for test_circom_snarkjs (tests/circom/package-lock.json)
	@if command -v npm >/dev/null && [ ! -x tests/circom/node_modules/.bin/snarkjs ]; then \
	  (cd tests/circom && npm ci --no-audit --no-fund --loglevel=error) || echo "npm ci failed: test_circom_snarkjs will be skipped"; \
	fi

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# Every unit test and the end-to-end checks that matter most (a proof of
# each kind in process and PoRep and PoSt through the daemon); the rest of
# the end-to-end checks (ctest label e2e) are `make test-e2e`'s. Both share
# the test parameters made once in $(BUILD)/test-params.
test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -LE e2e

test-e2e: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L e2e

# The main job on an embedded default, no outside data: seal a 2 KiB sector,
# write its C1, prove it (PoRep C2; test parameters are generated on the
# first run, a few minutes on 2 cores, then cached), verify the proof.
DEMO        = $(BUILD)/demo
DEMO_PROVER = 0100000000000000000000000000000000000000000000000000000000000000
demo: build
	@mkdir -p $(DEMO)
	@echo "== cuzk demo 1/3: seal a 2 KiB sector (StackedDrg2KiBV1_1) and write its C1"
	$(BUILD)/cuzk-bench gen-vanilla porep --sector-size 2KiB --sector-id 1 \
	  --prover-id $(DEMO_PROVER) --out $(DEMO)/c1.json
	@echo "== cuzk demo 2/3: PoRep C2 (every proof is verified before it is written)"
	$(BUILD)/cuzk-bench prove --c1 $(DEMO)/c1.json --out $(DEMO)/proof.bin --vk-out $(DEMO)/vk.bin
	@echo "== cuzk demo 3/3: verify the 192-byte proof as a chain verifier would"
	$(BUILD)/cuzk-bench verify-seal --vk $(DEMO)/vk.bin --c1 $(DEMO)/c1.json \
	  --prover-id $(DEMO_PROVER) --sector-id 1 --proof $(DEMO)/proof.bin

# The 8 MiB round trips (seal, test parameters for each circuit, prove,
# verify) of PoRep, WinningPoSt and WindowPoSt: too slow for the suite;
# their parameters are cached like 2 KiB's.
test-8mib: build
	CUZK_SECTOR_SIZE=8MiB bash tests/filecoin/porep/test_porep_c2.sh $(BUILD)/cuzk-bench
	CUZK_SECTOR_SIZE=8MiB bash tests/filecoin/porep/test_porep_sparse_c2.sh $(BUILD)/cuzk-bench
	CUZK_SECTOR_SIZE=8MiB bash tests/filecoin/post/test_post_roundtrip.sh $(BUILD)/cuzk-bench
	CUZK_SECTOR_SIZE=8MiB bash tests/filecoin/snap/test_snap_roundtrip.sh $(BUILD)/cuzk-bench

# A 32 GiB PoRep C2 proved and verified from a test key larger than memory
# (bench/filecoin/bench_32gib.sh): hours, resumable, not in CI; its output
# and the key stay in $$CUZK_32GIB_DIR (/var/tmp/cuzk-32gib).
bench-32gib: build
	bash bench/filecoin/bench_32gib.sh $(BUILD)/cuzk-bench

# The same suite under AddressSanitizer and UndefinedBehaviorSanitizer,
# without the slow scripts but for the PoRep round trips (label asan: the
# 2 KiB C2 in-process and through the daemon). Those prove on the Release
# build's cached test parameters (made by `make test`, else by one Release
# prove here) rather than setting them up again instrumented. Without the
# CUDA kernels: nvcc does not instrument them and no GPU runs them here.
ASAN_PARAMS = $(abspath $(BUILD))/test-params
test-asan: build
	cmake -S . -B $(BUILD)-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUZK_SANITIZE=ON -DCUZK_CUDA=OFF
	cmake --build $(BUILD)-asan -j $(JOBS)
	cd $(BUILD)-asan && ctest --output-on-failure -j $(JOBS) -LE slow
	@if ! ls $(ASAN_PARAMS)/cuzk-TEST-ONLY-porep-*.params >/dev/null 2>&1; then \
	  echo "test parameters for the PoRep round trips: one Release prove"; \
	  $(BUILD)/cuzk-bench --quiet gen-vanilla porep --sector-size 2KiB --out $(BUILD)/asan-c1.json && \
	  $(BUILD)/cuzk-bench --quiet prove --c1 $(BUILD)/asan-c1.json --cache-dir $(ASAN_PARAMS) \
	    --out $(BUILD)/asan-proof.bin; \
	fi
	cd $(BUILD)-asan && CUZK_TEST_PARAM_CACHE=$(ASAN_PARAMS) ctest --output-on-failure -j $(JOBS) -L asan

# libFuzzer runs of every decoder (fuzz/fuzz_*.c) from its seed corpus
# fuzz/corpus/<target>/ (fuzz/run.sh): executions and coverage per target;
# fails when a target is missing, has no seeds, crashes, or none ran.
# fuzz-smoke is CI's short run; `make fuzz FUZZ_SECONDS=600` a campaign.
ifneq ($(filter fuzz,$(MAKECMDGOALS)),)
FUZZ_SECONDS ?= 600
endif
FUZZ_SECONDS ?= 20
fuzz-build: deps
	CC=clang cmake -S . -B $(BUILD)-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUZK_FUZZ=ON
	cmake --build $(BUILD)-fuzz -j $(JOBS) --target fuzzers

fuzz-smoke: fuzz-build
	bash fuzz/run.sh $(BUILD)-fuzz $(FUZZ_SECONDS)

fuzz: fuzz-build
	bash fuzz/run.sh $(BUILD)-fuzz $(FUZZ_SECONDS)

# Rewrite the committed seeds from real inputs (fuzz/make_corpus.sh).
fuzz-corpus: build
	bash fuzz/make_corpus.sh $(BUILD)/cuzk-bench

bench: build
	$(BUILD)/cuzk-bench ec

# `make install [PREFIX=/usr] [DESTDIR=/tmp/stage]`: binaries, layer archives,
# headers, cuzk.pc, the unit, the example config (docs/operating.md).
PREFIX      ?= /usr/local
install: build
	DESTDIR=$(DESTDIR) cmake --install $(BUILD) --prefix $(PREFIX)

# `make package`: cuzk_<version>_<arch>.deb in $(BUILD) (cpack -G DEB).
package: build
	cd $(BUILD) && cpack -G DEB

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-fuzz
