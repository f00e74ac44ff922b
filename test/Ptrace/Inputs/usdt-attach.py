#!/usr/bin/env python3
"""usdt-attach.py TSRUN OBJ PROG: attach tsrun to PROG, let PROG run a USDT
probe, detach tsrun (SIGINT), then let PROG run it again. Handshakes only:
PROG prints "started" and blocks on FIFO 1 until tsrun reports that it is
attached; it prints "attached", runs the probe, forks, prints "stepped" and
blocks on FIFO 2 (its child on FIFO 3) until tsrun has ended.
Prints PROG's output, tsrun's output, and both exit statuses."""
import os
import signal
import subprocess
import sys
import tempfile


def release(path):
    # Opening blocks until the FIFO's one reader has opened it.
    with open(path, "w") as f:
        f.write("x")


def main(tsrun, obj, prog):
    with tempfile.TemporaryDirectory() as d:
        go1, go2, go3 = (os.path.join(d, n) for n in ("go1", "go2", "go3"))
        for fifo in (go1, go2, go3):
            os.mkfifo(fifo)
        p = subprocess.Popen([prog, go1, go2, go3], stdout=subprocess.PIPE,
                             text=True)
        out = [p.stdout.readline()]
        if not out[0].startswith("started"):
            sys.exit("PROG said %r" % out[0])
        extra = os.environ.get("USDT_ATTACH_TSRUN_ARGS", "").split()
        ts = subprocess.Popen([tsrun, obj, "-v", *extra, "-p", str(p.pid)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
        for line in ts.stderr:
            if ": attached" in line:
                break
        else:
            sys.exit("tsrun ended before attaching (status %s)" % ts.wait())
        release(go1)
        out.append(p.stdout.readline())
        out.append(p.stdout.readline())
        ts.send_signal(signal.SIGINT)
        ts_out, ts_err = ts.communicate(timeout=120)
        release(go3)  # the child
        release(go2)  # the program, which then waits for the child
        out.append(p.stdout.read())
        p.wait(timeout=120)
        sys.stdout.write("".join(out))
        sys.stdout.write(ts_out)
        print("prog status:", p.returncode)
        print("tsrun status:", ts.returncode)


if __name__ == "__main__":
    main(*sys.argv[1:])
