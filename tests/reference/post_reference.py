"""An independent reference for Filecoin fallback PoSt public inputs
(WinningPoSt and WindowPoSt), standard library only, written from
rust-fil-proofs' definitions and not from this project's C:

  storage-proofs-post fallback/vanilla.rs  generate_leaf_challenge:
      LE_u64(SHA-256(randomness || sector_id u64 LE || challenge_index u64 LE)[0..8])
      mod (sector_size / 32)
  fallback/utils.rs get_challenge_index: sector_index * challenge_count + n for
      ApiVersion 1.0.0 / 1.1.0, n for 1.2.0
  fallback/compound.rs generate_public_inputs: per sector slot comm_r, then each
      challenge's leaf index; the last partition padded by repeating its last slot
  filecoin-proofs parameters.rs winning_post_setup_params: WinningPoSt's 66
      challenges over 1 sector become 66 slots of 1 challenge (slot i is sector
      index i), constants.rs: WINDOW_POST_SECTOR_COUNT 2 / 2349 / 2300,
      WINDOW_POST_CHALLENGE_COUNT 10.

It checks itself against real data first: the official WinningPoSt 2 KiB
vector's 132 public inputs and the ten leaves of the real 32 GiB WindowPoSt
vanilla proof. Then it compares `cuzk-bench post-inputs` with itself for
every registered PoSt proof (0-14), several randomness values, sector ids,
comm_r values and partitions, and prints "N passed, M failed".

Usage: post_reference.py path/to/cuzk-bench   (run from the repository root)"""
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile

R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
KIB, MIB, GIB = 1 << 10, 1 << 20, 1 << 30
SIZES = [2 * KIB, 8 * MIB, 512 * MIB, 32 * GIB, 64 * GIB]
WINDOW_SECTORS = [2, 2, 2, 2349, 2300]


def kind(rp):
    """(winning, sector_size, api_1_2, challenge_count, sector_count) of a
    RegisteredPoStProof number (filecoin-ffi numbering)."""
    if rp < 5:
        return True, SIZES[rp], False, 1, 66
    i = (rp - 5) % 5
    return False, SIZES[i], rp >= 10, 10, WINDOW_SECTORS[i]


def leaf(randomness, sector_id, challenge_index, sector_size):
    h = hashlib.sha256(randomness + sector_id.to_bytes(8, "little") +
                       challenge_index.to_bytes(8, "little")).digest()
    return int.from_bytes(h[:8], "little") % (sector_size // 32)


def public_inputs(rp, randomness, partition, sectors):
    """sectors: [(sector_id, comm_r bytes)] of the partition. Returns the
    inputs (ONE excluded) as 32-byte little-endian strings."""
    winning, size, api12, cc, sc = kind(rp)
    slots = [sectors[0]] * sc if winning else list(sectors)
    out = []
    for i, (sid, comm_r) in enumerate(slots):
        sector_index = (0 if winning else partition * sc) + i
        out.append(comm_r)
        for n in range(cc):
            ci = n if api12 else sector_index * cc + n
            out.append(leaf(randomness, sid, ci, size).to_bytes(32, "little"))
    while len(out) < sc * (1 + cc):  # compound.rs: "duplicate last one"
        out.extend(out[-(1 + cc):])
    return out


passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what, flush=True)


def self_check():
    v = json.load(open("tests/vectors/winningpost-2kib/vector.json"))
    want = json.load(open("tests/vectors/winningpost-2kib/public_inputs.json"))["inputs"]
    comm_r = bytes.fromhex(v["sealed_cid_bytes_hex"])[-32:]
    got = public_inputs(v["post_proof_type"], bytes.fromhex(v["randomness_hex"]), 0,
                        [(v["sector_number"], comm_r)])
    check([g.hex() for g in got] == want, "the reference reproduces the official WinningPoSt inputs")
    # The real 32 GiB WindowPoSt vanilla proof's README: zero randomness,
    # sector 1, its ten leaves (rp 8, ApiVersion 1.0.0, sector index 0).
    leaves = [leaf(bytes(32), 1, n, 32 * GIB) for n in range(10)]
    check(leaves == [707914199, 439148358, 967788220, 548708700, 1061661429, 6202012,
                     1055504637, 389535735, 1000069704, 600088878],
          "the reference gives the real 32 GiB vanilla proof's ten leaves")


def c_inputs(bench, rp, randomness, partition, sectors):
    prover = "e807" + "00" * 30
    with tempfile.NamedTemporaryFile("w", suffix=".sectors", delete=False) as f:
        f.write(",".join("%d:%s" % (sid, comm_r.hex()) for sid, comm_r in sectors))
    arg = "@" + f.name
    r = subprocess.run([bench, "post-inputs", "--registered-proof", str(rp), "--randomness",
                        randomness.hex(), "--prover-id", prover, "--sectors", arg, "--partition",
                        str(partition)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    os.unlink(f.name)
    if r.returncode != 0:
        return None, r.stderr.decode(errors="replace").strip()
    return [bytes.fromhex(x.decode()) for x in r.stdout.split()], ""


def canonical(rng):
    """32 random bytes that are a canonical Fr (as comm_r and randomness must be)."""
    while True:
        b = bytes(rng.getrandbits(8) for _ in range(32))
        if int.from_bytes(b, "little") < R:
            return b


def main():
    bench = sys.argv[1]
    self_check()
    rng = random.Random(20261201)  # fixed: the same cases every run
    for rp in range(15):
        winning, size, api12, cc, sc = kind(rp)
        for trial in range(3):
            randomness = bytes(32) if trial == 0 else canonical(rng)
            if winning:
                n, partition = 1, 0
            else:
                n = min(sc, [1, sc, 3][trial])  # one, a full partition, a few (padded)
                partition = [0, 1, 7][trial]
            sectors = [(rng.getrandbits(40), canonical(rng)) for _ in range(n)]
            got, err = c_inputs(bench, rp, randomness, partition, sectors)
            want = public_inputs(rp, randomness, partition, sectors)
            what = "registered proof %d, trial %d (%d sectors, partition %d)" % (rp, trial, n, partition)
            check(got is not None and got == want, what + (": " + err if err else ""))
    # Randomness that is not a canonical Fr is refused, not reduced.
    got, err = c_inputs(bench, 0, (R + 1).to_bytes(32, "little"), 0, [(1, bytes(32))])
    check(got is None and "randomness" in err, "randomness >= r is refused (%s)" % err)
    print("post_reference: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


main()
