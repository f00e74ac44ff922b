#!/usr/bin/env python3
"""Detaches tsrun from hot targets at random moments; the targets must not
notice (detach-target.c computes and checks its own work).

  detach-driver.py MODE TSRUN OBJ PROG [--rounds N] [--threads T]
                   [--max-delay S] [--max-hits H] [--seed X] [--verbose]

Every round starts PROG, traces it, ends the session at a random moment
and then lets PROG finish. PROG's report (its checksum, epochs that came
out wrong, its code and signal dispositions) must equal that of an
untraced run, and PROG must exit with status 0. MODE says how the session
is traced and ended:

  attach  PROG runs first; `tsrun OBJ -p PID`; once tsrun says it is
          attached, it gets SIGINT or SIGTERM (alternately) after a random
          delay;
  launch  `tsrun OBJ --keep-launched -- PROG`; once PROG says it is ready,
          tsrun gets SIGINT after a random delay;
  exit    as attach, but OBJ calls exit() itself when its $1-th hit comes,
          $1 being random (below --max-hits).

Synchronisation is by handshakes (PROG prints "ready" once its threads are
hot, tsrun -v prints "attached"; PROG waits for a line on stdin, sent once
tsrun has exited); only the moment of the end is random. Prints one line
per failed round, then a summary: "MODE: N of N rounds exact".
"""
import argparse
import ctypes
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time

PR_SET_CHILD_SUBREAPER = 36
ROUND_TIMEOUT = 120


class Round:
    """What one round saw."""

    def __init__(self):
        self.report = None
        self.status = None
        self.tsrun_status = None
        self.removed = []
        self.said = []
        self.problem = None


def untraced(prog, threads):
    p = subprocess.run([prog, str(threads)], input="go\n", text=True,
                       capture_output=True, timeout=ROUND_TIMEOUT)
    lines = p.stdout.splitlines()
    if p.returncode != 0 or len(lines) != 2:
        sys.exit("untraced run failed: status %d, output %r" %
                 (p.returncode, p.stdout))
    return lines[1]


class Lines(threading.Thread):
    """Collects a stream's lines in the background; attached is set once a
    line with ": attached" came (or the stream ended)."""

    def __init__(self, stream):
        super().__init__(daemon=True)
        self.stream = stream
        self.lines = []
        self.attached = threading.Event()
        self.start()

    def run(self):
        for line in self.stream:
            self.lines.append(line.rstrip("\n"))
            if ": attached" in line:
                self.attached.set()
        self.attached.set()

    def saw_attached(self):
        self.attached.wait(ROUND_TIMEOUT)
        return any(": attached" in l for l in self.lines)


def readline_within(stream, timeout=ROUND_TIMEOUT):
    """A line of stream, or None if none came in time (a blocked reader
    thread is left behind; the stream's writer is killed after)."""
    got = []
    t = threading.Thread(target=lambda: got.append(stream.readline()),
                         daemon=True)
    t.start()
    t.join(timeout)
    return got[0] if got else None


def proc_state(pid):
    """What the kernel says a process is doing: its state, tracer and
    wait channel, for a round where it stopped answering."""
    try:
        with open("/proc/%d/status" % pid) as f:
            fields = dict(l.split(":", 1) for l in f if ":" in l)
        with open("/proc/%d/wchan" % pid) as f:
            wchan = f.read().strip()
        return "state %s, TracerPid %s, SigBlk %s, wchan %s" % (
            fields["State"].strip(), fields["TracerPid"].strip(),
            fields["SigBlk"].strip(), wchan)
    except (OSError, KeyError):
        return "gone"


def threads_state(pid):
    """State and stop signal-ish facts of each thread of pid, one word each."""
    out = []
    try:
        for tid in sorted(os.listdir("/proc/%d/task" % pid), key=int):
            try:
                with open("/proc/%d/task/%s/stat" % (pid, tid)) as f:
                    stat = f.read()
                with open("/proc/%d/task/%s/wchan" % (pid, tid)) as f:
                    wchan = f.read().strip()
                out.append("%s:%s:%s" % (tid, stat.rsplit(")", 1)[1].split()[0],
                                         wchan))
            except OSError:
                out.append(tid + ":gone")
    except OSError:
        return "gone"
    return " ".join(out)


def backtrace(pid):
    """Every thread's stack of a process that stopped answering, where gdb
    is installed (for the log of a failed run)."""
    gdb = shutil.which("gdb")
    if not gdb:
        return ""
    try:
        p = subprocess.run([gdb, "-batch", "-p", str(pid), "-ex",
                            "thread apply all bt 25"], capture_output=True,
                           text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "\n  (gdb did not answer)"
    lines = [l for l in p.stdout.splitlines() if l.startswith(("#", "Thread"))]
    return "".join("\n    " + l for l in lines[:80])


def finish(r, prog_in, prog_out, prog_status, tsrun, err, pid):
    """tsrun was told to end (or ends by itself): wait for it, release
    PROG, collect both."""
    try:
        tsrun.wait(timeout=ROUND_TIMEOUT)
    except subprocess.TimeoutExpired:
        r.problem = "tsrun did not end (%s); PROG's threads: %s%s" % (
            proc_state(tsrun.pid), threads_state(pid), backtrace(tsrun.pid))
        tsrun.kill()
        tsrun.wait()
    r.tsrun_status = tsrun.returncode
    try:
        prog_in.write("go\n")
        prog_in.flush()
    except BrokenPipeError:
        pass  # it died; its status says how
    line = readline_within(prog_out, 60)
    if line is None:
        r.problem = "PROG did not answer after tsrun ended (%s)" % (
            proc_state(pid))
        os.kill(pid, signal.SIGKILL)
    r.report = (line or "").strip() or None
    r.status = prog_status()
    err.join(ROUND_TIMEOUT)  # PROG may hold tsrun's stderr too
    r.removed = [l for l in err.lines if "agent removed" in l]
    r.said = [l for l in err.lines if ": probe @@" not in l]


def wait_orphan(pid):
    """The exit status of PROG when it is tsrun's child, reparented to us."""
    deadline = time.monotonic() + ROUND_TIMEOUT
    while time.monotonic() < deadline:
        try:
            got, st = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return "not reaped"
        if got == pid:
            return os.waitstatus_to_exitcode(st)
        time.sleep(0.01)
    os.kill(pid, signal.SIGKILL)
    return "hung"


def popen_status(p):
    def status():
        try:
            p.wait(timeout=ROUND_TIMEOUT)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        return p.returncode
    return status


def attach_round(a, obj_args, sig, delay):
    r = Round()
    prog = subprocess.Popen([a.prog, str(a.threads)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    ready = (readline_within(prog.stdout) or "").split()
    if len(ready) != 2 or ready[0] != "ready":
        prog.kill()
        prog.wait()
        r.problem = "PROG did not start"
        return r
    ts = subprocess.Popen([a.tsrun, a.obj] + obj_args +
                          ["-v", "-o", os.devnull, "-p", ready[1]],
                          stdin=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    err = Lines(ts.stderr)
    if not err.saw_attached():
        r.problem = "tsrun did not attach: " + " | ".join(err.lines[-3:])
    elif sig is not None:
        time.sleep(delay)
        ts.send_signal(sig)
    finish(r, prog.stdin, prog.stdout, popen_status(prog), ts, err,
           prog.pid)
    return r


def launch_round(a, delay):
    r = Round()
    ts = subprocess.Popen([a.tsrun, a.obj, "-v", "-o", os.devnull,
                           "--keep-launched", "--", a.prog, str(a.threads)],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    err = Lines(ts.stderr)
    ready = (readline_within(ts.stdout) or "").split()
    if len(ready) != 2 or ready[0] != "ready":
        ts.kill()
        ts.wait()
        r.problem = "PROG did not start under tsrun: " + " | ".join(
            err.lines[-3:])
        return r
    time.sleep(delay)
    ts.send_signal(signal.SIGINT)
    # PROG's stdin and stdout are the pipes tsrun was given; it is tsrun's
    # child, so it is ours (we are a subreaper) once tsrun is gone.
    pid = int(ready[1])
    finish(r, ts.stdin, ts.stdout, lambda: wait_orphan(pid), ts, err, pid)
    return r


def check(r, want):
    if r.problem:
        return r.problem
    if r.status != 0:
        return "PROG ended with status %s, saying %r" % (r.status, r.report)
    if r.report != want:
        return "PROG says %r, untraced %r" % (r.report, want)
    if r.tsrun_status != 0:
        return "tsrun ended with status %s" % r.tsrun_status
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["attach", "launch", "exit"])
    ap.add_argument("tsrun")
    ap.add_argument("obj")
    ap.add_argument("prog")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--max-delay", type=float, default=0.5)
    ap.add_argument("--max-hits", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    want = untraced(a.prog, a.threads)
    exact = 0
    unmapped = 0
    for i in range(a.rounds):
        delay = rng.uniform(0, a.max_delay)
        began = time.monotonic()
        if a.mode == "attach":
            sig = signal.SIGINT if i % 2 == 0 else signal.SIGTERM
            r = attach_round(a, [], sig, delay)
        elif a.mode == "exit":
            hits = rng.randrange(1, a.max_hits)
            r = attach_round(a, [str(hits)], None, None)
            delay = hits
        else:
            r = launch_round(a, delay)
        unmapped += any("memory unmapped" in l for l in r.removed)
        why = check(r, want)
        if why:
            print("round %d (seed %d, %s %s): %s" %
                  (i, seed, "hits" if a.mode == "exit" else "delay",
                   delay, why))
            for l in r.said[-6:]:
                print("  " + l)
        else:
            exact += 1
        if a.verbose:
            print("round %d: delay %s, %.1f s, %s" %
                  (i, delay, time.monotonic() - began, r.removed))
    print("%s: %d of %d rounds exact" % (a.mode, exact, a.rounds))
    print("agent memory unmapped in %d of %d rounds (seed %d)" %
          (unmapped, a.rounds, seed))
    return 0 if exact == a.rounds else 1


if __name__ == "__main__":
    sys.exit(main())
