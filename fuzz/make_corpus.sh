#!/usr/bin/env bash
# Writes the seed corpora fuzz/corpus/<target>/ from real inputs, so that
# every fuzzer starts from well-formed data and mutates inward:
#   - a 2 KiB C1 JSON and its Curio wrapper (cuzk-bench gen-vanilla porep);
#   - WinningPoSt 2 KiB vanilla bincode (cuzk-bench gen-vanilla winning-post)
#     and Curio's real 32 GiB WindowPoSt vanilla proof;
#   - a SnapDeals 2 KiB PartitionProof (cuzk-bench gen-vanilla snap-prove);
#   - the real WinningPoSt vk and proof (filecoin-ffi) and the 2 KiB PoRep vk
#     and proof of tests/vectors, whole and cut into their points and
#     field elements;
#   - a small complete parameter file (cuzk-bench prove --synthetic) and a
#     parameter-file head;
#   - the example daemon config;
#   - the tiny circom circuit of tests/data/circom: its snarkjs keys
#     (Groth16 over bls12-381 and bn128, PLONK), witnesses, R1CS and JSON.
# Each seed carries the framing byte its target reads (see each fuzz_*.c).
# Usage: bash fuzz/make_corpus.sh path/to/cuzk-bench   (from the repo root)
# The C1s and PoSt proofs come from fixed ids and randomness, so a rerun
# writes the same bytes; the parameter file differs (fresh toxic waste).
set -euo pipefail
BENCH=${1:?usage: $0 path/to/cuzk-bench}
VEC=tests/vectors
OUT=fuzz/corpus
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ -d "$VEC/winningpost-2kib" ] || { echo "make_corpus: $VEC/winningpost-2kib missing" >&2; exit 1; }
rm -rf "$OUT"
mkdir -p "$OUT"

PROVER=0100000000000000000000000000000000000000000000000000000000000000
"$BENCH" gen-vanilla porep --sector-size 2KiB --sector-id 1 --prover-id $PROVER \
  --out "$TMP/c1.json" >/dev/null
"$BENCH" gen-vanilla porep --sector-size 2KiB --sector-id 1 --prover-id $PROVER --curio \
  --out "$TMP/c1-curio.json" >/dev/null
"$BENCH" gen-vanilla winning-post --sector-size 2KiB --bincode-dir "$TMP/wp-bin" \
  --out "$TMP/wp" >/dev/null
"$BENCH" gen-vanilla snap-prove --sector-size 2KiB --bincode-dir "$TMP/snap-bin" \
  --out "$TMP/snap" >/dev/null
"$BENCH" prove --synthetic sparse --log-constraints 3 --threads 1 --cache-dir "$TMP/params" \
  >/dev/null 2>&1
params=$(ls "$TMP"/params/*.params)

# The byte-level cutting is Python (standard library): offsets follow the
# bellperson vk layouts (uncompressed: 96 G1, 192 G2; compressed: 48, 96).
python3 - "$OUT" "$TMP" "$VEC" "$params" <<'PY'
import binascii, json, os, sys
out, tmp, vec, params = sys.argv[1:5]

def put(target, name, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

def read(p):
    with open(p, "rb") as f:
        return f.read()

c1, c1w = read(tmp + "/c1.json"), read(tmp + "/c1-curio.json")
put("fuzz_c1_json", "c1-2kib.json", c1)
put("fuzz_c1_json", "c1-2kib-curio.json", c1w)
# '!' + (pos_hi, pos_lo, byte) triples: edits of the target's own synthetic
# C1, small inputs that reach deep fields (fuzz_c1_json.c).
put("fuzz_c1_json", "edit-none", b"!")
put("fuzz_c1_json", "edit-digit", b"!\x01\x00" + b"7")

put("fuzz_snap_vanilla", "update-2kib-partition0.bincode",
    read(tmp + "/snap-bin/partition-0.vproof"))
put("fuzz_snap_vanilla", "edit-none", b"!")

put("fuzz_post_vanilla", "winning-2kib-sector1.bincode", read(tmp + "/wp-bin/sector-1.vproof"))
put("fuzz_post_vanilla", "window-32gib-curio-sector1.bincode",
    read(vec + "/windowpost-32gib-vanilla/sector1.vproof"))

wvk = read(vec + "/winningpost-2kib/winning-post-2kib.vk")        # uncompressed
pvk = binascii.unhexlify(open(vec + "/porep-2kib-v1_1/vk.hex").read().strip())  # compressed
wproof = binascii.unhexlify(json.load(open(vec + "/winningpost-2kib/vector.json"))["proof_bytes_hex"])
pproof = binascii.unhexlify(json.load(open(vec + "/porep-2kib-v1_1/vector.json"))["proof_hex"])
assert len(wproof) == len(pproof) == 192

# fuzz_vk_decode: byte 0 bit 0 compressed, bit 1 trailing bytes allowed.
put("fuzz_vk_decode", "winning-2kib.vk", b"\x00" + wvk)
put("fuzz_vk_decode", "winning-2kib-used.vk", b"\x02" + wvk + b"\x00" * 7)
put("fuzz_vk_decode", "porep-2kib-compressed.vk", b"\x01" + pvk)
put("fuzz_vk_decode", "porep-2kib-compressed-used.vk", b"\x03" + pvk + b"\x00" * 7)

# fuzz_proof_decode: 192 bytes as they are; 193 = flag + mask onto the real proof.
put("fuzz_proof_decode", "winning-2kib.proof", wproof)
put("fuzz_proof_decode", "porep-2kib.proof", pproof)
put("fuzz_proof_decode", "winning-2kib-zero-mask", b"\x00" * 193)

# Points: G1 first 48 bytes compressed, first 96 uncompressed; G2 96 / 192.
# Uncompressed vk: alpha_g1 0..96, beta_g1 96..192, beta_g2 192..384,
# gamma_g2 384..576, delta_g1 576..672, delta_g2 672..864.
put("fuzz_g1_decode", "winning-vk-alpha-uncompressed", wvk[0:96])
put("fuzz_g1_decode", "winning-vk-delta-uncompressed", wvk[576:672])
put("fuzz_g1_decode", "winning-proof-a-compressed", wproof[0:48])
put("fuzz_g1_decode", "porep-proof-c-compressed", pproof[144:192])
put("fuzz_g1_decode", "porep-vk-alpha-compressed", pvk[0:48])
put("fuzz_g2_decode", "winning-vk-beta-uncompressed", wvk[192:384])
put("fuzz_g2_decode", "winning-vk-delta-uncompressed", wvk[672:864])
put("fuzz_g2_decode", "winning-proof-b-compressed", wproof[48:144])
put("fuzz_g2_decode", "porep-vk-beta-compressed", pvk[96:192])

# Fp (48 bytes big-endian: a coordinate of an uncompressed point) and Fr
# (32 bytes little-endian: a real public input).
put("fuzz_fp_decode", "winning-vk-alpha-x", wvk[0:48])
put("fuzz_fp_decode", "winning-vk-alpha-y", wvk[48:96])
for i, h in enumerate(json.load(open(vec + "/porep-2kib-v1_1/public_inputs.json"))["inputs"][:3]):
    put("fuzz_fp_decode", "porep-input-%d-fr" % i, binascii.unhexlify(h))

# fuzz_params_decode: byte 0 bit 0 checked; bit 1 clear: the file itself.
p = read(params)
put("fuzz_params_decode", "synthetic-sparse-3.params", b"\x00" + p)
put("fuzz_params_decode", "synthetic-sparse-3-checked.params", b"\x01" + p)
put("fuzz_params_decode", "synthetic-sparse-3-head", b"\x00" + p[:1024])

# fuzz_json_scan: byte 0 % 32 = the program's length (0: none), then text.
put("fuzz_json_scan", "porep-vector", b"\x00" + read(vec + "/porep-2kib-v1_1/vector.json"))
put("fuzz_json_scan", "window-public", b"\x00" + read(vec + "/windowpost-32gib-vanilla/public.json"))
put("fuzz_json_scan", "c1-head", b"\x00" + c1[:4096])

put("fuzz_config", "cuzk.example.toml", read("tools/cuzk-daemon/cuzk.example.toml"))

# circom / snarkjs files (tests/data/circom, made by tests/circom/gen.sh).
# fuzz_zkey_decode: byte 0 bit 0 = subgroup checks; fuzz_snarkjs_json: byte
# 0 % 3 = proof, public signals, verification key.
cd = "tests/data/circom/"
put("fuzz_zkey_decode", "tiny.zkey", b"\x00" + read(cd + "tiny/circuit.zkey"))
put("fuzz_zkey_decode", "tiny-checked.zkey", b"\x01" + read(cd + "tiny/circuit.zkey"))
put("fuzz_zkey_decode", "tiny-bn128.zkey", b"\x00" + read(cd + "tiny_bn128/circuit.zkey"))
put("fuzz_zkey_decode", "tiny-plonk.zkey", b"\x00" + read(cd + "tiny_plonk/circuit.zkey"))
put("fuzz_wtns_decode", "tiny.wtns", read(cd + "tiny/witness.wtns"))
put("fuzz_wtns_decode", "tiny-bn128.wtns", read(cd + "tiny_bn128/witness.wtns"))
put("fuzz_r1cs_decode", "tiny.r1cs", read(cd + "tiny/circuit.r1cs"))
put("fuzz_r1cs_decode", "tiny-bn128.r1cs", read(cd + "tiny_bn128/circuit.r1cs"))
put("fuzz_snarkjs_json", "tiny-proof.json", b"\x00" + read(cd + "tiny/snarkjs_proof.json"))
put("fuzz_snarkjs_json", "tiny-public.json", b"\x01" + read(cd + "tiny/snarkjs_public.json"))
put("fuzz_snarkjs_json", "tiny-vkey.json", b"\x02" + read(cd + "tiny/verification_key.json"))
PY
for d in "$OUT"/*/; do echo "$(basename "$d"): $(ls "$d" | wc -l) seeds, $(du -sk "$d" | cut -f1) KiB"; done
