#!/usr/bin/env python3
"""SIGKILL of tsrun while it traces a system-call-heavy process.

  sud-sigkill.py TSRUN OBJ PROG SECONDS

Starts PROG SECONDS, attaches TSRUN -v -p to it, waits for the attachment
and for PROG's calls to have been counted for a while (tsrun's first
periodic output is not needed: a fixed share of SECONDS is not a timing
assert, the test only checks PROG's own verdict), kills tsrun with SIGKILL
and prints PROG's output and exit status: it must run on to the end with
every result right.
"""
import os
import signal
import subprocess
import sys
import time


def main(tsrun, obj, prog, seconds):
    p = subprocess.Popen([prog, seconds], stdout=subprocess.PIPE, text=True)
    ready = p.stdout.readline().split()
    if len(ready) != 2 or ready[0] != "ready":
        sys.exit("PROG did not start")
    ts = subprocess.Popen([tsrun, obj, "-v", "-p", ready[1]],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    for line in ts.stderr:
        if ": attached" in line:
            break
    else:
        sys.exit("tsrun ended before attaching (status %s)" % ts.wait())
    # The handshake is the attachment; PROG loops for SECONDS whatever
    # happens, and is killed nowhere.
    time.sleep(float(seconds) / 4)
    ts.send_signal(signal.SIGKILL)
    ts.wait()
    print("tsrun killed")
    out = p.communicate(timeout=120)[0]
    sys.stdout.write(out)
    print("prog status:", p.returncode)


if __name__ == "__main__":
    main(*sys.argv[1:])
