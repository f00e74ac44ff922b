#!/usr/bin/env python3
"""Runs `tsrun --exe PROG` against copies of PROG it did not start.

  exe-driver.py DIR PROG -- TSRUN ARGS...

Starts 3 copies of PROG (test/Ptrace/Inputs/exe-worker.c) that wait for
end of file on a pipe, the first with a pool of 2 forked workers; then the tracer, with
-v so that it says on stderr when it attached to the running copies and
watches for new ones; then releases the waiting copies and starts 3 more
that run at once. When every copy is done it stops the tracer with SIGINT.
The tracer prints `hit PID` per call of work(); the copies print
`pid PID calls N`. Prints one line per process, `PID ok N` or
`PID MISMATCH program N tracer M`, then `processes N mismatches M`.
"""
import collections
import os
import signal
import subprocess
import sys


def main():
    work, prog = sys.argv[1], sys.argv[2]
    tracer = sys.argv[sys.argv.index("--") + 1:]
    go_read, go_write = os.pipe()
    out_path = os.path.join(work, "programs.txt")
    out = open(out_path, "w")
    before = [subprocess.Popen([prog, str(go_read), str(10 + i),
                                "2" if i == 0 else "0"],
                               stdout=out, pass_fds=[go_read])
              for i in range(3)]
    os.close(go_read)
    trace_out = open(os.path.join(work, "tracer.txt"), "w")
    t = subprocess.Popen(tracer + ["-v"], stdout=trace_out,
                         stderr=subprocess.PIPE, text=True)
    err = []
    # Handshake: the tracer says it attached and watches.
    for line in t.stderr:
        err.append(line)
        if "--exe: attached to" in line:
            break
    else:
        sys.exit("tracer ended early:\n" + "".join(err))
    os.close(go_write)  # every waiting copy reads end of file: go
    after = [subprocess.Popen([prog, "-", str(20 + i), "0"], stdout=out)
             for i in range(3)]
    for p in before + after:
        p.wait()
    t.send_signal(signal.SIGINT)
    err += t.stderr.readlines()
    t.wait()
    trace_out.close()
    out.close()
    open(os.path.join(work, "tracer.err"), "w").write("".join(err))
    want = {}
    for line in open(out_path):
        _, pid, _, n = line.split()
        want[int(pid)] = int(n)
    got = collections.Counter()
    for line in open(os.path.join(work, "tracer.txt")):
        if line.startswith("hit "):
            got[int(line.split()[1])] += 1
    bad = 0
    for pid in sorted(set(want) | set(got)):
        if want.get(pid) == got[pid]:
            print("%d ok %d" % (pid, got[pid]))
        else:
            bad += 1
            print("%d MISMATCH program %s tracer %d" %
                  (pid, want.get(pid), got[pid]))
    print("processes %d mismatches %d tracer status %d" %
          (len(want), bad, t.returncode))


if __name__ == "__main__":
    main()
