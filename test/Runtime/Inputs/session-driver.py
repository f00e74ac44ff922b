#!/usr/bin/env python3
"""Drives tsrun through a signal-terminated session, with FIFO handshakes.

  session-driver.py launch TSRUN OBJ PROG SIGNAL OUT
      tsrun launches PROG; once PROG has called foo() (it says so through a
      FIFO), tsrun gets SIGNAL. Prints tsrun's exit status and PROG's fate.
  session-driver.py attach TSRUN OBJ PROG OUT
      PROG runs first; tsrun -p attaches; PROG is released to call foo();
      tsrun gets SIGINT and must detach, leaving PROG to finish normally.
"""
import os
import signal
import subprocess
import sys
import tempfile


def fifo(d, name):
    path = os.path.join(d, name)
    os.mkfifo(path)
    return path


def read_line(path):
    with open(path) as f:
        return f.readline().strip()


def launch(tsrun, obj, prog, signame, out):
    with tempfile.TemporaryDirectory() as d:
        ready = fifo(d, "ready")
        ts = subprocess.Popen([tsrun, obj, "0", "-o", out, "--", prog, ready],
                              stderr=subprocess.PIPE, text=True)
        print("prog says:", read_line(ready))
        ts.send_signal(getattr(signal, signame))
        err = ts.communicate(timeout=60)[1]
        print("tsrun status:", ts.returncode)
        sys.stdout.write(err)


def attach(tsrun, obj, prog, out):
    with tempfile.TemporaryDirectory() as d:
        ready, go = fifo(d, "ready"), fifo(d, "go")
        p = subprocess.Popen([prog, ready, go])
        ts = subprocess.Popen([tsrun, obj, "0", "-v", "-o", out,
                               "-p", str(p.pid)],
                              stderr=subprocess.PIPE, text=True)
        # -v reports the attachment: from then on probes are in place.
        for line in ts.stderr:
            sys.stdout.write(line)
            if ": attached" in line:
                break
        with open(go, "w") as g:
            g.write("x")
        print("prog says:", read_line(ready))
        ts.send_signal(signal.SIGINT)
        err = ts.communicate(timeout=60)[1]
        sys.stdout.write(err)
        print("tsrun status:", ts.returncode)
        # Detached and free to go on: release it once more.
        with open(go, "w") as g:
            g.write("x")
        print("prog status:", p.wait(timeout=60))


if __name__ == "__main__":
    if sys.argv[1] == "launch":
        launch(*sys.argv[2:7])
    else:
        attach(*sys.argv[2:6])
