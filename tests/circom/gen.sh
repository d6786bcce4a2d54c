#!/usr/bin/env bash
# Generates the circom test circuits of tests/data/circom/ once; the outputs
# are committed, so that the tests need neither node nor the network.
#
#   cd tests/circom && npm ci && ./gen.sh [NAME...]     (default: all)
#
# For each circuit NAME (circuit_spec below):
#   circom2 0.2.23 (circom 2.2.3 as WebAssembly) compiles circuits/<template>
#   with `-p <prime>` into circuit.r1cs and a witness generator; node
#   computes witness.wtns from input.json.
#   Keyed circuits: a powers of tau with known toxic waste at exactly the
#   circuit's domain power (bench/snarkjs/fast_ptau.mjs) feeds `snarkjs
#   groth16 setup` (or `plonk setup`); one `snarkjs zkey contribute` makes
#   delta differ from the generator; snarkjs exports
#   verification_key.json, proves (snarkjs_proof.json, snarkjs_public.json)
#   and verifies that proof; prove_fixed.mjs proves again with fixed r and
#   s (snarkjs_proof_fixed_rs.json), for byte-for-byte comparisons.
#   Large circuits (sha256_512): only circuit.r1cs.xz, witness.wtns.xz,
#   input.json and snarkjs_public.json are kept (its key would be 45 MB);
#   the tests make its key with `cuzk-bench zkey-setup`.
# The toxic waste of these keys is known to the process that made them:
# they are for tests and benchmarks only.
# Environment: OUT (default ../data/circom), CACHE (default .cache; it must
# lie below this folder, the only one circom2 reads and writes).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$HERE"
OUT=${OUT:-$HERE/../data/circom}
CACHE=${CACHE:-$HERE/.cache}
SNARKJS=$HERE/node_modules/.bin/snarkjs
CIRCOM=$HERE/node_modules/.bin/circom2

log() { echo "gen.sh: $*" >&2; }
die() { log "error: $*"; exit 2; }
[ -x "$SNARKJS" ] && [ -x "$CIRCOM" ] || die "run npm ci in $HERE first"

# NAME -> "kind|curve|template file|main component|input JSON"
# kind: groth16 (all files), plonk / fflonk (their key only), big (no key).
circuit_spec() {
  case "$1" in
    sha256_512)
      echo "big|bls12381|sha256.circom|component main = Sha256(512);|$(sha_input)" ;;
    dense_chain)
      echo "groth16|bls12381|dense_chain.circom|component main {public [k]} = DenseChain(1023);|{\"x\": \"5\", \"k\": \"123456789\"}" ;;
    dense_chain_bench) # bench/snarkjs/circom.sh: 65,532 constraints, domain 2^16
      echo "big|bls12381|dense_chain.circom|component main {public [k]} = DenseChain(16383);|{\"x\": \"5\", \"k\": \"123456789\"}" ;;
    dense_chain_2p20) # the same at 2^20 = 1,048,576 constraints (domain 2^21)
      echo "big|bls12381|dense_chain.circom|component main {public [k]} = DenseChain(262144);|{\"x\": \"5\", \"k\": \"123456789\"}" ;;
    many_public)
      echo "groth16|bls12381|many_public.circom|component main {public [in]} = ManyPublic(600);|$(many_input 600)" ;;
    tiny)
      echo "groth16|bls12381|tiny.circom|component main {public [a]} = Tiny();|{\"a\": \"3\", \"b\": \"11\"}" ;;
    tiny_bn128)
      echo "groth16|bn128|tiny.circom|component main {public [a]} = Tiny();|{\"a\": \"3\", \"b\": \"11\"}" ;;
    tiny_plonk)
      echo "plonk|bls12381|tiny.circom|component main {public [a]} = Tiny();|{\"a\": \"3\", \"b\": \"11\"}" ;;
    tiny_fflonk)
      echo "fflonk|bn128|tiny.circom|component main {public [a]} = Tiny();|{\"a\": \"3\", \"b\": \"11\"}" ;;
    *) die "unknown circuit $1" ;;
  esac
}
# The committed ones; dense_chain_bench and dense_chain_2p20 are made on
# demand by bench/snarkjs/circom.sh into its cache.
ALL="tiny tiny_bn128 tiny_plonk tiny_fflonk many_public dense_chain sha256_512"

# 512 message bits: "abc" padded as SHA-256 pads a 24-bit message. The
# circuit hashes the 512 bits as a 512-bit message; test_circom_prove.sh
# checks the 256 output bits against python's hashlib of those 64 bytes.
sha_input() {
  node -e '
    const bits = [];
    const bytes = Buffer.alloc(64); bytes.write("abc"); bytes[3] = 0x80; bytes[63] = 24;
    for (const b of bytes) for (let i = 7; i >= 0; i--) bits.push(String((b >> i) & 1));
    console.log(JSON.stringify({ in: bits }));'
}
many_input() { node -e "console.log(JSON.stringify({ in: Array.from({length: $1}, (_, i) => String(i + 2)) }))"; }

# The domain power snarkjs picks (zkey_new.js): floor(log2(m)) + 1 with
# m = constraints + public inputs + outputs, read from the .r1cs header.
domain_power() {
  node -e '
    const b = require("fs").readFileSync(process.argv[1]);
    let o = 12;
    for (;;) {
      const id = b.readUInt32LE(o), size = Number(b.readBigUInt64LE(o + 4));
      if (id === 1) {
        const h = o + 12, n8 = b.readUInt32LE(h), p = h + 4 + n8;
        const nOut = b.readUInt32LE(p + 4), nPub = b.readUInt32LE(p + 8);
        const nCons = b.readUInt32LE(p + 24);
        console.log(Math.floor(Math.log2(nCons + nPub + nOut)) + 1);
        break;
      }
      o += 12 + size;
    }' "$1"
}

ptau_for() { # power curve -> a known-toxic-waste ptau for exactly that domain
  local f="$CACHE/pot$1_$2_fast.ptau"
  if [ ! -f "$f" ]; then
    cp "$HERE/../../bench/snarkjs/fast_ptau.mjs" "$CACHE/fast_ptau.mjs"
    log "powers of tau 2^$1 over $2 (known toxic waste)"
    node "$CACHE/fast_ptau.mjs" --power "$1" --curve "$2" --out "$f"
  fi
  echo "$f"
}

compile() { # name curve template main input dir
  local name=$1 curve=$2 tmpl=$3 main=$4 input=$5 dir=$6
  # circom2 reads includes only below its working directory (this one).
  printf 'pragma circom 2.0.0;\ninclude "../../circuits/%s";\n%s\n' "$tmpl" "$main" >"$dir/main.circom"
  log "$name: compiling for $curve"
  "$CIRCOM" "$dir/main.circom" --r1cs --wasm -p "$curve" -o "$dir" >"$dir/circom.log"
  mv "$dir/main.r1cs" "$dir/circuit.r1cs"
  echo "$input" >"$dir/input.json"
  node "$dir/main_js/generate_witness.js" "$dir/main_js/main.wasm" "$dir/input.json" \
    "$dir/witness.wtns"
}

groth16_keys() { # name curve dir: key, proofs, checked by snarkjs
  local name=$1 curve=$2 dir=$3 power ptau
  power=$(domain_power "$dir/circuit.r1cs")
  ptau=$(ptau_for "$power" "$curve")
  log "$name: groth16 setup at domain 2^$power"
  "$SNARKJS" groth16 setup "$dir/circuit.r1cs" "$ptau" "$dir/circuit_0.zkey" >"$dir/setup.log"
  "$SNARKJS" zkey contribute "$dir/circuit_0.zkey" "$dir/circuit.zkey" --name=cuzk-tests \
    -e="cuzk test $name $(date +%s%N) $RANDOM" >>"$dir/setup.log"
  "$SNARKJS" zkey export verificationkey "$dir/circuit.zkey" "$dir/verification_key.json" >/dev/null
  "$SNARKJS" groth16 prove "$dir/circuit.zkey" "$dir/witness.wtns" \
    "$dir/snarkjs_proof.json" "$dir/snarkjs_public.json"
  "$SNARKJS" groth16 verify "$dir/verification_key.json" "$dir/snarkjs_public.json" \
    "$dir/snarkjs_proof.json" >/dev/null || die "$name: snarkjs rejects its own proof"
  [ "$curve" = bls12381 ] || return 0
  node prove_fixed.mjs "$dir/circuit.zkey" "$dir/witness.wtns" "$dir/snarkjs_proof_fixed_rs.json"
}

plonk_key() { # kind name curve dir: a PLONK or FFLONK key (refusal tests)
  local power ptau
  power=$(( $(domain_power "$4/circuit.r1cs") + 3 )) # room for PLONK's gates
  ptau=$(ptau_for "$power" "$3")
  log "$2: $1 setup"
  "$SNARKJS" "$1" setup "$4/circuit.r1cs" "$ptau" "$4/circuit.zkey" >"$4/setup.log"
}

gen_one() {
  local name=$1 spec kind curve tmpl main input dir
  spec=$(circuit_spec "$name")
  IFS='|' read -r kind curve tmpl main input <<<"$spec"
  dir="$CACHE/$name"
  rm -rf "$dir"; mkdir -p "$dir" "$OUT/$name"
  compile "$name" "$curve" "$tmpl" "$main" "$input" "$dir"
  case "$kind" in
    groth16)
      groth16_keys "$name" "$curve" "$dir"
      cp "$dir"/{circuit.r1cs,witness.wtns,input.json,circuit.zkey,verification_key.json} \
        "$dir"/snarkjs_*.json "$OUT/$name/" ;;
    plonk|fflonk)
      plonk_key "$kind" "$name" "$curve" "$dir"
      cp "$dir/circuit.zkey" "$OUT/$name/" ;;
    big)
      node public_of.mjs "$dir/circuit.r1cs" "$dir/witness.wtns" "$dir/snarkjs_public.json"
      xz -9 -c "$dir/circuit.r1cs" >"$OUT/$name/circuit.r1cs.xz"
      xz -9 -c "$dir/witness.wtns" >"$OUT/$name/witness.wtns.xz"
      cp "$dir/input.json" "$dir/snarkjs_public.json" "$OUT/$name/" ;;
  esac
  log "$name: done ($(du -sh "$OUT/$name" | cut -f1))"
}

mkdir -p "$CACHE"
for name in ${@:-$ALL}; do gen_one "$name"; done
