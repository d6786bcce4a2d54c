"""cuzk-daemon proving a SnapDeals 2 KiB update, driven by python3-grpcio
(see test_daemon_snap.sh). The update comes from cuzk-bench gen-vanilla
snap-prove (a sealed CC sector with new data encoded into it); the request
carries it as Curio does (registered_proof, comm_r_old, comm_r_new,
comm_d_new, vanilla_proofs = one bincode PartitionProof per partition).
The returned proof is checked by cuzk-bench verify-update against the test
parameters, from the commitments alone. Bad requests get INVALID_ARGUMENT
with the reason at submit and nothing is queued. Two updates submitted
together (scheduler.max_batch_size 2) are proved as one batch, each proof
verified."""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402
from e2e_common import Daemon, bench_run, check, pb, stub_for, stubs  # noqa: E402

CACHE = os.environ["CUZK_TEST_PARAM_CACHE"]
LONG = 900  # the first job makes the update circuit's test parameters


update = e2e.SnapUpdate("snap", CACHE)
REQ, req, vanilla, comm, submit = update.path, update.req, update.vanilla, update.comm, update.submit
verify_update = update.verify
check(req["registered_proof"] == 0 and len(vanilla) == 1, "a 2 KiB update has one partition proof")


PARAM_CACHE = os.path.join(stubs, "param-cache")  # no official files; the shape is kept here
os.makedirs(PARAM_CACHE, exist_ok=True)
# A lone job waits max_batch_wait_ms for a partner of its size.
config = e2e.daemon_config("snap", CACHE, PARAM_CACHE,
                           extra='[scheduler]\nmax_batch_size = 2\nmax_batch_wait_ms = 3000\n')

d = Daemon("127.0.0.1:0", config)
target = "127.0.0.1:%d" % d.port
ch, st = stub_for(target)

# ---- the round trip ----------------------------------------------------------------
r = st.Prove(pb.ProveRequest(submit=submit("ok-update")), timeout=LONG)
check(r.result.status == pb.AwaitProofResponse.COMPLETED,
      "update: COMPLETED (%s %s)" % (r.result.status, r.result.error_message))
update.verified(r.result.proof, "update")  # 192 bytes, valid, invalid under another comm_r_new
other = bytearray(comm["comm_r_new"])
other[0] ^= 1

status = st.GetStatus(pb.GetStatusRequest(), timeout=10)
loaded = {s.circuit_id for s in status.loaded_srs}
check("snap-2k" in loaded, "SRS snap-2k is loaded (%s)" % loaded)
# Every prover's 10 entries (5 sizes, parameters and shape) are listed, cold
# ones too: the status snapshot holds all 40.
ids = {s.circuit_id for s in status.loaded_srs}
want = {"%s%s-%s" % (p, f, z) for p in ("", "pce-") for f in ("porep", "winning", "wpost", "snap")
        for z in ("2k", "8m", "512m", "32g", "64g")}
check(want <= ids, "GetStatus lists all 40 provers' SRS entries (missing %s)" % sorted(want - ids))
check(status.total_proofs_completed == 1, "1 proof completed (%d)" % status.total_proofs_completed)

# ---- bad requests: INVALID_ARGUMENT with the reason, at submit -------------------------
vb = vanilla[0]
huge = bytearray(vb)
huge[32:40] = (1 << 63).to_bytes(8, "little")  # the length of apex_leafs
apex = bytearray(vb)
apex[200] ^= 1  # byte 0 of apex leaf 5 (32 + 8 + 5 x 32)
R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
bad = [
    ("truncated bincode", submit("b1", vanilla_proofs=[vb[:-1]]), "end of input|truncat"),
    ("a length of 2^63", submit("b2", vanilla_proofs=[bytes(huge)]), "apex_leafs"),
    ("a wrong comm_r_new", submit("b3", comm_r_new=bytes(other)), "comm_r_new"),
    ("a tampered apex leaf", submit("b4", vanilla_proofs=[bytes(apex)]), "apex_leafs.*comm_d_new"),
    ("two partition proofs for a 2 KiB update", submit("b5", vanilla_proofs=[vb, vb]),
     "2 partition proofs.*1 partition"),
    ("no partition proofs", submit("b6", vanilla_proofs=[]), "0 partition proofs"),
    ("an 8 MiB registered proof", submit("b7", registered_proof=1), "StackedDrg8MiBV1 has 4"),
    ("registered proof 5", submit("b8", registered_proof=5), "registered_proof 5"),
    ("the wrong sector size", submit("b9", sector_size=8 << 20), "sector_size"),
    ("no comm_d_new", submit("b10", comm_d_new=b""), "comm_d_new"),
    ("comm_r_old >= r", submit("b11", comm_r_old=(R + 1).to_bytes(32, "little")), "comm_r_old"),
]
e2e.check_refused(st, bad, 1)

# ---- batching: two same-size updates submitted together, one batch -------------------
for rid in ("s1", "s2"):
    st.SubmitProof(submit(rid), timeout=30)
for rid in ("s1", "s2"):
    a = st.AwaitProof(pb.AwaitProofRequest(job_id=rid, timeout_ms=0), timeout=LONG)
    check(a.status == pb.AwaitProofResponse.COMPLETED and len(a.proof) == 192,
          "%s (batched): COMPLETED (%s %s)" % (rid, a.status, a.error_message))
    check(verify_update(a.proof, req["comm_r_new"]) == 0, "verify-update: %s's proof is valid" % rid)

# ---- cuzk-bench single --request ------------------------------------------------------
r = bench_run("single", "-a", target, "-t", "snap", "--request", REQ, timeout=LONG)
check(r.returncode == 0 and b"COMPLETED" in r.stdout,
      "cuzk-bench single -t snap --request (%r %r)" % (r.stdout[-200:], r.stderr[-200:]))

rc, log = d.stop()
check(rc == 0, "the daemon exits 0 on SIGTERM (%s)" % rc)
m = re.findall(r"TIMELINE,\d+,QUEUED,ok-update,kind=(\w+),priority=(\d)", log)
check(m == [("snap_update", "2")], "default priority NORMAL (2) for snap_update (%s)" % m)
batches = re.findall(r"^TIMELINE,\d+,BATCH,(\S+),size=(\d+),ts=\S+$", log, re.M)
check(batches == [("s1", "2")], "TIMELINE: s1 and s2 in one BATCH of size 2 (%s)" % batches)
check("shape snap-2k recorded and saved to" in log, "the update shape was recorded and saved")
check(glob.glob(os.path.join(PARAM_CACHE, "pce-snap-2k-*.bin")),
      "the shape is kept beside the parameters")
e2e.report("test_daemon_snap")
