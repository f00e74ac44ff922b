#!/usr/bin/env python3
"""Drives steady.c under `tsrun --detach`, with FIFO handshakes.

  steady-driver.py gdb  TSRUN OBJ PROG   gdb attaches to PROG and reads a
      variable while PROG keeps hitting its probe; then PROG is told to
      finish. Prints what gdb read, PROG's report and tsrun's output.
  steady-driver.py kill TSRUN OBJ PROG   tsrun is SIGKILLed while PROG is
      detached; PROG goes on by itself. Prints PROG's report.

tsrun runs with -v; its lines about PROG's attachment are printed, with
the pid left out.
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time


def fifo(d, name):
    path = os.path.join(d, name)
    os.mkfifo(path)
    return path


def give_up(signum, frame):
    print("driver timed out")
    sys.stdout.flush()
    os._exit(1)


def attachment_lines(ts):
    """tsrun's -v lines up to the one that says PROG was let go of."""
    for line in ts.stderr:
        if ": detached: " in line or ": stays attached: " in line:
            print(re.sub(r"pid [0-9]+", "pid N", line.rstrip()))
            if ": detached: " in line:
                return True
    return False


def running(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def main(mode, tsrun, obj, prog):
    signal.signal(signal.SIGALRM, give_up)
    signal.alarm(120)
    with tempfile.TemporaryDirectory() as d:
        ready, go = fifo(d, "ready"), fifo(d, "go")
        out = os.path.join(d, "out")
        progout = os.path.join(d, "progout")
        with open(progout, "w") as po:
            ts = subprocess.Popen([tsrun, obj, "-v", "-o", out, "--detach",
                                   "--", prog,
                                   "loop" if mode == "gdb" else "kill",
                                   ready, go],
                                  stdout=po, stderr=subprocess.PIPE,
                                  text=True)
        with open(ready) as f:
            print("prog says:", f.readline().strip())
        if not attachment_lines(ts):
            print("not detached")
        # The program is tsrun's child (pid in /proc/.../children): the
        # backend thread forked it, so look at every task of tsrun.
        pids = []
        for task in os.listdir(f"/proc/{ts.pid}/task"):
            with open(f"/proc/{ts.pid}/task/{task}/children") as f:
                pids += [int(k) for k in f.read().split()]
        pid = [p for p in pids
               if os.readlink(f"/proc/{p}/exe") == os.path.realpath(prog)][0]
        if mode == "gdb":
            g = subprocess.run(["gdb", "-p", str(pid), "-batch", "-nx",
                                "-ex", "print magic",
                                "-ex", "print calls > 1000"],
                               capture_output=True, text=True)
            for line in g.stdout.splitlines():
                if line.startswith("$"):
                    print("gdb:", line)
            os.kill(pid, signal.SIGUSR2)
            ts.wait(timeout=60)
            print("tsrun status:", ts.returncode)
            with open(progout) as f:
                sys.stdout.write(f.read())
            with open(out) as f:
                sys.stdout.write(f.read())
            return
        else:
            ts.kill()
            ts.wait(timeout=60)
            print("tsrun status:", ts.returncode)
            with open(go, "w") as f:
                f.write("x\n")
            # PROG is nobody's child here now: wait for its report.
            while running(pid):
                time.sleep(0.01)
        signal.alarm(0)
        with open(progout) as f:
            sys.stdout.write(f.read())


if __name__ == "__main__":
    main(*sys.argv[1:5])
