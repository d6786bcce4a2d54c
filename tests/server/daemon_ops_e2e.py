"""cuzk-daemon's listening, unix socket permissions and signals, driven by
python3-grpcio (see test_daemon_ops.sh)."""
import atexit
import grp
import os
import signal
import socket
import stat
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common as e2e  # noqa: E402
from e2e_common import Daemon, check, code_of, daemon, grpc, pb, stub_for, stubs  # noqa: E402


def alive(target):
    c, _ = code_of(lambda: stub_for(target)[1].GetStatus(pb.GetStatusRequest(), timeout=10))
    return c == grpc.StatusCode.OK


started = []


def start(listen, config):
    d = Daemon(listen, config)
    started.append(d)
    return d


@atexit.register
def kill_left():  # a failed check must not leave a daemon holding ctest's pipe
    for d in started:
        if d.p.poll() is None:
            d.p.kill()


def refused(args):
    """The daemon run with args, expected to exit at once; one that starts
    instead is killed after 20 s and reported as returncode None."""
    try:
        return subprocess.run([daemon] + args, stderr=subprocess.PIPE, timeout=20)
    except subprocess.TimeoutExpired as ex:
        return subprocess.CompletedProcess(ex.cmd, None, None, ex.stderr or b"")


def write_config(path, text):
    with open(path, "w") as f:
        f.write('[daemon]\nstatus_listen = "127.0.0.1:0"\n' + text)


def wait_log(d, text, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        d.err.seek(0)
        if text in d.err.read():
            return True
        time.sleep(0.05)
    return False


# ---- TCP: a held port, a bad port, IPv6, the non-loopback warning ------------
d = start("127.0.0.1:0", None)
target = "127.0.0.1:%d" % d.port
r = refused(["-l", target])
lines = r.stderr.decode().strip().splitlines() or [""]
check(r.returncode not in (0, None) and "address already in use" in lines[-1].lower(),
      "a second daemon on the same port fails (rc %s, %r)" % (r.returncode, lines[-1:]))
# A name gRPC resolves itself: refused by gRPC, now that SO_REUSEPORT is off.
r = refused(["-l", "localhost:%d" % d.port])
check(r.returncode not in (0, None) and b"cannot listen" in r.stderr,
      "a second daemon on localhost:%d fails (rc %s)" % (d.port, r.returncode))
check(alive(target), "the first daemon still answers")
rc, log = d.stop()
check(rc == 0 and "no authentication" not in log, "a loopback daemon warns of nothing (%r)" % log[-300:])

r = refused(["-l", "127.0.0.1:99999"])
check(r.returncode == 2 and b"port 99999 is not 1-65535" in r.stderr and r.stderr.count(b"\n") == 1,
      "-l 127.0.0.1:99999 is refused in one line (%r)" % r.stderr[-300:])
r = refused(["-l", "::1:9821"])
check(r.returncode == 2 and b"brackets" in r.stderr, "a bare IPv6 address is refused (%r)" % r.stderr[-200:])

try:
    s6 = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    s6.bind(("::1", 0))
    s6.close()
    has_v6 = True
except OSError as ex:
    has_v6 = False
    print("SKIP: [::1]:0 (no IPv6 loopback here: %s)" % ex)
if has_v6:
    d = start("[::1]:0", None)
    check(alive("[::1]:%d" % d.port), "[::1]:0: GetStatus answers over IPv6")
    rc, log = d.stop()
    check(rc == 0 and "no authentication" not in log, "[::1]: clean exit, no warning")

d = start("0.0.0.0:0", None)
rc, log = d.stop()
check(rc == 0 and "not a loopback address" in log and "no authentication" in log,
      "0.0.0.0:0 warns that the API has no authentication (%r)" % log[-400:])

# ---- unix socket: mode and group --------------------------------------------
sock = os.path.join(stubs, "ops.sock")
old = os.umask(0o022)
d = start("unix://" + sock, None)
mode = stat.S_IMODE(os.stat(sock).st_mode)
check(mode == 0o660, "the unix socket is 0660 by default (%o)" % mode)
d.stop()
os.umask(old)

group = grp.getgrgid(os.getgid()).gr_name
config = os.path.join(stubs, "ops.toml")
write_config(config, 'socket_mode = "0600"\nsocket_group = "%s"\n' % group)
d = start("unix://" + sock, config)
st = os.stat(sock)
check(stat.S_IMODE(st.st_mode) == 0o600, "socket_mode 0600 applied (%o)" % stat.S_IMODE(st.st_mode))
check(st.st_gid == os.getgid(), "socket_group %s applied" % group)
check(alive("unix://" + sock), "the 0600 socket answers its owner")
d.stop()
write_config(config, 'socket_group = "no-such-group-cuzk"\n')
r = refused(["-c", config, "-l", "unix://" + sock])
check(r.returncode == 2 and b"daemon.socket_group no-such-group-cuzk: no such group" in r.stderr,
      "an unknown socket_group is refused (%r)" % r.stderr[-200:])
write_config(config, 'socket_mode = "rw-rw----"\n')
r = refused(["-c", config, "-l", "unix://" + sock])
check(r.returncode == 2 and b"line 3: daemon.socket_mode: expected an octal mode" in r.stderr
      and r.stderr.count(b"\n") == 1, "a bad socket_mode is refused in one line (%r)" % r.stderr[-200:])

# ---- signals: SIGHUP re-reads logging.level, never stops ---------------------
write_config(config, '[logging]\nlevel = "info"\n')
d = start("127.0.0.1:0", config)
target = "127.0.0.1:%d" % d.port
write_config(config, '[logging]\nlevel = "warn"\n')
d.p.send_signal(signal.SIGHUP)
check(wait_log(d, "SIGHUP: logging.level warn (from %s)" % config), "SIGHUP: the new level is said")
check(d.p.poll() is None and alive(target), "SIGHUP: the daemon runs on and answers GetStatus")
write_config(config, '[logging]\nlevel = "loud"\n')
d.p.send_signal(signal.SIGHUP)
check(wait_log(d, "nothing changed"), "SIGHUP with a bad config: said, nothing changed")
check(d.p.poll() is None and alive(target), "SIGHUP with a bad config: still running")
rc, log = d.stop()
check(rc == 0 and "stopped" not in log, "SIGTERM after SIGHUP: clean exit, quiet at warn (%r)" % log[-300:])

d = start("127.0.0.1:0", None)
d.p.send_signal(signal.SIGHUP)
check(wait_log(d, "no config file"), "SIGHUP without -c: said")
check(d.p.poll() is None and alive("127.0.0.1:%d" % d.port), "SIGHUP without -c: still running")
os.kill(d.p.pid, signal.SIGPIPE)
time.sleep(0.2)
check(d.p.poll() is None, "SIGPIPE is ignored")
rc, log = d.stop()
check(rc == 0 and "stopped" in log, "SIGTERM: drained and stopped")

e2e.report("test_daemon_ops")
