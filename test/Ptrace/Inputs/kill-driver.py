#!/usr/bin/env python3
"""SIGKILLs tsrun while it traces an attached process, with FIFO handshakes.

  kill-driver.py TSRUN OBJ PROG MODE

PROG (killme.c) runs first; tsrun -p attaches; PROG is released, and once
it says it is inside a probed function (MODE single) or hammering probes on
two threads (MODE threads), tsrun gets SIGKILL. Nobody cleans up after it:
PROG must carry on by itself. Prints PROG's own report and exit status.

MODE late is single, but PROG sets its SIGILL handler only once tsrun is
attached. MODE detach is single, but tsrun gets SIGINT instead and cleans
up after itself; what it says about that (-v) is printed. MODE reattach is single, plus a second tsrun that attaches right after the
first was killed, before PROG runs on: it must find the first one's
breakpoints repaired and trace PROG's next calls itself; it is then
stopped with SIGINT, and its output and status are printed.
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


def release(path):
    with open(path, "w") as f:
        f.write("x")


def main(tsrun, obj, prog, mode):
    with tempfile.TemporaryDirectory() as d:
        ready, go = fifo(d, "ready"), fifo(d, "go")
        p = subprocess.Popen([prog, mode, ready, go], stdout=subprocess.PIPE,
                             text=True)

        # A PROG stuck in a fault loop never answers a handshake: fail the
        # test instead of hanging the suite.
        def give_up(signum, frame):
            p.kill()
            print("prog hung")
            sys.stdout.flush()
            os._exit(1)
        signal.signal(signal.SIGALRM, give_up)
        signal.alarm(150)
        with open(ready) as f:
            assert f.readline().strip() == "started"
        ts = subprocess.Popen([tsrun, obj, "-v", "-o", os.devnull,
                               "-p", str(p.pid)],
                              stderr=subprocess.PIPE, text=True)
        # -v reports the attachment: from then on probes are in place.
        for line in ts.stderr:
            if ": attached" in line:
                sys.stdout.write(line)
                break
        release(go)
        with open(ready) as f:
            print("prog says:", f.readline().strip())
        if mode == "detach":
            ts.send_signal(signal.SIGINT)
            for line in ts.stderr:
                if "agent removed" in line or "warning" in line:
                    sys.stdout.write(line)
        else:
            ts.kill()
        ts.wait(timeout=60)
        print("tsrun status:", ts.returncode)
        second = None
        if mode == "reattach":
            second = subprocess.Popen([tsrun, obj, "-v", "-p", str(p.pid)],
                                      stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True)
            for line in second.stderr:
                sys.stdout.write("second " + line)
                if ": attached" in line:
                    break
        if mode in ("single", "reattach", "late", "detach"):
            release(go)
            with open(ready) as f:
                print("prog says:", f.readline().strip())
        if second:
            second.send_signal(signal.SIGINT)
            out, err = second.communicate(timeout=60)
            sys.stdout.write(out)
            sys.stdout.write("".join("second " + l + "\n"
                                     for l in err.splitlines()))
            print("second tsrun status:", second.returncode)
        if mode in ("single", "reattach", "late", "detach"):
            release(go)
        try:
            out = p.communicate(timeout=120)[0]
        except subprocess.TimeoutExpired:
            p.kill()  # a fault loop: fail, don't hang the suite
            out = p.communicate()[0] + "prog hung\n"
        signal.alarm(0)
        sys.stdout.write(out)
        print("prog status:", p.returncode)


if __name__ == "__main__":
    main(*sys.argv[1:5])
