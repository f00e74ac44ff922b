#!/usr/bin/env python3
"""Runs PROG, attaches tsrun to it, then lets PROG go, with FIFO handshakes.

  attach-run.py TSRUN OBJ PROG [ARG...]

PROG is started as `PROG ARG... GO`; it must print "started" once its
start-up is over (so the dynamic loader's own system calls are not traced)
and then block reading one byte from the FIFO GO before it does anything
worth tracing. tsrun -p attaches; once
it reports the attachment (-v), PROG is released, and both run to the end:
tsrun's session ends when its only target exits. Prints PROG's output, then
tsrun's (standard output, then all of its -v messages), then both exit
statuses.

$ATTACH_RUN_TSRUN_ARGS adds options to tsrun's command line (split at
spaces), and $ATTACH_RUN_WAIT_FOR is the -v message to wait for before
PROG is let go (default ": attached"). With $ATTACH_RUN_REAP_AFTER, PROG
is not collected (waitpid) until tsrun's -v says that (its exit line, say),
so that tsrun, not PROG's parent, can read its status from the ended
process.
"""
import os
import signal
import subprocess
import sys
import tempfile


def main(tsrun, obj, prog, *args):
    with tempfile.TemporaryDirectory() as d:
        go = os.path.join(d, "go")
        os.mkfifo(go)
        p = subprocess.Popen([prog, *args, go], stdout=subprocess.PIPE,
                             text=True)
        first = p.stdout.readline()
        if first.strip() != "started":
            sys.exit("PROG said %r instead of 'started'" % first)
        extra = os.environ.get("ATTACH_RUN_TSRUN_ARGS", "").split()
        wait_for = os.environ.get("ATTACH_RUN_WAIT_FOR", ": attached")
        ts = subprocess.Popen([tsrun, obj, "-v", *extra, "-p", str(p.pid)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
        # -v reports the attachment: from then on probes are in place. A
        # message that never comes fails the test, not hangs it.
        signal.signal(signal.SIGALRM, lambda s, f: (
            p.kill(), ts.kill(), sys.exit("tsrun never said %r" % wait_for)))
        signal.alarm(120)
        before = []
        for line in ts.stderr:
            before.append(line)
            if wait_for in line:
                break
            if ": stays attached: " in line and ": detached" in wait_for:
                p.kill()
                ts.kill()
                sys.exit("tsrun did not let go: " + line.strip())
        else:
            sys.exit("tsrun ended before attaching (status %s)" % ts.wait())
        signal.alarm(0)
        with open(go, "w") as g:
            g.write("x")
        reap_after = os.environ.get("ATTACH_RUN_REAP_AFTER")
        if reap_after:
            # Standard output ends when PROG does; it stays uncollected
            # until tsrun has said what it wants to say about its end.
            prog_out = p.stdout.read()
            signal.signal(signal.SIGALRM, lambda s, f: (
                ts.kill(), sys.exit("tsrun never said %r" % reap_after)))
            signal.alarm(120)
            for line in ts.stderr:
                before.append(line)
                if reap_after in line:
                    break
            signal.alarm(0)
            p.wait(timeout=120)
        else:
            prog_out = p.communicate(timeout=120)[0]
        ts_out, ts_err = ts.communicate(timeout=120)
        sys.stdout.write(prog_out)
        sys.stdout.write(ts_out)
        sys.stdout.write("".join(before) + ts_err)
        print("prog status:", p.returncode)
        print("tsrun status:", ts.returncode)


if __name__ == "__main__":
    main(*sys.argv[1:])
