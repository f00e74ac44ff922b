#!/usr/bin/env python3
"""Detaches tsrun from a process deep in a recursion with hijacked returns.

  deep-detach.py TSRUN OBJ PROG DEPTH

PROG (deepwait.c) runs first; tsrun -p -v attaches; PROG is released and
recurses DEPTH calls deep; once it says it is at the bottom, tsrun gets
SIGINT and takes the agent out. What tsrun says about that, its status,
and then PROG's own report and status are printed.
"""
import os
import signal
import subprocess
import sys
import tempfile


def main(tsrun, obj, prog, depth):
    with tempfile.TemporaryDirectory() as d:
        ready, go = os.path.join(d, "ready"), os.path.join(d, "go")
        os.mkfifo(ready)
        os.mkfifo(go)
        p = subprocess.Popen([prog, depth, ready, go], stdout=subprocess.PIPE,
                             text=True)
        signal.signal(signal.SIGALRM, lambda *_: (p.kill(), os._exit(1)))
        signal.alarm(150)
        with open(ready) as f:
            assert f.readline().strip() == "started"
        ts = subprocess.Popen([tsrun, obj, "-v", "-o", os.devnull,
                               "-p", str(p.pid)],
                              stderr=subprocess.PIPE, text=True)
        for line in ts.stderr:
            if ": attached" in line:
                break
        with open(go, "w") as f:
            f.write("x")
        with open(ready) as f:
            print("prog says:", f.readline().strip())
        ts.send_signal(signal.SIGINT)
        for line in ts.stderr:
            if "agent removed" in line or "warning" in line:
                sys.stdout.write(line)
        ts.wait(timeout=60)
        print("tsrun status:", ts.returncode)
        with open(go, "w") as f:
            f.write("x")
        out, _ = p.communicate(timeout=60)
        sys.stdout.write(out)
        print("prog status:", p.returncode)


if __name__ == "__main__":
    main(*sys.argv[1:])
