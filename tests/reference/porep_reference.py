"""An independent reference for Filecoin StackedDRG (interactive PoRep) public
inputs, standard library only (hashlib's SHA-256 and BLAKE2b; ChaCha8 written
here), from rust-fil-proofs' and rust-filecoin-proofs-api's definitions, not
from this project's C:

  rust-filecoin-proofs-api registry.rs: REGISTERED_PROOF_IDS (seal proofs
      0-19), porep_id = id u64 LE || nonce u64 LE (0 for all) || 16 zero
      bytes; version(): ids 0-4 ApiVersion 1.0.0, 5-9 1.1.0, 10-19 1.2.0
      (10-14 SyntheticPoRep, 15-19 NonInteractivePoRep).
  storage-proofs-porep stacked/vanilla/params.rs generate_replica_id:
      SHA-256(prover_id || sector_id u64 BE || ticket || comm_d || porep_id),
      fr32 bytes_into_fr_repr_safe: byte 31 &= 0x3f.
  stacked/vanilla/challenges.rs InteractiveChallenges::derive: for partition
      k, j = per_partition * k + i, challenge = LE(SHA-256(replica_id || seed
      || j u32 LE)) mod (nodes - 1) + 1. No ApiVersion enters it.
  filecoin-proofs constants.rs / parameters.rs select_challenges:
      div_ceil(minimum challenges, partitions) per partition: 2 KiB, 8 MiB,
      512 MiB: 2 in 1 partition; 32 GiB, 64 GiB: div_ceil(176, 10) = 18 in 10.
  storage-proofs-core crypto/mod.rs derive_porep_domain_seed:
      SHA-256(tag || porep_id), tags "Filecoin_DRSample", "Filecoin_Feistel".
  drgraph.rs BucketGraph::parents (BASE_DEGREE 6): nodes 0 and 1 have all
      parents 0; otherwise ChaCha8Rng::from_seed(drg_seed[0..28] || node u32
      LE) and 5 bucket-sampled parents; the predecessor node - 1 goes last
      (1.0.0) or first (1.1.0, 1.2.0).
  stacked/vanilla/graph.rs correspondent (EXP_DEGREE 8) with crypto/feistel.rs:
      keys = the Feistel seed as 4 u64 LE (3 rounds use the first 3), round
      function BLAKE2b-512(right u64 BE || key u64 BE)[0..8] read BE & mask,
      cycle-walking over nodes * 8; the parent is transformed / 8, with the
      transformed value truncated to u32 first under 1.0.0.
  stacked/circuit/proof.rs StackedCompound::generate_public_inputs with
      gadgets/por.rs (private PoR: one input, the leaf index): replica_id,
      comm_d, comm_r, then per challenge c: c, the 6 DRG parents, the 8
      expander parents, c, c, c.

It checks itself against real data first: the polka-storage 2 KiB vector
(porep_id zero, ApiVersion 1.1.0: replica_id, challenges, parents and the 39
public inputs its real proof verifies under), the official parent cache
manifest (storage-proofs-porep/parent_cache.json: the file names of all ten
registered graphs 0-9, which hash their Feistel keys, and the digests of the
two whole 2 KiB caches, porep_id 0 under 1.0.0 and 5 under 1.1.0), the RFC
8439 ChaCha block, and properties rust-fil-proofs' own graph tests assert.
Then it compares cuzk-bench (porep-inputs, sdr-parents) with itself: every
registered seal proof's porep_id and ApiVersion, whole partitions' public
inputs for several porep_ids, ApiVersions, sizes, tickets, seeds and
partitions, the parents of sampled nodes (first, last, random) of every graph
from 2 KiB to 64 GiB, and a C1 that `cuzk-bench gen-vanilla porep` writes; and
cuzk-bench's whole 2 KiB and 8 MiB parent caches against the official
digests. Prints "N passed, M failed, K skipped".

Usage: porep_reference.py path/to/cuzk-bench | --self-check   (from the repository root)"""
import hashlib
import json
import math
import os
import random
import struct
import subprocess
import sys
import tempfile

R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
KIB, MIB, GIB = 1 << 10, 1 << 20, 1 << 30
SIZES = [2 * KIB, 8 * MIB, 512 * MIB, 32 * GIB, 64 * GIB]
SIZE_NAMES = ["2KiB", "8MiB", "512MiB", "32GiB", "64GiB"]
API_NAMES = {(1, 0): "1.0.0", (1, 1): "1.1.0", (1, 2): "1.2.0"}
BASE_DEGREE, EXP_DEGREE = 6, 8
M64, M32 = (1 << 64) - 1, (1 << 32) - 1

# storage-proofs-porep/parent_cache.json (rust-fil-proofs, v28): per official
# parent cache file, its sector size and the SHA-256 of the whole cache (per
# node the 14 parents as u32 LE, stacked/vanilla/cache.rs generate). The file
# name hashes the graph's identifier and its Feistel keys (cache.rs
# cache_path), so it names the porep_id the cache belongs to.
PARENT_CACHES = {
    "21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117":
        (32 * GIB, "93deeac5e3052b6927467d4b2641bb782f05491de18d510147c93eeedd8672da"),
    "2aa9c77c3e58259481351cc4be2079cc71e1c9af39700866545c043bfa30fb42":
        (512 * MIB, "3adcc092423aa76d6a7184016893406da44dd974b219a89cd3ece25e4e3018f5"),
    "3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899":
        (2 * KIB, "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d"),
    "4905486b7af19558ac3649bc6261411858b6add534438878c4ee3b29d8b9de0b":
        (64 * GIB, "2698b74eb2606b55b98d8b095e18b6320b47f46e00075956d48640ccd1641b03"),
    "494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b":
        (2 * KIB, "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97"),
    "5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5":
        (8 * MIB, "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab"),
    "7ba215a1d2345774ab90b8cb1158d296e409d6068819d7b8c7baf0b25d63dc34":
        (512 * MIB, "b5877d1963793efebc261fd8fde4dd6bc59e6b5c7abf52617a4ee023b8dc173a"),
    "8a99e8d6b6be7ab87a56b632e6739ff201c23ea14e99737c74690f0e265574d6":
        (64 * GIB, "2778a732ad46a7dc18e0564dfdf59fd321dcde74ab476fd6d3c4e6735d7cd89c"),
    "dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc":
        (8 * MIB, "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce"),
    "e1fa5d5b811ddbd118be3412c4a8c329156b8b8acc72632bca459455b5a05a13":
        (32 * GIB, "3c4f9841fcc75aed8c695800e58d08480629f25af3a2aefd81904181d75cc0b6"),
}


# ---- Registry (rust-filecoin-proofs-api registry.rs) ----------------------

def seal_proof(rp):
    """(sector_size, api, feature) of RegisteredSealProof id rp (0-19)."""
    size = SIZES[rp % 5]
    if rp < 5:
        return size, (1, 0), None
    if rp < 10:
        return size, (1, 1), None
    return size, (1, 2), "SyntheticPoRep" if rp < 15 else "NonInteractivePoRep"


def porep_id(rp, nonce=0):
    return rp.to_bytes(8, "little") + nonce.to_bytes(8, "little") + bytes(16)


def interactive_shape(sector_size):
    """(challenges per partition, partitions) of interactive PoRep."""
    minimum, partitions = (176, 10) if sector_size >= 32 * GIB else (2, 1)
    return 1 + (minimum - 1) // partitions, partitions


# ---- replica_id and challenges --------------------------------------------

def replica_id(prover_id, sector_id, ticket, comm_d, pid):
    h = bytearray(hashlib.sha256(prover_id + sector_id.to_bytes(8, "big") + ticket + comm_d +
                                 pid).digest())
    h[31] &= 0x3F
    return bytes(h)


def challenges(nodes, rid, seed, k, per_partition):
    out = []
    for i in range(per_partition):
        j = per_partition * k + i
        h = hashlib.sha256(rid + seed + j.to_bytes(4, "little")).digest()
        out.append(int.from_bytes(h, "little") % (nodes - 1) + 1)
    return out


# ---- ChaCha (rand_chacha's ChaCha8Rng: 64-bit block counter, stream 0) ----

def _rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & M32


def chacha_block(key, counter_and_nonce, rounds):
    """One ChaCha block: key is 32 bytes, counter_and_nonce the last four
    state words. Returns the 16 output words."""
    init = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    init += list(struct.unpack("<8I", key)) + list(counter_and_nonce)
    x = list(init)

    def qr(a, b, c, d):
        x[a] = (x[a] + x[b]) & M32
        x[d] = _rotl(x[d] ^ x[a], 16)
        x[c] = (x[c] + x[d]) & M32
        x[b] = _rotl(x[b] ^ x[c], 12)
        x[a] = (x[a] + x[b]) & M32
        x[d] = _rotl(x[d] ^ x[a], 8)
        x[c] = (x[c] + x[d]) & M32
        x[b] = _rotl(x[b] ^ x[c], 7)

    for _ in range(rounds // 2):
        qr(0, 4, 8, 12), qr(1, 5, 9, 13), qr(2, 6, 10, 14), qr(3, 7, 11, 15)
        qr(0, 5, 10, 15), qr(1, 6, 11, 12), qr(2, 7, 8, 13), qr(3, 4, 9, 14)
    return [(a + b) & M32 for a, b in zip(x, init)]


class ChaCha8Rng:
    """rand_chacha ChaCha8Rng::from_seed: the key is the seed, the block
    counter (words 12-13) starts at 0, the stream (words 14-15) is 0. next_u64
    is two consecutive words, the first the low half (rand_core BlockRng)."""

    def __init__(self, seed):
        self.key, self.counter, self.words = seed, 0, []

    def next_u32(self):
        if not self.words:
            c = self.counter
            self.words = chacha_block(self.key, [c & M32, c >> 32, 0, 0], 8)
            self.counter += 1
        return self.words.pop(0)

    def next_u64(self):
        lo = self.next_u32()
        return lo | (self.next_u32() << 32)


# ---- The stacked graph -----------------------------------------------------

class Graph:
    def __init__(self, nodes, pid, api):
        self.nodes, self.api = nodes, api
        self.drg_seed = hashlib.sha256(b"Filecoin_DRSample" + pid).digest()[:28]
        fs = hashlib.sha256(b"Filecoin_Feistel" + pid).digest()
        self.keys = [int.from_bytes(fs[i:i + 8], "little") for i in range(0, 32, 8)]
        n, log4 = 4, 1  # feistel.rs precompute(nodes * EXP_DEGREE)
        while n < nodes * EXP_DEGREE:
            n, log4 = n * 4, log4 + 1
        self.half_bits, self.right_mask = log4, (1 << log4) - 1
        self.left_mask = self.right_mask << log4

    def drg_parents(self, node):
        m_prime = BASE_DEGREE - 1
        if node < 2:
            return [0] * BASE_DEGREE
        rng = ChaCha8Rng(self.drg_seed + node.to_bytes(4, "little"))
        meta = node * m_prime
        # drgraph.rs: (metagraph_node as f64).log2().ceil(), exact here
        # (meta < 2^34, far from where f64 rounding could matter).
        n_buckets = math.ceil(math.log2(float(meta)))
        others = []
        for _ in range(m_prime):
            bucket = rng.next_u64() % n_buckets + 1
            largest = min(meta, 1 << bucket)
            smallest = max(2, largest >> 1)
            distance = smallest + rng.next_u64() % (largest - smallest + 1)
            mapped = (meta - distance) // m_prime
            others.append(node - 1 if mapped == node else mapped)
        if self.api == (1, 0):
            return others + [node - 1]
        return [node - 1] + others

    def _round(self, right, key):
        h = hashlib.blake2b(right.to_bytes(8, "big") + key.to_bytes(8, "big")).digest()
        return int.from_bytes(h[:8], "big") & self.right_mask

    def _encode(self, index):
        left, right = (index & self.left_mask) >> self.half_bits, index & self.right_mask
        for key in self.keys[:3]:
            left, right = right, left ^ self._round(right, key)
        return (left << self.half_bits) | right

    def permute(self, index):
        n = self.nodes * EXP_DEGREE
        u = self._encode(index)
        while u >= n:
            u = self._encode(u)
        return u

    def exp_parents(self, node):
        out = []
        for i in range(EXP_DEGREE):
            t = self.permute(node * EXP_DEGREE + i)
            out.append((t & M32) // EXP_DEGREE if self.api == (1, 0) else t // EXP_DEGREE)
        return out


def parent_cache_name(g):
    """cache.rs cache_path's hash for graph g as filecoin-proofs builds it:
    StackedBucketGraph<PoseidonHasher>, cache_entries = nodes."""
    ident = ("stacked_graph::StackedGraph{expansion_degree: %d base_graph: "
             "drgraph::BucketGraph{size: %d; degree: %d; hasher: poseidon_hasher} }" %
             (EXP_DEGREE, g.nodes, BASE_DEGREE))
    keys = b"".join(k.to_bytes(8, "little") for k in g.keys)
    return hashlib.sha256(b"poseidon_hasher" + ident.encode() + keys +
                          g.nodes.to_bytes(4, "little")).hexdigest()


def parent_cache_digest(g):
    h = hashlib.sha256()
    for n in range(g.nodes):
        h.update(struct.pack("<14I", *(g.drg_parents(n) + g.exp_parents(n))))
    return h.hexdigest()


def public_inputs(sector_size, pid, api, rid, comm_d, comm_r, seed, k):
    """The inputs (ONE excluded) of partition k, as 32-byte LE strings."""
    per, _ = interactive_shape(sector_size)
    g = Graph(sector_size // 32, pid, api)
    out = [rid, comm_d, comm_r]
    fr = lambda v: v.to_bytes(32, "little")
    for c in challenges(g.nodes, rid, seed, k, per):
        out.append(fr(c))
        out.extend(fr(p) for p in g.drg_parents(c))
        out.extend(fr(p) for p in g.exp_parents(c))
        out.extend([fr(c)] * 3)
    return out


# ---- Checks ---------------------------------------------------------------

passed = failed = skipped = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what, flush=True)


def self_check():
    """Everything here is data or a property from outside this project."""
    d = "tests/vectors/porep-2kib-v1_1/"
    v = json.load(open(d + "vector.json"))
    want = json.load(open(d + "public_inputs.json"))["inputs"]
    h = lambda key: bytes.fromhex(v[key])
    pid, api = h("porep_id_hex"), tuple(int(x) for x in v["api_version"].split(".")[:2])
    size = v["sector_size"]
    rid = replica_id(h("prover_id_hex"), v["sector_id"], h("ticket_hex"), h("comm_d_hex"), pid)
    der = v["derived"]
    check(rid.hex() == der["replica_id_hex"], "vector: replica_id")
    ch = challenges(size // 32, rid, h("seed_hex"), 0, interactive_shape(size)[0])
    check(ch == der["challenges"], "vector: challenges %s" % ch)
    g = Graph(size // 32, pid, api)
    check([g.drg_parents(c) for c in ch] == der["drg_parents"], "vector: DRG parents")
    check([g.exp_parents(c) for c in ch] == der["expander_parents"], "vector: expander parents")
    got = public_inputs(size, pid, api, rid, h("comm_d_hex"), h("comm_r_hex"), h("seed_hex"), 0)
    check([x.hex() for x in got] == want,
          "vector: the 39 public inputs its real proof verifies under")
    # The vector says 1.0.0 semantics or porep_id 5 do not verify: they must
    # give other inputs here too.
    alt = public_inputs(size, pid, (1, 0), rid, h("comm_d_hex"), h("comm_r_hex"), h("seed_hex"), 0)
    check([x.hex() for x in alt] != want, "vector: 1.0.0 semantics give other inputs")

    # The official parent caches: every registered seal proof 0-9 names one
    # (so its Feistel keys are right), and the two 2 KiB caches (porep_id 0
    # under 1.0.0, porep_id 5 under 1.1.0) hash to their digests: every
    # parent of every node.
    for rp in range(10):
        size, api, _ = seal_proof(rp)
        g = Graph(size // 32, porep_id(rp), api)
        entry = PARENT_CACHES.get(parent_cache_name(g))
        check(entry is not None and entry[0] == size,
              "registered seal proof %d names an official parent cache" % rp)
        if entry and size == 2 * KIB:
            check(parent_cache_digest(g) == entry[1],
                  "registered seal proof %d: the whole 2 KiB parent cache's digest" % rp)

    # RFC 8439 2.3.2, the ChaCha20 block function (32-bit counter 1 and a
    # 96-bit nonce in words 12-15): the quarter-round and block structure
    # ChaCha8 shares.
    key = bytes(range(32))
    words = chacha_block(key, [1, 0x09000000, 0x4A000000, 0], 20)
    check(struct.pack("<16I", *words).hex() ==
          "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
          "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e",
          "RFC 8439 ChaCha20 block")

    # drgraph.rs graph_bucket tests: parents are never the node itself, and
    # the predecessor is last (1.0.0) or first (1.1.0+); nodes 0, 1 all zero.
    for pid_byte, api in ((0, (1, 0)), (5, (1, 2))):
        gp = Graph(2048, bytes([pid_byte]) + bytes(31), api)
        ok = gp.drg_parents(0) == [0] * 6 and gp.drg_parents(1) == [0] * 6
        for i in range(2, 2048, 37):
            p = gp.drg_parents(i)
            ok &= i not in p and p[5 if api == (1, 0) else 0] == i - 1 and max(p) < i
        check(ok, "drgraph.rs graph_bucket properties (porep_id %d, %s)" % (pid_byte, api))
    # graph.rs test_graph_distribution_pathology: under 1.0.0 no expander
    # parent of a 32 GiB graph (porep_id [3, 0..]) reaches nodes/2; under
    # 1.1.0 (porep_id [8, 0..]) one does within the first nodes.
    n32 = 32 * GIB // 32
    g3 = Graph(n32, bytes([3]) + bytes(31), (1, 0))
    check(all(p < n32 // 2 for i in range(60) for p in g3.exp_parents(i)),
          "graph.rs pathology: 1.0.0 32 GiB parents stay below nodes/2")
    g8 = Graph(n32, bytes([8]) + bytes(31), (1, 1))
    check(any(p >= n32 // 2 for i in range(60) for p in g8.exp_parents(i)),
          "graph.rs pathology: 1.1.0 32 GiB parents reach nodes/2")
    # graph.rs test_high_parent_bits: 64 GiB, porep_id 5, 1.2.0: a parent
    # >= 2^29 (beyond u32 truncation) among the first 3 nodes.
    g5 = Graph(64 * GIB // 32, porep_id(5), (1, 2))
    check(any(p >= 1 << 29 for i in range(3) for p in g5.exp_parents(i)),
          "graph.rs test_high_parent_bits")


def bench_run(bench, args):
    r = subprocess.run([bench] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=300)
    return r.returncode, r.stdout.decode(), r.stderr.decode(errors="replace").strip()


def config_args(rp, size, pid, api):
    if rp is not None:
        return ["--registered-proof", str(rp)]
    return ["--sector-size", str(size), "--porep-id", pid.hex(), "--api-version", API_NAMES[api]]


def c_parents(bench, rp, size, pid, api, nodes):
    """cuzk-bench sdr-parents: ({key: value} header, {node: 14 parents})."""
    with tempfile.NamedTemporaryFile("w", suffix=".nodes", delete=False) as f:
        f.write(",".join(map(str, nodes)))
    rc, out, err = bench_run(bench, ["sdr-parents"] + config_args(rp, size, pid, api) +
                             ["--nodes", "@" + f.name])
    os.unlink(f.name)
    if rc != 0:
        return None, None, err
    head, parents = {}, {}
    for line in out.splitlines():
        w = line.split()
        if w[0] == "parents":
            parents[int(w[1])] = [int(x) for x in w[2:]]
        else:
            head[w[0]] = w[1]
    return head, parents, ""


def c_inputs(bench, args):
    rc, out, err = bench_run(bench, ["porep-inputs"] + args)
    if rc != 0:
        return None, err
    return [bytes.fromhex(x) for x in out.split()], ""


def canonical(rng):
    """32 random bytes that are a canonical, nonzero Fr (as comm_r, comm_d)."""
    while True:
        b = bytes(rng.getrandbits(8) for _ in range(32))
        if 0 < int.from_bytes(b, "little") < R:
            return b


def check_registry(bench):
    """porep_id and ApiVersion of every registered seal proof."""
    global skipped
    for rp in range(20):
        size, api, feature = seal_proof(rp)
        head, _, err = c_parents(bench, rp, None, None, None, [])
        if head is None and feature is not None and "unknown seal proof" in err:
            skipped += 1  # synthetic / NI kinds: not registered in the C yet
            print("SKIP: registered seal proof %d (%s) is not registered in cuzk" % (rp, feature))
            continue
        check(head is not None and head.get("porep_id") == porep_id(rp).hex() and
              head.get("api_version") == API_NAMES[api] and head.get("nodes") == str(size // 32),
              "registered seal proof %d: porep_id / api / nodes %s %s" % (rp, head, err))


def check_parents(bench, rng):
    """Parents of sampled nodes of every sector size, both graph generations,
    and porep_ids outside the registry."""
    for si, size in enumerate(SIZES):
        nodes = size // 32
        sample = sorted({0, 1, 2, 3, nodes // 2, nodes - 2, nodes - 1} |
                        {rng.randrange(nodes) for _ in range(250)})
        cases = [(si, None, None), (si + 5, None, None),
                 (None, canonical(rng), (1, 2)), (None, bytes(32), (1, 1))]
        for rp, pid, api in cases:
            if rp is not None:
                _, api, _ = seal_proof(rp)
                pid = porep_id(rp)
            _, got, err = c_parents(bench, rp, size, pid, api, sample)
            g = Graph(nodes, pid, api)
            bad = [n for n in sample
                   if got is None or got.get(n) != g.drg_parents(n) + g.exp_parents(n)]
            check(not bad, "parents of %s, porep_id %s, %s: nodes %s differ %s" %
                  (SIZE_NAMES[si], pid.hex()[:16], API_NAMES[api], bad[:5], err))


def check_cache_digests(bench):
    """cuzk-bench's whole parent caches against the official digests: 2 KiB
    and 8 MiB (about 4 s of CPU each); with CUZK_REF_BIG_CACHES=1 also
    512 MiB (about 4 min each). 32 and 64 GiB would take hours on one core."""
    sizes = SIZES[:3] if os.environ.get("CUZK_REF_BIG_CACHES") == "1" else SIZES[:2]
    for rp in range(10):
        size, api, _ = seal_proof(rp)
        if size not in sizes:
            continue
        entry = PARENT_CACHES[parent_cache_name(Graph(size // 32, porep_id(rp), api))]
        rc, out, err = bench_run(bench, ["sdr-parents", "--registered-proof", str(rp),
                                         "--cache-digest"])
        got = out.split()[-1] if rc == 0 else err
        check(got == entry[1], "registered seal proof %d: the whole parent cache's digest %s" %
              (rp, got))


ROLES = ["challenge (tree D)"] + ["DRG parent %d" % i for i in range(BASE_DEGREE)] + \
    ["expander parent %d" % i for i in range(EXP_DEGREE)] + \
    ["challenge", "challenge (tree R)", "challenge (tree C)"]


def first_difference(got, want):
    """Where two input lists part, named by the layout: for a failure line."""
    if got is None:
        return ""
    if len(got) != len(want):
        return " (%d inputs, expected %d)" % (len(got), len(want))
    for i, (a, b) in enumerate(zip(got, want)):
        if a != b:
            name = (["replica_id", "comm_d", "comm_r"][i] if i < 3 else
                    "challenge %d's %s" % ((i - 3) // len(ROLES), ROLES[(i - 3) % len(ROLES)]))
            return " (first at input %d, %s: %s, expected %s)" % (i, name, a.hex(), b.hex())
    return ""


def check_inputs(bench, rng):
    """Whole partitions' public inputs from the sector's values."""
    for si, size in enumerate(SIZES):
        per, partitions = interactive_shape(size)
        for trial in range(5):
            rp = [si + 5, si, None, si + 5, si][trial]
            if rp is None:
                pid, api = bytes(32), (1, 1)  # the polka-storage configuration, every size
            else:
                pid, (_, api, _) = porep_id(rp), seal_proof(rp)
            # prover_id, ticket and seed are plain [u8; 32] (no Fr bound).
            prover = bytes(32) if trial == 0 else rng.randbytes(32)
            ticket, seed = rng.randbytes(32), rng.randbytes(32)
            comm_d, comm_r = canonical(rng), canonical(rng)
            sector_id = [0, (1 << 64) - 1][trial] if trial < 2 else rng.getrandbits(40)
            k = [0, partitions - 1][trial] if trial < 2 else rng.randrange(partitions)
            got, err = c_inputs(bench, config_args(rp, size, pid, api) + [
                "--sector-id", str(sector_id), "--prover-id", prover.hex(), "--ticket",
                ticket.hex(), "--seed", seed.hex(), "--comm-d", comm_d.hex(), "--comm-r",
                comm_r.hex(), "--partition", str(k)])
            rid = replica_id(prover, sector_id, ticket, comm_d, pid)
            want = public_inputs(size, pid, api, rid, comm_d, comm_r, seed, k)
            check(got == want, "public inputs of %s, porep_id %s, %s, partition %d%s%s" %
                  (SIZE_NAMES[si], pid.hex()[:16], API_NAMES[api], k,
                   first_difference(got, want), ": " + err if err else ""))


def c1_bytes(x):
    """A C1 JSON 32-byte value: serde writes [u8; 32] as a list of numbers."""
    if isinstance(x, list):
        return bytes(x)
    raise ValueError("unexpected C1 value %r" % (x,))


def check_gen_vanilla(bench, rng):
    """A C1 that cuzk-bench seals and writes: its replica_id, the challenge
    and parent indices its vanilla proofs open, and the inputs."""
    for v1 in (False, True):
        prover, ticket, seed = canonical(rng), canonical(rng), canonical(rng)
        sector_id = rng.getrandbits(32)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "c1.json")
            rc, _, err = bench_run(bench, ["gen-vanilla", "porep", "--sector-size", "2KiB",
                                           "--sector-id", str(sector_id), "--prover-id",
                                           prover.hex(), "--ticket", ticket.hex(), "--seed",
                                           seed.hex(), "--threads", "1", "--out", path] +
                                   (["--v1"] if v1 else []))
            if rc != 0:
                check(False, "gen-vanilla porep: %s" % err)
                continue
            c1 = json.load(open(path))
            got, err = c_inputs(bench, ["--c1", path, "--prover-id", prover.hex(),
                                        "--sector-id", str(sector_id)])
        rp = 0 if v1 else 5
        size, api, _ = seal_proof(rp)
        pid = porep_id(rp)
        comm_d, comm_r = c1_bytes(c1["comm_d"]), c1_bytes(c1["comm_r"])
        rid = replica_id(prover, sector_id, ticket, comm_d, pid)
        what = "gen-vanilla porep 2 KiB (%s)" % API_NAMES[api]
        check(c1_bytes(c1["ticket"]) == ticket and c1_bytes(c1["seed"]) == seed,
              what + ": the C1 carries the ticket and seed given")
        check(c1_bytes(c1["replica_id"]) == rid, what + ": the C1's replica_id")
        proofs = list(c1["vanilla_proofs"].values())[0][0]
        g = Graph(size // 32, pid, api)
        ch = challenges(g.nodes, rid, seed, 0, interactive_shape(size)[0])
        opened = [p["replica_column_proofs"]["c_x"]["column"]["index"] for p in proofs]
        check(opened == ch, what + ": challenges opened %s, reference %s" % (opened, ch))
        for p, c in zip(proofs, ch):
            cp = p["replica_column_proofs"]
            drg = [x["column"]["index"] for x in cp["drg_parents"]]
            exp = [x["column"]["index"] for x in cp["exp_parents"]]
            check(drg == g.drg_parents(c) and exp == g.exp_parents(c),
                  what + ": parents opened for challenge %d" % c)
            labeled = [lp["node"] for lp in p["labeling_proofs"]]
            check(labeled == [c] * len(labeled) and len(labeled) == 2,
                  what + ": labeling proofs of challenge %d name nodes %s" % (c, labeled))
        want = public_inputs(size, pid, api, rid, comm_d, comm_r, seed, 0)
        check(got == want, what + ": porep-inputs --c1" + first_difference(got, want) +
              (": " + err if err else ""))


def main():
    bench = sys.argv[1] if len(sys.argv) > 1 else "--self-check"
    self_check()
    if failed or bench == "--self-check":
        print("porep_reference: self-check %d passed, %d failed%s" %
              (passed, failed, "; nothing compared with cuzk" if failed else ""))
        sys.exit(1 if failed else 0)
    rng = random.Random(20261201)  # fixed: the same cases every run
    check_registry(bench)
    check_parents(bench, rng)
    check_cache_digests(bench)
    check_inputs(bench, rng)
    check_gen_vanilla(bench, rng)
    # A comm_d that is not a canonical Fr is refused, not reduced.
    got, err = c_inputs(bench, ["--registered-proof", "5", "--sector-id", "1", "--prover-id",
                                "00" * 32, "--ticket", "00" * 32, "--seed", "00" * 32,
                                "--comm-d", R.to_bytes(32, "little").hex(), "--comm-r",
                                "01" + "00" * 31])
    check(got is None and "comm-d" in err, "comm_d >= r is refused (%s)" % err)
    got, err = c_inputs(bench, ["--registered-proof", "5", "--sector-id", "1", "--prover-id",
                                "00" * 32, "--ticket", "00" * 32, "--seed", "00" * 32,
                                "--comm-d", "01" + "00" * 31, "--comm-r", "01" + "00" * 31,
                                "--partition", "1"])
    check(got is None and "partition" in err, "partition 1 of a 2 KiB sector is refused (%s)" % err)
    _, got, err = c_parents(bench, 9, None, None, None, [64 * GIB // 32])
    check(got is None and "not below" in err, "a node past the graph is refused (%s)" % err)
    print("porep_reference: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
