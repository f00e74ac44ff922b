#!/usr/bin/env python3
"""Ends tsrun at random moments while it traces a system-call-heavy
process it attached to; the process must not notice.

  sud-stress.py TSRUN OBJ PROG [--rounds N] [--threads T] [--max-delay S]
                [--signals INT,TERM,KILL] [--seed X] [--verbose]
                [--prog-arg raise|call]
                [-- TSRUN-ARGS...]

Every round starts PROG (sud-stress.c), attaches `TSRUN OBJ -v -p PID
TSRUN-ARGS` to it, waits until tsrun says it is attached, sends it the
next of --signals (in turn) after a random delay below --max-delay, waits
for tsrun to end, tells PROG to go on, and compares PROG's last line with
an untraced run's: every system-call result right, glibc's code its own
bytes, and (unless tsrun was SIGKILLed, after which the agent's SIGSYS
handler stays in front of the program's: docs/runtime.md) SIGSYS the
program's. PROG must exit with status 0, and tsrun too unless SIGKILLed.
Prints one line per failed round, then "sud-stress: N of N rounds exact".
Synchronisation is by handshakes; only the moment of the end is random.
"""
import argparse
import random
import signal
import subprocess
import sys
import threading

ROUND_TIMEOUT = 120


class Lines(threading.Thread):
    """A stream's lines, collected in the background; attached is set once
    tsrun says it is attached (or the stream ends)."""

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


def untraced(prog, threads, prog_args):
    p = subprocess.run([prog, str(threads)] + prog_args, input="go\n", text=True,
                       capture_output=True, timeout=ROUND_TIMEOUT)
    lines = p.stdout.splitlines()
    if p.returncode != 0 or len(lines) != 2:
        sys.exit("untraced run failed: status %d, output %r" %
                 (p.returncode, p.stdout))
    return lines[1]


def one_round(a, sig, delay, want):
    prog = subprocess.Popen([a.prog, str(a.threads)] + a.prog_args, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    ready = prog.stdout.readline().split()
    if len(ready) != 2 or ready[0] != "ready":
        prog.kill()
        prog.wait()
        return "PROG did not start", []
    ts = subprocess.Popen([a.tsrun, a.obj, "-v", "-o", "/dev/null", "-p",
                           ready[1]] + a.tsrun_args,
                          stdin=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    err = Lines(ts.stderr)
    err.attached.wait(ROUND_TIMEOUT)
    problem = None
    if not any(": attached" in l for l in err.lines):
        problem = "tsrun did not attach"
    else:
        threading.Event().wait(delay)
        ts.send_signal(sig)
    try:
        ts.wait(timeout=ROUND_TIMEOUT)
    except subprocess.TimeoutExpired:
        ts.kill()
        ts.wait()
        problem = problem or "tsrun did not end"
    try:
        prog.stdin.write("go\n")
        prog.stdin.flush()
    except BrokenPipeError:
        pass  # it died: its status says how
    try:
        report = prog.communicate(timeout=ROUND_TIMEOUT)[0].strip()
    except subprocess.TimeoutExpired:
        prog.kill()
        report = prog.communicate()[0].strip()
        problem = problem or "PROG hung"
    err.join(ROUND_TIMEOUT)
    if sig == signal.SIGKILL:
        want = want.replace("sigsys=dfl", "sigsys=changed")
        report = report.replace("sigsys=dfl", "sigsys=changed")
    if problem:
        pass
    elif prog.returncode != 0:
        problem = "PROG ended with status %d, saying %r" % (prog.returncode,
                                                           report)
    elif report != want:
        problem = "PROG says %r, untraced %r" % (report, want)
    elif sig != signal.SIGKILL and ts.returncode != 0:
        problem = "tsrun ended with status %d" % ts.returncode
    return problem, err.lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tsrun")
    ap.add_argument("obj")
    ap.add_argument("prog")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--max-delay", type=float, default=0.5)
    ap.add_argument("--signals", default="INT,TERM,KILL")
    ap.add_argument("--prog-arg", dest="prog_args", action="append",
                    default=[], help="passed to PROG after THREADS")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--verbose", action="store_true")
    argv = sys.argv[1:]
    extra = argv.index("--") if "--" in argv else len(argv)
    a = ap.parse_args(argv[:extra])
    a.tsrun_args = argv[extra + 1:]
    sigs = [getattr(signal, "SIG" + s) for s in a.signals.split(",")]
    seed = a.seed if a.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    want = untraced(a.prog, a.threads, a.prog_args)
    exact = 0
    for i in range(a.rounds):
        sig = sigs[i % len(sigs)]
        delay = rng.uniform(0, a.max_delay)
        problem, said = one_round(a, sig, delay, want)
        if problem:
            print("round %d (seed %d, %s after %.3f s): %s" %
                  (i, seed, signal.Signals(sig).name, delay, problem))
            for l in [l for l in said if ": probe @@" not in l][-6:]:
                print("  " + l)
        else:
            exact += 1
        if a.verbose:
            print("round %d: %s after %.3f s: %s" %
                  (i, signal.Signals(sig).name, delay, problem or "exact"))
    print("sud-stress: %d of %d rounds exact (seed %d)" %
          (exact, a.rounds, seed))
    return 0 if exact == a.rounds else 1


if __name__ == "__main__":
    sys.exit(main())
