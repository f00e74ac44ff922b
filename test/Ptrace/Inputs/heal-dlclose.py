#!/usr/bin/env python3
"""Drives heal-dlclose.c: attaches tsrun (-p), lets the program call the
probed library function, SIGKILLs tsrun, and lets the program replace the
library. Prints the program's output and exit status.

  heal-dlclose.py TSRUN OBJ PROG LIBA LIBB
"""
import os
import signal
import subprocess
import sys
import tempfile


def main(tsrun, obj, prog, liba, libb):
    with tempfile.TemporaryDirectory() as d:
        ready, go = os.path.join(d, "ready"), os.path.join(d, "go")
        os.mkfifo(ready)
        os.mkfifo(go)
        p = subprocess.Popen([prog, liba, libb, ready, go],
                             stdout=subprocess.PIPE, text=True)
        signal.signal(signal.SIGALRM, lambda *a: (p.kill(), os._exit(1)))
        signal.alarm(150)
        with open(ready) as f:
            assert f.readline().strip() == "started"
        ts = subprocess.Popen([tsrun, obj, "-v", "-o", os.devnull,
                               "-p", str(p.pid)],
                              stderr=subprocess.PIPE, text=True)
        for line in ts.stderr:  # -v: probes are in place once attached
            if "in libA.so" in line:
                sys.stdout.write(line.split(": ", 1)[1])
            if ": attached" in line:
                break
        with open(go, "w") as f:
            f.write("x")
        with open(ready) as f:
            assert f.readline().strip() == "called"
        ts.kill()
        ts.wait()
        with open(go, "w") as f:
            f.write("x")
        out = p.stdout.read()
        print(out, end="")
        print("status", p.wait())


if __name__ == "__main__":
    main(*sys.argv[1:])
