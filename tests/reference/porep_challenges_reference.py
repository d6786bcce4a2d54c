"""PoRep challenges of the three rules, written from storage-proofs-porep's
stacked/vanilla/challenges.rs (InteractiveChallenges, NiChallenges,
SynthChallengeGenerator) with Python's hashlib (SHA-256, keyed BLAKE2b) and
the cryptography package's ChaCha20, and compared with
`cuzk-bench porep-challenges` for every registered sector size, several
partitions and random ids. Nothing here comes from cuzk's C.

Usage: porep_challenges_reference.py path/to/cuzk-bench
       porep_challenges_reference.py --c1 FILE   (the nodes a C1's vanilla
       proofs open equal its registered proof's challenges)"""
import hashlib
import random
import subprocess
import sys

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

BENCH = sys.argv[1] if len(sys.argv) > 1 else None
SIZES = {"2KiB": 2048, "8MiB": 8 << 20, "512MiB": 512 << 20, "32GiB": 32 << 30, "64GiB": 64 << 30}
PER_PARTITION = {"2KiB": 2, "8MiB": 2, "512MiB": 2, "32GiB": 18, "64GiB": 18}
NONCE = b"synth-porep\x00"


def to_challenge(b, nodes):
    """bigint_to_challenge: LE integer mod (nodes - 1) + 1."""
    return int.from_bytes(b, "little") % (nodes - 1) + 1


def interactive(nodes, replica_id, seed, k, count):
    return [to_challenge(hashlib.sha256(replica_id + seed + (count * k + i).to_bytes(4, "little"))
                         .digest(), nodes) for i in range(count)]


def ni(nodes, replica_id, comm_r, k, count):
    tag = b"filecoin.io|PoRep|1|NonInteractive|1"
    return [to_challenge(hashlib.sha256(tag + replica_id + comm_r
                                        + (count * k + i).to_bytes(4, "little")).digest(), nodes)
            for i in range(count)]


def keystream(key, offset, n):
    """ChaCha20 (RFC 8439) keystream bytes [offset, offset + n); the
    cryptography package takes the 32-bit counter in the nonce's first 4
    bytes, so start at offset's block and drop the bytes before it."""
    block, skip = divmod(offset, 64)
    c = Cipher(algorithms.ChaCha20(key, block.to_bytes(4, "little") + NONCE), mode=None)
    return c.encryptor().update(bytes(skip + n))[skip:]


def synth_key(tag, a, b):
    return hashlib.blake2b(a + b, digest_size=32, key=tag).digest()


def synth_indexes(nodes, replica_id, seed, k, count):
    n_synth = min(nodes, 1 << 18)
    key = synth_key(b"filecoin.io|PoRep|1|Synthetic|1|Selection", replica_id, seed)
    raw = keystream(key, 4 * count * k, 4 * count)
    return [int.from_bytes(raw[4 * i:4 * i + 4], "little") % n_synth for i in range(count)]


def synthetic(nodes, replica_id, comm_r, seed, k, count):
    key = synth_key(b"filecoin.io|PoRep|1|Synthetic|1|Generation", replica_id, comm_r)
    return [to_challenge(keystream(key, 32 * s, 32), nodes)
            for s in synth_indexes(nodes, replica_id, seed, k, count)]


def fr_bytes(rng):
    """32 random bytes below 2^254, as replica_id and comm_r are."""
    b = bytearray(rng.getrandbits(256).to_bytes(32, "little"))
    b[31] &= 0x3F
    return bytes(b)


def ours(rule, size, rid, seed=None, comm_r=None, k=0, count=None, indexes=False):
    args = [BENCH, "porep-challenges", "--rule", rule, "--sector-size", size,
            "--replica-id", rid.hex(), "--partition", str(k)]
    if seed is not None:
        args += ["--seed", seed.hex()]
    if comm_r is not None:
        args += ["--comm-r", comm_r.hex()]
    if count is not None:
        args += ["--count", str(count)]
    if indexes:
        args += ["--indexes"]
    out = subprocess.run(args, stdout=subprocess.PIPE, check=True).stdout.split()
    return [int(x) for x in out]


def c1_check(path):
    """The challenged nodes of a C1 (each proof's labeling node) against the
    rule of its registered proof, partition by partition."""
    import json
    c1 = json.load(open(path))
    name = c1["registered_proof"]
    size = next(s for s in SIZES if name.startswith("StackedDrg" + s + "V"))
    nodes = SIZES[size] // 32
    rid, comm_r, seed = (bytes(c1[k]) for k in ("replica_id", "comm_r", "seed"))
    parts = next(iter(c1["vanilla_proofs"].values()))
    bad = 0
    for k, part in enumerate(parts):
        got = [proof["labeling_proofs"][0]["node"] for proof in part]
        n = len(got)
        if "NonInteractive" in name:
            want = ni(nodes, rid, comm_r, k, n)
        elif "Synthetic" in name:
            want = synthetic(nodes, rid, comm_r, seed, k, n)
        else:
            want = interactive(nodes, rid, seed, k, n)
        if got != want:
            bad += 1
            print("FAIL: %s partition %d opens %s, the rule gives %s" % (name, k, got, want))
    print("c1_check %s: %d partitions, %d differ" % (name, len(parts), bad))
    return 1 if bad else 0


def main():
    passed = failed = 0

    def check(cond, what):
        nonlocal passed, failed
        if cond:
            passed += 1
        else:
            failed += 1
            print("FAIL:", what)


    rng = random.Random(92)
    for size, sector in SIZES.items():
        nodes = sector // 32
        per = PER_PARTITION[size]
        for trial in range(3):
            rid, seed, comm_r = fr_bytes(rng), rng.getrandbits(256).to_bytes(32, "little"), fr_bytes(rng)
            for k in (0, 1, 9 if per == 18 else 12):
                what = "%s trial %d partition %d" % (size, trial, k)
                check(ours("interactive", size, rid, seed=seed, k=k) ==
                      interactive(nodes, rid, seed, k, per), "interactive " + what)
                check(ours("ni", size, rid, comm_r=comm_r, k=k) ==
                      ni(nodes, rid, comm_r, k, per), "ni " + what)
                check(ours("synthetic", size, rid, seed=seed, comm_r=comm_r, k=k, indexes=True) ==
                      synth_indexes(nodes, rid, seed, k, per), "synthetic indexes " + what)
                check(ours("synthetic", size, rid, seed=seed, comm_r=comm_r, k=k) ==
                      synthetic(nodes, rid, comm_r, seed, k, per), "synthetic " + what)
        # A longer run: keystream offsets across many ChaCha20 blocks.
        rid, seed, comm_r = fr_bytes(rng), fr_bytes(rng), fr_bytes(rng)
        check(ours("synthetic", size, rid, seed=seed, comm_r=comm_r, k=3, count=500) ==
              synthetic(nodes, rid, comm_r, seed, 3, 500), "synthetic %s, 500 challenges" % size)
        check(ours("ni", size, rid, comm_r=comm_r, k=125, count=18) ==
              ni(nodes, rid, comm_r, 125, 18), "ni %s, partition 125" % size)
    # The synthetic set of a 2 KiB sector has 64 challenges (min(nodes, 2^18)),
    # so every index is below 64.
    rid, seed, comm_r = fr_bytes(rng), fr_bytes(rng), fr_bytes(rng)
    idx = ours("synthetic", "2KiB", rid, seed=seed, comm_r=comm_r, count=1000, indexes=True)
    check(max(idx) < 64 and len(set(idx)) == 64, "2 KiB: 64 synthetic challenges, all selected")
    print("porep_challenges_reference: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--c1":
        sys.exit(c1_check(sys.argv[2]))
    sys.exit(main())
