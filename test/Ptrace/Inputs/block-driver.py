#!/usr/bin/env python3
"""--on-full=block under a sink that stalls, with handshakes, no sleeps.

  block-driver.py slow TSRUN OBJ PROG N [TSRUN-ARGS...]
  block-driver.py kill TSRUN OBJ PROG N [TSRUN-ARGS...]

tsrun runs PROG N (burst.c: hit(0) .. hit(N-1)) with --on-full=block and
the smallest thread buffer, writing text into a FIFO that this driver
reads. The driver reads the first record, then stops reading until the
program's thread is seen waiting for room in a futex (in-process) or
tsrun has stopped it at a breakpoint (--ptrace): its buffer, the FIFO and
tsrun's own buffers are full by then. In mode slow it then reads the rest
and prints it (the records must all be there, in order). In mode kill,
PROG is started first and tsrun attaches to it (-p: a launched program
dies with tsrun); the driver SIGKILLs tsrun instead of reading on: the
program must not hang on a reader that is gone, and its own report (it
finished its calls) and exit status are printed.
"""
import os
import signal
import subprocess
import sys
import tempfile
import threading

FUTEX = ("202 ", "240 ")  # futex on x86_64, on i386


def waiting(pid):
    """Whether a thread of pid sleeps in a futex or in a ptrace stop (or
    pid is gone: it waited for nothing)."""
    try:
        for tid in os.listdir("/proc/%d/task" % pid):
            base = "/proc/%d/task/%s/" % (pid, tid)
            with open(base + "stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
            if state == "t":
                return True
            with open(base + "syscall") as f:
                if f.read().startswith(FUTEX):
                    return True
    except OSError:
        return not os.path.exists("/proc/%d" % pid)
    return False


def main(mode, tsrun, obj, prog, n, extra):
    def give_up(signum, frame):
        print("hung")
        sys.stdout.flush()
        os._exit(1)
    signal.signal(signal.SIGALRM, give_up)
    signal.alarm(240)
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out")
        os.mkfifo(out)
        progout = os.path.join(d, "prog")
        args = [tsrun, obj, "-v", "--on-full=block", "--thread-buffer", "64K",
                "--burst-buffers", "0", "-o", out] + extra
        if mode == "kill":
            # Attached: a launched program dies with tsrun.
            p = subprocess.Popen([prog, n, "wait"], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True)
            assert p.stdout.readline().strip() == "ready"
            args += ["-p", str(p.pid)]
        else:
            args += ["--", prog, n]
        ts = subprocess.Popen(args, stdout=open(progout, "w"),
                              stderr=subprocess.PIPE, text=True)
        pid = [p.pid] if mode == "kill" else []
        err = []
        started = threading.Event()

        def read_err():
            for line in ts.stderr:
                err.append(line)
                if ": launched" in line and not pid:
                    pid.append(int(line.split("pid ")[1].split()[0]))
                if ": launched" in line or ": attached" in line:
                    started.set()
            started.set()
        t = threading.Thread(target=read_err)
        t.start()
        f = open(out)
        started.wait()
        if mode == "kill":
            p.stdin.write("go\n")
            p.stdin.flush()
        first = f.readline()
        while pid and not waiting(pid[0]):
            os.sched_yield()
        if mode == "kill":
            ts.kill()
            ts.wait()
            t.join()
            print("tsrun status:", ts.returncode)
            # The program, on its own now, must finish its calls.
            sys.stdout.write(p.stdout.read())
            print("prog status:", p.wait())
            return
        sys.stdout.write(first)
        for line in f:
            sys.stdout.write(line)
        ts.wait()
        t.join()
        print("tsrun status:", ts.returncode)
        sys.stdout.write("".join(l for l in err if "warning" in l or
                                 "drops" in l or "lost" in l))
        with open(progout) as f:
            sys.stdout.write(f.read())

if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5],
         sys.argv[6:])
