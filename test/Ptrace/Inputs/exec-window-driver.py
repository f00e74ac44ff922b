#!/usr/bin/env python3
"""tsrun is SIGKILLed while a detached program waits for its exec window.

  exec-window-driver.py TSRUN OBJ PROG

PROG (exec-chain.c, mode window) runs under `tsrun -v --detach`. Once it
is detached and says it is ready, tsrun is stopped (SIGSTOP), so that it
cannot grant a window; PROG is told to go on, and its execve() waits in
the agent for the window (seen in /proc/PID/syscall: a futex wait). tsrun
is then SIGKILLed. PROG must go on by itself: its failed exec returns, its
probe sites are put back (its code as the file has it) and its last exec
runs. Prints tsrun's status and PROG's output.
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

FUTEX = "202"  # x86-64; PROG is a 64-bit program here


def give_up(signum, frame):
    print("driver timed out")
    sys.stdout.flush()
    os._exit(1)


def running(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def child_of(ts, prog):
    """PROG's pid: the backend thread forked it, so look at every task."""
    for task in os.listdir(f"/proc/{ts}/task"):
        with open(f"/proc/{ts}/task/{task}/children") as f:
            for k in f.read().split():
                if os.readlink(f"/proc/{k}/exe") == os.path.realpath(prog):
                    return int(k)
    return None


def syscall_of(pid):
    try:
        with open(f"/proc/{pid}/syscall") as f:
            return f.read().split()[0]
    except OSError:
        return None


def main(tsrun, obj, prog):
    signal.signal(signal.SIGALRM, give_up)
    signal.alarm(120)
    with tempfile.TemporaryDirectory() as d:
        ready, go = os.path.join(d, "ready"), os.path.join(d, "go")
        os.mkfifo(ready)
        os.mkfifo(go)
        progout = os.path.join(d, "progout")
        with open(progout, "w") as po:
            ts = subprocess.Popen([tsrun, obj, "-v", "-o", os.devnull,
                                   "--detach", "--", prog, "window", ready,
                                   go, prog],
                                  stdout=po, stderr=subprocess.PIPE,
                                  text=True)
        with open(ready) as f:
            print("prog says:", f.readline().strip())
        for line in ts.stderr:
            if ": detached: " in line or ": stays attached: " in line:
                print("tsrun:", line.split(": ", 2)[2].strip())
                break
        pid = child_of(ts.pid, prog)
        os.kill(ts.pid, signal.SIGSTOP)
        with open(go, "w") as f:
            f.write("go\n")
        while syscall_of(pid) != FUTEX:
            time.sleep(0.01)
        print("prog waits for its window")
        ts.kill()
        ts.wait(timeout=60)
        print("tsrun status:", ts.returncode)
        # PROG is nobody's child here now: wait for it to end.
        while running(pid):
            time.sleep(0.01)
        signal.alarm(0)
        with open(progout) as f:
            sys.stdout.write(f.read())


if __name__ == "__main__":
    main(*sys.argv[1:4])
