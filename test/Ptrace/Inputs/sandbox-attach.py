#!/usr/bin/env python3
"""Attaches tsrun to a process that sandboxed itself, with handshakes.

  sandbox-attach.py [--detach] TSRUN OBJ PROG MODE N [TSRUN-OPTION...]

PROG (sandboxed.c) installs its seccomp filter, says "ready" and waits for
a byte on a FIFO. tsrun -v -p attaches; once it reports the attachment
(-v on stderr, or the target_attached event with -f json), or ends
refusing, PROG is released and works. With --detach, PROG says "worked"
after its first round and waits on a second FIFO; tsrun then gets SIGINT,
and once it has detached and ended, PROG is released for a second round,
untraced.
TSRUN may be a command with arguments ("PROG under TSRUN": tsrun itself
under seccomp).

Prints PROG's output and how it ended, then tsrun's output and what it
said on stderr (lines in order; PROG's pid replaced by PID), and its status.
A PROG killed by a seccomp filter ends "prog killed by SIGSYS".
"""
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time


def release(go, p):
    """Writes a byte to the FIFO GO once PROG has opened it; not if PROG is
    gone (killed) before that."""
    while p.poll() is None:
        try:
            fd = os.open(go, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # ENXIO: PROG has not opened it yet
            time.sleep(0.01)
            continue
        os.write(fd, b"x")
        os.close(fd)
        return


def wait_attached(ts, json_out):
    """Reads tsrun's stream until it says it is attached (or ends)."""
    seen = []
    for line in ts.stdout if json_out else ts.stderr:
        seen.append(line)
        if ": attached" in line or '"target_attached"' in line:
            break
    return seen


def trace(p, go, detach, command):
    first = p.stdout.readline()
    if first.strip() != "ready":
        sys.exit("PROG said %r instead of 'ready'" % first)
    ts = subprocess.Popen(command, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    try:
        json_out = "json" in command
        early = wait_attached(ts, json_out)
        release(go, p)
        out = []
        if detach:
            for line in iter(p.stdout.readline, ""):
                out.append(line)
                if line.strip() == "worked":
                    ts.send_signal(signal.SIGINT)
                    break
            ts_out, ts_err = ts.communicate(timeout=120)
            release(go + "2", p)
        out.append(p.communicate(timeout=120)[0])
        if not detach:
            ts_out, ts_err = ts.communicate(timeout=120)
    finally:
        if ts.poll() is None:
            ts.kill()
    sys.stdout.write("".join(out))
    if p.returncode < 0:
        print("prog killed by", signal.Signals(-p.returncode).name)
    else:
        print("prog status:", p.returncode)
    pid = re.compile(r"(pid[ \":]*)%d\b" % p.pid)
    stdout = ("".join(early) if json_out else "") + ts_out
    stderr = ("" if json_out else "".join(early)) + ts_err
    sys.stdout.write(pid.sub(r"\1PID", stdout))
    sys.stdout.write(pid.sub(r"\1PID", stderr))
    print("tsrun status:", ts.returncode)


def main(argv):
    detach = argv[0] == "--detach"
    if detach:
        argv = argv[1:]
    tsrun, obj, prog, mode, n, *opts = argv
    with tempfile.TemporaryDirectory() as d:
        go = os.path.join(d, "go")
        os.mkfifo(go)
        os.mkfifo(go + "2")
        p = subprocess.Popen([prog, mode, n, go], stdout=subprocess.PIPE,
                             text=True)
        try:
            trace(p, go, detach, [*shlex.split(tsrun), obj, "-v", *opts,
                                  "-p", str(p.pid)])
        finally:
            if p.poll() is None:  # the driver failed: leave nothing behind
                p.kill()


if __name__ == "__main__":
    main(sys.argv[1:])
