#!/usr/bin/env python3
"""Runs `tsrun --exe WORKER -v` against a launcher whose execve() of WORKER
fails after the file was opened, and then a copy of WORKER started directly.

  exe-exec-fails.py DIR LAUNCHER WORKER OTHER -- TSRUN ARGS...

Prints the programs' own output, then `tracer hits PID N` per process the
tracer saw, then the tracer's stderr.
"""
import collections
import os
import signal
import subprocess
import sys


def main():
    work, launcher, worker, other = sys.argv[1:5]
    tracer = sys.argv[sys.argv.index("--") + 1:]
    trace_path = os.path.join(work, "tracer.txt")
    with open(trace_path, "w") as trace_out:
        t = subprocess.Popen(tracer + ["-v"], stdout=trace_out,
                             stderr=subprocess.PIPE, text=True)
        err = []
        # Handshake: the tracer says it watches.
        for line in t.stderr:
            err.append(line)
            if "watching for new ones" in line:
                break
        else:
            sys.exit("tracer ended early:\n" + "".join(err))
        progs = subprocess.run([launcher, worker, other], capture_output=True,
                               text=True).stdout
        progs += subprocess.run([worker, "-", "3", "0"], capture_output=True,
                                text=True).stdout
        t.send_signal(signal.SIGINT)
        err += t.stderr.readlines()
        t.wait()
    sys.stdout.write(progs)
    hits = collections.Counter(line.split()[1] for line in open(trace_path)
                               if line.startswith("hit "))
    for pid, n in sorted(hits.items()):
        print("tracer hits", pid, n)
    print("tracer status", t.returncode)
    sys.stdout.write("".join(err))


if __name__ == "__main__":
    main()
