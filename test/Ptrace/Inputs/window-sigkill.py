#!/usr/bin/env python3
"""tsrun is SIGKILLed at a chosen moment of a window, many times.

  window-sigkill.py TSRUN OBJ PROG LIB POINT FIRST LAST [--rounds R]

PROG (window-sigkill.c) runs under `tsrun --detach`, which lets go of it
and attaches again for short windows: 5 library windows (dlopen, dlclose),
4 exec windows (3 failing, then one that succeeds and whose new image is
set up). Each round tsrun is started with TSCC_TEST_SIGKILL_AT=POINT:N
(runtime/lib/Ptrace/KillPoint.h), N going round FIRST..LAST, so that it
SIGKILLs itself the Nth time it reaches POINT. PROG must go on by itself
and print exactly what it prints untraced: its counts, and the bytes of
its probed functions and of the loader's hook once their next hits have
found tsrun gone (every site put back). A run whose N is never reached
(the process was still attached when it opened a window) kills tsrun
once PROG has said it is done with its windows (a detached kill), and
the round is run again, up to 5 times. Prints one line per failure and a summary:

  POINT: R rounds, K killed at the point, every output exact
"""
import argparse
import ctypes
import os
import signal
import subprocess
import sys
import tempfile
import time

PR_SET_CHILD_SUBREAPER = 36


def running(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def child_of(ts):
    """PROG's pid: the backend thread forked it, so look at every task."""
    for task in os.listdir(f"/proc/{ts}/task"):
        try:
            with open(f"/proc/{ts}/task/{task}/children") as f:
                kids = f.read().split()
        except OSError:
            continue
        if kids:
            return int(kids[0])
    return None


def wait_for(cond, what, limit=120):
    end = time.monotonic() + limit
    while not cond():
        if time.monotonic() > end:
            raise TimeoutError(what)
        time.sleep(0.005)


def reap(pid, limit):
    """PROG's wait status, or None if it has not ended within limit."""
    end = time.monotonic() + limit
    while True:
        r, st = os.waitpid(pid, os.WNOHANG)
        if r == pid:
            return st
        if time.monotonic() > end:
            return None
        time.sleep(0.005)


def run_untraced(prog, lib, d):
    ready, go = os.path.join(d, "ready"), os.path.join(d, "go")
    p = subprocess.Popen([prog, "first", lib, prog, ready, go],
                         stdout=subprocess.PIPE, text=True)
    wait_for(lambda: os.path.exists(ready), "untraced ready")
    open(go, "w").close()
    out = p.communicate()[0]
    os.unlink(ready)
    os.unlink(go)
    return out, p.returncode


def one_round(args, n, d, expected):
    """Returns (killed at the point, failure or None)."""
    ready, go = os.path.join(d, "ready"), os.path.join(d, "go")
    out_path = os.path.join(d, "out")
    env = dict(os.environ, TSCC_TEST_SIGKILL_AT=f"{args.point}:{n}")
    with open(out_path, "w") as out, open(os.path.join(d, "err"), "w") as err:
        ts = subprocess.Popen([args.tsrun, args.obj, "-o", os.devnull,
                               "--detach", "--", args.prog, "first", args.lib,
                               args.prog, ready, go],
                              stdout=out, stderr=err, env=env)
    wait_for(lambda: ts.poll() is not None or child_of(ts.pid), "launch")
    pid = child_of(ts.pid) if ts.poll() is None else None
    if pid is None:
        ts.wait()
        return False, f"N={n}: tsrun ended before its program started"
    try:
        wait_for(lambda: os.path.exists(ready) or not running(pid), "ready",
                 args.timeout)
    except TimeoutError:
        # Stuck (a thread left where only tsrun could move it on): a failure.
        ts.kill()
        ts.wait()
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        return False, f"N={n}: the program never finished its windows"
    killed = ts.poll() is not None
    if not killed:
        ts.kill()
    ts.wait()
    if killed and ts.returncode != -signal.SIGKILL:
        return False, f"N={n}: tsrun ended with {ts.returncode}"
    open(go, "w").close()
    # PROG is this driver's child now (a subreaper): its status is ours.
    st = reap(pid, args.timeout)
    if st is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        return killed, f"N={n}: the program did not end"

    with open(out_path) as f:
        got = f.read()
    for p in (ready, go):
        if os.path.exists(p):
            os.unlink(p)
    if os.WIFSIGNALED(st):
        return killed, (f"N={n}: the program died of signal "
                        f"{os.WTERMSIG(st)}; it printed: {got!r}")
    if got != expected or os.WEXITSTATUS(st) != 0:
        return killed, (f"N={n}: status {os.WEXITSTATUS(st)}, printed "
                        f"{got!r}, untraced {expected!r}")
    return killed, None


def main():
    ap = argparse.ArgumentParser()
    for a in ("tsrun", "obj", "prog", "lib", "point"):
        ap.add_argument(a)
    ap.add_argument("first", type=int)
    ap.add_argument("last", type=int)
    ap.add_argument("--rounds", type=int, default=0,
                    help="rounds (default: one per N)")
    ap.add_argument("--timeout", type=float, default=60,
                    help="seconds a round's program may take")
    args = ap.parse_args()
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    span = args.last - args.first + 1
    rounds = args.rounds or span
    killed, failures = 0, 0
    with tempfile.TemporaryDirectory() as d:
        expected, rc = run_untraced(args.prog, args.lib, d)
        if rc != 0:
            print(f"untraced run failed with {rc}")
            return 1
        for r in range(rounds):
            # A process may still be attached when it opens its window
            # (tsrun lets go at its next settled stop): then the point is
            # not reached in that run, which is tried again a few times.
            for _ in range(5):
                k, failure = one_round(args, args.first + r % span, d,
                                       expected)
                if k or failure:
                    break
            killed += k
            if failure:
                failures += 1
                print(f"{args.point}: {failure}")
                sys.stdout.flush()
    verdict = "every output exact" if not failures else f"{failures} wrong"
    print(f"{args.point}: {rounds} rounds, {killed} killed at the point, "
          f"{verdict}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
