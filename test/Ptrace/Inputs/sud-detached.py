#!/usr/bin/env python3
"""Runs PROG under tsrun --detach and lets it go on only once tsrun has let
go of it, with FIFO handshakes.

  sud-detached.py TSRUN OBJ PROG N

PROG is launched as `PROG N GO` (sud-catchall.c, with SUD_NO_FORK=1): it
says "started" and waits for a byte on the FIFO GO. This script waits
until PROG has no tracer (/proc/PID/status TracerPid 0), says whether it
got there, and writes the byte: everything PROG then does runs with tsrun
detached, the thread it makes included. Prints PROG's lines, tsrun's output and -v messages, then both statuses.
"""
import os
import subprocess
import sys
import tempfile
import time


def tracer_of(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("TracerPid:"):
                return int(line.split()[1])
    return -1


def child_of(pid, prog):
    """PROG's pid: the child of tsrun (made by any of its threads) running
    PROG."""
    name = os.path.basename(prog)[:15]
    for tid in os.listdir("/proc/%d/task" % pid):
        with open("/proc/%d/task/%s/children" % (pid, tid)) as f:
            for kid in f.read().split():
                try:
                    with open("/proc/%s/comm" % kid) as c:
                        if c.read().strip() == name:
                            return int(kid)
                except OSError:
                    pass
    return 0


def main(tsrun, obj, prog, n):
    with tempfile.TemporaryDirectory() as d:
        go = os.path.join(d, "go")
        os.mkfifo(go)
        env = dict(os.environ, SUD_NO_FORK="1")
        ts = subprocess.Popen([tsrun, "-v", "--detach", obj, "--", prog, n,
                               go], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env)
        first = ts.stdout.readline()
        if first.strip() != "started":
            sys.exit("PROG said %r instead of 'started'" % first)
        pid = child_of(ts.pid, prog)
        # A handshake, not a timing assumption: the limit only keeps a
        # broken tsrun from hanging the test, which then fails below.
        deadline = time.monotonic() + 120
        while pid and tracer_of(pid) != 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        print("detached before go:", "yes" if pid and tracer_of(pid) == 0
              else "no")
        with open(go, "w") as f:
            f.write("x")
        out = ts.stdout.read()
        err = ts.stderr.read()
        ts.wait()
        sys.stdout.write(out)
        sys.stdout.write(err)
        print("tsrun status:", ts.returncode)


if __name__ == "__main__":
    main(*sys.argv[1:])
