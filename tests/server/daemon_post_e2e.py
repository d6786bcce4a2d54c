"""cuzk-daemon proving WinningPoSt and WindowPoSt 2 KiB, driven by
python3-grpcio (see test_daemon_post.sh). Vanilla proofs come from
cuzk-bench gen-vanilla (sealed test sectors); the requests carry them as
Curio does (vanilla_proofs = bincode FallbackPoStSectorProofs, randomness,
miner_id, registered_proof, partition_index). Every returned proof is
checked by cuzk-bench verify-post against the test parameters' key, which
computes the public inputs itself. Bad requests get INVALID_ARGUMENT with
the reason at submit and nothing is queued. A file under the official
WinningPoSt name that is not the published one (its parameters.json digest
differs) fails the job with that reason, and is never used."""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402
from e2e_common import Daemon, bench_run, check, pb, stub_for, stubs  # noqa: E402

CACHE = os.environ["CUZK_TEST_PARAM_CACHE"]
LONG = 600  # the first job of a kind makes its test parameters
R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001  # BLS12-381 r


def gen(kind, sectors, partition, name):
    return e2e.PostPartition(kind, sectors, partition, name, CACHE)


# No official parameters in it: test parameters are used, and the recorded
# circuit shapes are kept here (pce-<circuit>-<key>.bin).
PARAM_CACHE = os.path.join(stubs, "param-cache")
os.makedirs(PARAM_CACHE, exist_ok=True)


def config(name, budget="16GiB"):
    return e2e.daemon_config(name, CACHE, PARAM_CACHE, budget)


winning = gen("winning-post", 3, 0, "winning")
window2 = gen("window-post", 2, 0, "window2")
window3 = [gen("window-post", 3, p, "window3-p%d" % p) for p in (0, 1)]
check(len(winning.vanilla) == 1, "WinningPoSt: one vanilla proof")
check(len(window2.vanilla) == 2, "WindowPoSt of 2 sectors: two vanilla proofs")
check([len(w.vanilla) for w in window3] == [2, 1],
      "WindowPoSt of 3 sectors: 2 + 1 vanilla proofs (the second partition padded)")

d = Daemon("127.0.0.1:0", config("post"))
target = "127.0.0.1:%d" % d.port
ch, st = stub_for(target)

# ---- round trips -------------------------------------------------------------------
for part, what in ((winning, "WinningPoSt"), (window2, "WindowPoSt 2 sectors"),
                   (window3[0], "WindowPoSt 3 sectors, partition 0"),
                   (window3[1], "WindowPoSt 3 sectors, partition 1 (padded)")):
    r = st.Prove(pb.ProveRequest(submit=part.submit("ok-" + what)), timeout=LONG)
    check(r.result.status == pb.AwaitProofResponse.COMPLETED,
          "%s: COMPLETED (%s %s)" % (what, r.result.status, r.result.error_message))
    check(len(r.result.proof) == 192, "%s: one 192-byte proof" % what)
    part.verified(r.result.proof, what)

# Default priorities: Winning CRITICAL, Window HIGH (TIMELINE QUEUED lines).
status = st.GetStatus(pb.GetStatusRequest(), timeout=10)
loaded = {s.circuit_id for s in status.loaded_srs}
check({"winning-2k", "wpost-2k"} <= loaded, "SRS winning-2k and wpost-2k are loaded (%s)" % loaded)
check(status.total_proofs_completed == 4, "4 proofs completed (%d)" % status.total_proofs_completed)

# ---- bad requests: INVALID_ARGUMENT with the reason, at submit -------------------------
wb = winning.vanilla[0]
tampered_path = bytearray(wb)
tampered_path[200] ^= 1  # a path hash of the first inclusion proof
wrong_comm_r = bytearray(wb)
wrong_comm_r[8] ^= 1  # comm_r, the bytes after sector_id
huge_len = bytearray(wb)
huge_len[40:48] = (1 << 63).to_bytes(8, "little")  # the length of vanilla_proof.sectors
bad = [
    ("truncated bincode", winning.submit("b1", vanilla_proofs=[wb[:-1]]), "end of input|truncat"),
    ("a length of 2^63", winning.submit("b2", vanilla_proofs=[bytes(huge_len)]), "sectors"),
    ("the wrong sector size", winning.submit("b3", sector_size=8 << 20), "sector_size"),
    ("a tampered path element", winning.submit("b4", vanilla_proofs=[bytes(tampered_path)]),
     "inclusion_proofs|root|leaf"),
    ("a wrong comm_r", winning.submit("b5", vanilla_proofs=[bytes(wrong_comm_r)]), "comm_r"),
    ("randomness >= r", winning.submit("b6", randomness=(R + 5).to_bytes(32, "little")),
     "randomness"),
    ("short randomness", winning.submit("b7", randomness=b"\x01" * 31), "randomness"),
    ("two vanilla proofs for a WinningPoSt", winning.submit("b8", vanilla_proofs=[wb, wb]),
     "1|one|count"),
    ("three for a 2-sector WindowPoSt partition",
     window2.submit("b9", vanilla_proofs=window2.vanilla + window3[1].vanilla),
     "sector"),
    ("a Window registered proof for a WinningPoSt", winning.submit("b10", registered_proof=10),
     "registered_proof"),
    ("a Winning registered proof for a WindowPoSt", window2.submit("b11", registered_proof=0),
     "registered_proof"),
    ("no vanilla proofs", winning.submit("b12", vanilla_proofs=[]), "empty"),
    ("partition 1 of a WinningPoSt", winning.submit("b13", partition_index=1), "partition"),
    # Under ApiVersion 1.0.0 (Window V1, 5) a challenge depends on the sector's
    # index in the whole PoSt: these V1_1 proofs of partition 1 no longer fit.
    ("V1_1 proofs sent as V1", window3[1].submit("b14", registered_proof=5), "challenge"),
]
e2e.check_refused(st, bad, 4)

# ---- SRS management ----------------------------------------------------------------
r = st.EvictSRS(pb.EvictSRSRequest(circuit_id="winning-2k"), timeout=30)
check(r.was_loaded, "EvictSRS winning-2k: was loaded")
r = st.PreloadSRS(pb.PreloadSRSRequest(circuit_id="winning-2k"), timeout=LONG)
check(not r.already_loaded, "PreloadSRS winning-2k: loaded again")
r = st.Prove(pb.ProveRequest(submit=winning.submit("after-preload")), timeout=LONG)
check(r.result.status == pb.AwaitProofResponse.COMPLETED and r.result.srs_load_ms == 0,
      "WinningPoSt on preloaded parameters: no SRS load (%d ms)" % r.result.srs_load_ms)

# ---- cuzk-bench single and batch --------------------------------------------------------
r = bench_run("single", "-a", target, "--request", winning.path, timeout=LONG)
check(r.returncode == 0 and b"COMPLETED" in r.stdout,
      "cuzk-bench single --request (%r %r)" % (r.stdout[-200:], r.stderr[-200:]))
vj = os.path.join(os.path.dirname(window2.path), "vanilla.json")
r = bench_run("batch", "-a", target, "-t", "windowpost", "--vanilla", vj, "--registered-proof",
              str(window2.req["registered_proof"]), "--randomness", window2.req["randomness"],
              "--miner-id", str(window2.req["miner_id"]), "-c", "2", "-j", "2", timeout=LONG)
check(r.returncode == 0 and b"summary proofs 2 completed 2 failed 0" in r.stdout,
      "cuzk-bench batch -t windowpost --vanilla (%r %r)" % (r.stdout[-300:], r.stderr[-200:]))
r = bench_run("single", "-a", target, "-t", "winning-post", "--vanilla", vj, "--randomness",
              winning.req["randomness"], timeout=LONG)
check(r.returncode == 1 and b"INVALID_ARGUMENT" in r.stdout + r.stderr,
      "cuzk-bench single: two WindowPoSt proofs sent as a WinningPoSt fail (%r)" % r.stdout[-200:])

rc, log = d.stop()
check(rc == 0, "the daemon exits 0 on SIGTERM (%s)" % rc)
m = re.findall(r"TIMELINE,\d+,QUEUED,ok-([^,]+),kind=(\w+),priority=(\d)", log)
prios = {kind: prio for _, kind, prio in m}
check(prios.get("winning_post") == "4" and prios.get("window_post") == "3",
      "default priorities: Winning CRITICAL (4), Window HIGH (3) (%s)" % prios)
check("shape winning-2k recorded and saved to" in log, "the WinningPoSt shape was recorded and saved")

# ---- recorded shapes on disk ---------------------------------------------------------
shapes = sorted(glob.glob(os.path.join(PARAM_CACHE, "pce-*.bin")))
names = [os.path.basename(p) for p in shapes]
check(any(n.startswith("pce-winning-2k-") for n in names)
      and any(n.startswith("pce-wpost-2k-") for n in names),
      "shapes kept beside the parameters (%s)" % names)
wshape = [p for p in shapes if os.path.basename(p).startswith("pce-winning-2k-")]


def prove_winning_on_fresh_daemon(what):
    """A new daemon proves one WinningPoSt (verified); returns its log."""
    dd = Daemon("127.0.0.1:0", config("post-shape"))
    _, s2 = stub_for("127.0.0.1:%d" % dd.port)
    r = s2.Prove(pb.ProveRequest(submit=winning.submit("shape-" + what)), timeout=LONG)
    check(r.result.status == pb.AwaitProofResponse.COMPLETED,
          "%s: COMPLETED (%s %s)" % (what, r.result.status, r.result.error_message))
    winning.verified(r.result.proof, what)
    rc2, log2 = dd.stop()
    check(rc2 == 0, "%s: the daemon exits 0" % what)
    return log2


if wshape:
    log2 = prove_winning_on_fresh_daemon("shape loaded from disk")
    check("shape winning-2k loaded from" in log2 and "recorded and saved" not in log2,
          "a restarted daemon loads the shape instead of recording it")
    # A flipped byte in the middle, then a truncated file: each is noticed,
    # warned about and recorded again, and the proof still verifies.
    for damage in ("flipped", "truncated"):
        with open(wshape[0], "r+b") as f:
            size = os.path.getsize(wshape[0])
            if damage == "flipped":
                f.seek(size // 2)
                b = f.read(1)
                f.seek(size // 2)
                f.write(bytes([b[0] ^ 0x40]))
            else:
                f.truncate(size - 1000)
        log3 = prove_winning_on_fresh_daemon("shape " + damage)
        check(re.search(r"WARN.*shape winning-2k: .*(checksum|truncated).*recording it again", log3)
              and "shape winning-2k recorded and saved to" in log3,
              "a %s shape file is warned about and rebuilt" % damage)
    log4 = prove_winning_on_fresh_daemon("shape rebuilt")
    check("shape winning-2k loaded from" in log4, "the rebuilt shape loads")

# ---- a corrupt official parameter file -------------------------------------------------
# The official WinningPoSt 2 KiB name holding other bytes (the real key's
# file, its .vk): the digest check refuses it at load, before any proof.
CORRUPT = os.path.join(stubs, "corrupt-official")
os.makedirs(CORRUPT, exist_ok=True)
OFFICIAL = ("v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
            "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.params")
with open("tests/vectors/winningpost-2kib/winning-post-2kib.vk", "rb") as f:  # cwd: the repo root
    key = f.read()
with open(os.path.join(CORRUPT, OFFICIAL), "wb") as f:
    f.write(key)
dc = Daemon("127.0.0.1:0", e2e.daemon_config("post-corrupt", CACHE, CORRUPT))
_, sc = stub_for("127.0.0.1:%d" % dc.port)
for i in (1, 2):
    r = sc.Prove(pb.ProveRequest(submit=winning.submit("corrupt-%d" % i)), timeout=LONG)
    check(r.result.status == pb.AwaitProofResponse.FAILED and not r.result.proof
          and "parameters.json" in r.result.error_message and OFFICIAL in r.result.error_message,
          "corrupt official file, job %d: FAILED with the digest's reason (%s)"
          % (i, r.result.error_message))
rc, logc = dc.stop()
check(rc == 0, "corrupt official file: the daemon exits 0")
check(re.search(r"ERROR.*" + re.escape(OFFICIAL) + r": BLAKE2b digest \w+, but parameters.json says "
                r"82c88066be968bb550a05e30ff6c2413", logc) is not None,
      "corrupt official file: an ERROR line names the file and both digests")
check(len(re.findall(r"checking it against parameters.json", logc)) == 1,
      "corrupt official file: hashed once, the stamp stands for the second load")
check(os.path.exists(os.path.join(CORRUPT, OFFICIAL + ".cuzk-digest")), "the stamp is beside the file")
e2e.report("test_daemon_post")
