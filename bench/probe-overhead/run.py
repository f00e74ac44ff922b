#!/usr/bin/env python3
"""Per-hit cost of a user-function probe, native x86-64 processes (and,
with --m32, i386 processes: the same program built -m32, run natively and
under qemu-i386).

Runs the same loop program (loop.c: N calls of hit(a, b)) under each tracer
with an entry probe that counts (count.t), an entry probe that prints both
arguments (print.t), an exit probe that counts (exit.t) and an entry
probe that counts by call stack (stack.t, @[stktrace()]), at two run
lengths, and reports the slope (time per extra hit), so start-up costs
cancel out. Prints a markdown table, then the project's goals for the
in-process agent, computed from the same run.

  bench/probe-overhead/run.py [--n1 N] [--n2 N] [--n1-fast N] [--n2-fast N]
                              [--n1-print N] [--n2-print N]
                              [--n1-remote N] [--n2-remote N]
                              [--n1-guest N] [--n2-guest N] [--scale K]
                              [--repeat K] [--only-tsrun] [--kinds K,...]
                              [--m32]
  TSCC=... TSRUN=... choose the tools (default: build*/bin, then PATH)

Rows:
  limit: ...            (64-bit only) loop.c's loop with hit() patched by
                        hand as tsrun patches it (limit.c): a jmp to a
                        trampoline that calls a handler which counts, or
                        which also saves and restores every register the
                        agent saves; the floor a probe's hit can reach
  tsrun, ...            the default path: clauses run inside the traced
                        process (in-process agent); a hit costs tens of ns,
                        so these rows and "(no tracer)" run --n1-fast and
                        --n2-fast calls (default 1M and 10M); the printing
                        one runs --n1-print and --n2-print (100k and 1M)
                        with a thread buffer that keeps every record
  tsrun, count by stack the clause keys by stack: the agent walks the stack
                        in the process (--ptrace: tsrun unwinds the stopped
                        thread at a breakpoint)
  tsrun --ptrace, ...   every hit is a ptrace stop and the clause runs in
                        tsrun; --spin 0 makes tsrun sleep instead of poll
                        between hits (spin only matters for ptrace stops)
  bpftrace, gdb, ltrace the peers; they, and the --ptrace rows, run --n1
                        and --n2 calls (default 5000 and 20000)
  --only-tsrun skips gdb and ltrace (slow); bpftrace stays, it is the
  reference. A peer that is not installed is listed as such.
  --m32                 the program is built -m32 and traced natively; tsrun's
                        in-process rows then run the object's i386 code in
                        the agent of the 32-bit process. bpftrace counts its
                        hits the same, but reads arg0/arg1 from rdi/rsi (the
                        x86-64 convention): its printed values are not the
                        arguments, which its row does not check. gdb's
                        dprintf reads them from the stack (i386 cdecl).
  tsrun --remote qemu-i386 (RSP), count
                        with --m32, when qemu-i386 is installed: the same
                        32-bit program under `qemu-i386 -g PORT`, traced
                        through the GDB stub (utils/lit/remote_session.py
                        starts the stub); every hit is a stop and several
                        round trips, so it runs --n1-remote and --n2-remote
                        calls (default 200 and 1000); its loop time comes
                        from the program's stderr, which qemu passes on
  tsrun --remote qemu-i386 in-process, count
                        the same with the clause run in the guest by the
                        in-process agent put in through the stub (the
                        default for qemu-i386 on this machine; the RSP row
                        sets TSCC_REMOTE_AGENT=0); --n1-guest and
                        --n2-guest calls (default 20000 and 200000)
  --scale K             multiplies every run length by K (default 1: short
                        rounds, a few seconds a row; 10 for a longer run)

Columns: "per hit" is the traced program's slowdown per call, in ns, from
the loop's own timing (loop.c reports it); "vs bpftrace" divides it by the
bpftrace row of the same kind (entry count: uprobe count; print 2 args:
uprobe printf; exit probe: uretprobe count; by stack: uprobe
@[ustack] = count()); "whole run per hit" is the
same slope of the whole command's wall time, tracer set-up and wind-down
included (an in-process tsrun that prints formats the records after the
program is done with them); "CPU per hit" is the user + system time of the
tracer and the program together, so a tracer that polls instead of
sleeping shows its price there; t1 and t2 are the whole command. "lost" is what the longer run did not deliver: for the
counting probes the hits missing from the final count, for the printing
ones the records the tracer reported dropped (tsrun's per-clause drop
counter, bpftrace's "Lost N events"); a goal is not met when the probe
lost anything.

Every run's output is checked: the counting probes must report exactly N
hits (bpftrace attaches before it starts the program given with -c, so an
exact @n also shows that timing started with the probe in place), and each
tsrun row is first run once with -v to check that its probe is in-process
or a breakpoint, as the row's name says.
"""
import argparse
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TIMEOUT = 600  # seconds, per run

# The project's goals: in-process row, bpftrace row, most per hit vs bpftrace.
LIMIT_COUNT = "limit: jmp to a trampoline that counts (limit.c)"
LIMIT_SAVE = "limit: the same, saving every register (limit.c)"

GOALS = [
    ("in-process count vs bpftrace uprobe count",
     "tsrun, count", "bpftrace uprobe, count", 0.01),
    ("in-process printf of 2 args vs bpftrace uprobe printf",
     "tsrun, print 2 args", "bpftrace uprobe, print 2 args", 0.02),
    ("in-process exit probe vs bpftrace uretprobe count",
     "tsrun, exit probe", "bpftrace uretprobe, count", 0.03),
    # Issue 21: a counting hit near the physical limit (both sides include
    # the loop's own call; limit.c).
    ("in-process count vs the limit trampoline saving every register",
     "tsrun, count", LIMIT_SAVE, 3.0),
    # (--m32 only: the qemu-i386 rows.)
    ("qemu-i386 in-process count vs qemu-i386 over RSP",
     "tsrun --remote qemu-i386 in-process, count",
     "tsrun --remote qemu-i386 (RSP), count", 0.01),
]


def find_tool(name):
    env = os.environ.get(name.upper())
    if env:
        return env
    for d in sorted(glob.glob(os.path.join(ROOT, "build*", "bin"))):
        p = os.path.join(d, name)
        if os.access(p, os.X_OK):
            return p
    return shutil.which(name)


class Case:
    """One row. argv(n) is the command for n calls; check(n, out, err)
    returns how many hits / records were lost, or raises RuntimeError.
    Without check, stdout goes to /dev/null."""

    def __init__(self, name, kind, fast, argv, check=None, mode=None,
                 lengths=None):
        self.name, self.kind, self.fast = name, kind, fast
        self.argv, self.check = argv, check
        self.mode = mode  # tsrun rows: "in-process" or "breakpoint"
        self.lengths = lengths  # (n1, n2) of its own, if any
        # A file the program's stderr goes to instead of the command's
        # (a program behind a stub): where its loop time is.
        self.program_err = None


def run_once(cmd, capture):
    """(wall, cpu, stdout, stderr) of one run. cpu is user + system time of
    the command and everything it waited for (the traced program
    included), from wait4()."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        proc = subprocess.Popen(
            cmd, stdout=out if capture else subprocess.DEVNULL, stderr=err,
            start_new_session=True)
        timer = threading.Timer(
            TIMEOUT, lambda: os.killpg(proc.pid, signal.SIGKILL))
        timer.start()
        try:
            _, status, ru = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        dt = time.monotonic() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        try:  # a tracee left behind by a killed tracer
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode(errors="replace")
        stderr = err.read().decode(errors="replace")
    if proc.returncode not in (0, 1):  # loop.c exits with S == 42
        raise RuntimeError("%s failed (%s): %s" % (
            " ".join(cmd), "timed out" if dt >= TIMEOUT else
            proc.returncode, stderr[-500:]))
    return dt, ru.ru_utime + ru.ru_stime, stdout, stderr


def loop_seconds(err):
    """The loop's own time, as the traced program reported it (loop.c)."""
    m = re.search(r"^loop-ns (\d+)$", err, re.M)
    if not m:
        raise RuntimeError("the program did not report its loop time: " +
                           err[-500:])
    return int(m.group(1)) / 1e9


def timed(case, lengths, repeat):
    """For each run length, (loop, wall, cpu, lost) of the least disturbed
    of `repeat` runs: the one whose loop, timed by the program itself, was
    fastest. wall is the whole command, tracer start-up and wind-down
    included. The lengths alternate, so a load that comes and goes
    disturbs both alike."""
    best = {}
    for _ in range(repeat):
        for n in lengths:
            dt, cpu, out, err = run_once(case.argv(n),
                                         case.check is not None)
            if case.program_err:
                with open(case.program_err, errors="replace") as f:
                    err += f.read()
            lost = case.check(n, out, err) if case.check else 0
            loop = loop_seconds(err)
            if n not in best or loop < best[n][0]:
                best[n] = (loop, dt, cpu, lost)
    return [best[n] for n in lengths]


# Checks of a run's output.

def tsrun_drops(err):
    """Records tsrun reported dropped (its per-clause counters, printed
    when a clause had faults or drops)."""
    return sum(int(m.group(1)) for m in
               re.finditer(r"fired \d+, \d+ faults, (\d+) drops", err))


def check_tsrun_count(n, out, err):
    m = re.search(r"^hits (\d+)$", out, re.M)
    if not m:
        raise RuntimeError("no 'hits N' in the output: " + (out + err)[-500:])
    return n - int(m.group(1)) + tsrun_drops(err)


def check_tsrun_print(n, out, err):
    return tsrun_drops(err)


def check_limit_count(n, out, err):
    """limit.c's own count of the calls its trampoline saw."""
    m = re.search(r"^limit-count (\d+)$", err, re.M)
    return n - int(m.group(1)) if m else n


def check_bpftrace_count(n, out, err):
    m = re.search(r"^@n: (\d+)$", out, re.M)
    if not m:
        raise RuntimeError("no '@n: N' in the output: " + (out + err)[-500:])
    return n - int(m.group(1))


def check_stack_counts(pattern):
    """Counts by stack: every hit is in some stack's count."""
    def check(n, out, err):
        counts = [int(x) for x in re.findall(pattern, out, re.M)]
        if not counts:
            raise RuntimeError("no stack counts in the output: " +
                               (out + err)[-500:])
        return n - sum(counts) + tsrun_drops(err)
    return check


def check_bpftrace_print(path):
    def check(n, out, err):
        with open(path, errors="replace") as f:
            text = f.read()
        # (-m32: whatever rdi and rsi held; still two numbers a line.)
        lines = len(re.findall(r"^-?\d+ -?\d+$", text, re.M))
        lost = sum(int(x) for x in re.findall(r"Lost (\d+) events",
                                              text + err))
        return max(n - lines, lost)
    return check


def preflight(case):
    """Runs a tsrun row once with -v on a short loop: its probe must be
    placed the way the row's name says (else a ptrace row would be timed
    as in-process, or an in-process row would take minutes at the fast N)
    and it must lose nothing."""
    n = 1000
    cmd = case.argv(n)
    at = next(i for i, w in enumerate(cmd) if os.path.basename(w) == "tsrun")
    cmd = cmd[:at + 1] + ["-v"] + cmd[at + 1:]
    _, _, out, err = run_once(cmd, case.check is not None)
    if case.mode == "rsp":
        # A probe of a remote target names no mechanism when it is the
        # stub's breakpoint; a row named for the round trips must not time
        # anything else.
        probes = ["in-process" if re.search(r", in-process( jump)?$", p)
                  else "rsp"
                  for p in re.findall(r"probe @@\S+ at (.*)$", err, re.M)]
    else:
        # "..., in-process jump", "..., in-process trap (why)" or
        # "..., breakpoint (why)".
        probes = re.findall(r"probe @@\S+ at .*, (in-process|breakpoint)"
                            r"(?: jump| trap \(.*\)| \(.*\))?$", err, re.M)
    if not probes or any(p != case.mode for p in probes):
        raise RuntimeError("expected the probe %s, tsrun -v says: %s" % (
            case.mode, "; ".join(probes) or err[-500:]))
    lost = case.check(n, out, err) if case.check else 0
    if lost:
        raise RuntimeError("lost %d of %d hits in a short run" % (lost, n))


def calls(n):
    for div, suffix in ((1000000, "M"), (1000, "k")):
        if n >= div and n % div == 0:
            return "%d%s" % (n // div, suffix)
    return str(n)


def ns(x):
    return "{:,.0f}".format(x) if abs(x) >= 1000 else "%.1f" % x


def ratio(x):
    return ("%.4f×" if abs(x) < 0.1 else "%.2f×") % x


def main():
    ap = argparse.ArgumentParser(
        description="Per-hit cost of a probe under tsrun and its peers.")
    ap.add_argument("--n1", type=int, default=5000,
                    help="calls, shorter run of the slow rows (ptrace, "
                    "bpftrace, gdb, ltrace; default 5000)")
    ap.add_argument("--n2", type=int, default=20000,
                    help="calls, longer run of the slow rows (default 20000)")
    ap.add_argument("--n1-fast", type=int, default=1000000,
                    help="calls, shorter run of the in-process rows and "
                    "(no tracer) (default 1000000)")
    ap.add_argument("--n1-print", type=int, default=100000,
                    help="in-process printing row (default 100k)")
    ap.add_argument("--n2-print", type=int, default=1000000,
                    help="in-process printing row (default 1M: its records "
                    "all fit the 256M thread buffer it runs with)")
    ap.add_argument("--n2-fast", type=int, default=10000000,
                    help="calls, longer run of the in-process rows and "
                    "(no tracer) (default 10000000)")
    ap.add_argument("--n1-remote", type=int, default=200,
                    help="calls, shorter run of the qemu-i386 row (default "
                    "200)")
    ap.add_argument("--n2-remote", type=int, default=1000,
                    help="calls, longer run of the qemu-i386 row (default "
                    "1000)")
    ap.add_argument("--n1-guest", type=int, default=20000,
                    help="calls, shorter run of the qemu-i386 in-process "
                    "row (default 20000)")
    ap.add_argument("--n2-guest", type=int, default=200000,
                    help="calls, longer run of the qemu-i386 in-process "
                    "row (default 200000)")
    ap.add_argument("--scale", type=int, default=1,
                    help="multiply every run length by this (default 1; "
                    "e.g. 10 for a longer, steadier run)")
    ap.add_argument("--repeat", type=int, default=2,
                    help="runs per length, the fastest counts (default 2)")
    ap.add_argument("--kinds", default="count,print,exit,stack",
                    help="rows to run, by kind (default: all of "
                    "count,print,exit,stack; the no-tracer row always runs)")
    ap.add_argument("--only-tsrun", action="store_true",
                    help="skip gdb and ltrace (slow); bpftrace still runs")
    ap.add_argument("--m32", action="store_true",
                    help="build the program -m32 (native i386 processes)")
    a = ap.parse_args()
    if not (0 < a.n1 < a.n2 and 0 < a.n1_fast < a.n2_fast and
            0 < a.n1_print < a.n2_print and 0 < a.n1_remote < a.n2_remote
            and 0 < a.n1_guest < a.n2_guest and a.repeat > 0 and a.scale > 0):
        ap.error("need 0 < n1 < n2 for every pair of run lengths, "
                 "repeat > 0 and scale > 0")
    for name in ("n1", "n2", "n1_fast", "n2_fast", "n1_print", "n2_print",
                 "n1_remote", "n2_remote", "n1_guest", "n2_guest"):
        setattr(a, name, getattr(a, name) * a.scale)

    work = tempfile.mkdtemp(prefix="probe-overhead-")
    try:
        run(a, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(a, work):
    exe = os.path.join(work, "loop")
    subprocess.run(["gcc", "-m32" if a.m32 else "-m64", "-O2",
                    "-fno-omit-frame-pointer", os.path.join(HERE, "loop.c"),
                    "-o", exe], check=True)
    tscc, tsrun = find_tool("tscc"), find_tool("tsrun")
    objs = {}
    if tscc and tsrun:
        for s in ("count", "print", "exit", "stack"):
            objs[s] = os.path.join(work, s + ".o")
            subprocess.run([tscc, os.path.join(HERE, s + ".t"), "-o",
                            objs[s]], check=True)

    cases = []

    def tsrun_case(name, kind, flags, script, extra, check, lengths=None,
                   fast=None):
        if fast is None:
            fast = "--ptrace" not in flags
        cases.append(Case(
            name, kind, fast,
            lambda n: [tsrun] + flags + [objs[script]] + extra +
            ["--", exe, str(n)],
            check, "in-process" if fast else "breakpoint", lengths))

    if objs:
        for flags in ([], ["--ptrace"]):
            pre = " ".join(["tsrun"] + flags)
            tsrun_case(pre + ", count", "count", flags, "count", [],
                       check_tsrun_count)
            if flags:
                # The event loop never polls: every hit wakes tsrun from
                # sleep.
                tsrun_case(pre + " --spin 0, count", "count",
                           flags + ["--spin", "0"], "count", [],
                           check_tsrun_count)
            if flags:
                tsrun_case(pre + ", print 2 args", "print", flags, "print",
                           ["-o", "/dev/null"], check_tsrun_print)
            else:
                # Every record is kept: a thread buffer that holds the
                # whole longer run, so the row measures writing records,
                # not dropping them (tsrun formats them on the other CPU
                # meanwhile).
                tsrun_case(pre + ", print 2 args", "print", flags, "print",
                           ["--thread-buffer", "256M", "-o", "/dev/null"],
                           check_tsrun_print, (a.n1_print, a.n2_print))
            tsrun_case(pre + ", exit probe", "exit", flags, "exit", [],
                       check_tsrun_count)
        # A stack key: walked by the agent in the process (Agent/
        # stackid.c), and, for comparison, by tsrun at a breakpoint.
        tsrun_case("tsrun, count by stack", "stack", [], "stack", [],
                   check_stack_counts(r"^\]: (\d+)$"))
        tsrun_case("tsrun --ptrace, count by stack", "stack", ["--ptrace"],
                   "stack", [], check_stack_counts(r"^\]: (\d+)$"))
        if a.m32 and shutil.which("qemu-i386"):
            # The same 32-bit program under qemu-user's GDB stub: its
            # stdout and stderr go to files (the stub's, not tsrun's).
            qemu_out = os.path.join(work, "qemu.out")
            session = os.path.join(ROOT, "utils", "lit", "remote_session.py")
            # Two rows: every hit a stop over the protocol
            # (TSCC_REMOTE_AGENT=0), and the clause run in the guest by the
            # in-process agent put in through the stub (the default).
            def qemu(env, out_name):
                out = os.path.join(work, out_name)
                return out, lambda n: [
                    "env", "TSCC_REMOTE_AGENT=" + env, sys.executable,
                    session, "--stub", "qemu-i386 -g {port} %s %d" % (exe, n),
                    "--out", out, "--timeout", str(TIMEOUT), "--", tsrun,
                    objs["count"], "--remote", "127.0.0.1:{port0}=" + exe]
            for label, env, mode, lengths in (
                    ("tsrun --remote qemu-i386 (RSP), count", "0", "rsp",
                     (a.n1_remote, a.n2_remote)),
                    ("tsrun --remote qemu-i386 in-process, count", "1",
                     "in-process", (a.n1_guest, a.n2_guest))):
                out, argv = qemu(env, "qemu-%s.out" % mode)
                cases.append(Case(label, "count", False, argv,
                                  check_tsrun_count, mode, lengths))
                cases[-1].program_err = out + ".stub-stderr"
    if shutil.which("bpftrace"):
        # -c: bpftrace starts the program once every probe is attached.
        def bpftrace(prog, opts=()):
            return lambda n: ["bpftrace"] + list(opts) + [
                "-e", prog % exe, "-c", "%s %d" % (exe, n)]
        cases.append(Case(
            "bpftrace uprobe, count", "count", False,
            bpftrace("uprobe:%s:hit { @n = count(); }"),
            check_bpftrace_count))
        bt_out = os.path.join(work, "bpftrace.out")
        cases.append(Case(
            "bpftrace uprobe, print 2 args", "print", False,
            bpftrace('uprobe:%s:hit { printf("%%ld %%ld\\n", arg0, arg1); }',
                     ["-o", bt_out]),
            check_bpftrace_print(bt_out)))
        cases.append(Case(
            "bpftrace uprobe, count by ustack", "stack", False,
            bpftrace("uprobe:%s:hit { @[ustack] = count(); }"),
            check_stack_counts(r"^\]: (\d+)$")))
        cases.append(Case(
            "bpftrace uretprobe, count", "exit", False,
            bpftrace("uretprobe:%s:hit { @n = count(); }"),
            check_bpftrace_count))
    if shutil.which("gdb") and not a.only_tsrun:
        # At hit's first instruction: i386 arguments are on the stack.
        dprintf = ('dprintf *hit,"%ld %ld\\n",*(long *)($esp+4),'
                   '*(long *)($esp+8)' if a.m32 else
                   'dprintf hit,"%ld %ld\\n",$rdi,$rsi')
        cases.append(Case(
            "gdb dprintf, print 2 args", "print", False,
            lambda n: ["gdb", "-q", "-batch", "-ex", "set pagination off",
                       "-ex", dprintf, "-ex", "run", "--args", exe, str(n)]))
    if shutil.which("ltrace") and not a.only_tsrun:
        cases.append(Case(
            "ltrace -x hit, print", "print", False,
            lambda n: ["ltrace", "-o", "/dev/null", "-x", "hit", exe,
                       str(n)]))
    cases.append(Case("(no tracer)", None, True, lambda n: [exe, str(n)]))
    if not a.m32:
        # The same loop with hit() patched by hand (limit.c): what a probe
        # costs at the least, with and without the agent's register save.
        for save, name in ((0, LIMIT_COUNT), (1, LIMIT_SAVE)):
            lim = os.path.join(work, "limit%d" % save)
            subprocess.run(["gcc", "-m64", "-O2", "-DSAVE=%d" % save,
                            os.path.join(HERE, "limit.c"), "-o", lim],
                           check=True)
            cases.append(Case(name, None, True,
                              lambda n, lim=lim: [lim, str(n)],
                              check_limit_count))

    kinds = set(a.kinds.split(","))
    cases = [c for c in cases if c.kind is None or c.kind in kinds]
    rows = []
    for case in cases:
        n1, n2 = (case.lengths or ((a.n1_fast, a.n2_fast) if case.fast
                                   else (a.n1, a.n2)))
        try:
            if case.mode:
                preflight(case)
            (l1, t1, cpu1, _), (l2, t2, cpu2, lost) = timed(
                case, (n1, n2), a.repeat)
        except RuntimeError as e:
            print("warning: %s: %s" % (case.name, e), file=sys.stderr)
            continue
        per_hit = lambda x1, x2: (x2 - x1) / (n2 - n1) * 1e9
        rows.append(dict(case=case, n1=n1, n2=n2, ns=per_hit(l1, l2),
                         wall=per_hit(t1, t2), cpu=per_hit(cpu1, cpu2),
                         t1=t1, t2=t2, lost=lost))

    base = {r["case"].kind: r for r in rows
            if r["case"].name.startswith("bpftrace")}
    print("Per-hit cost of a probe on hit() in a %s process (slope between "
          "the two run lengths of each row; best of %d)\n" %
          ("32-bit (-m32)" if a.m32 else "64-bit", a.repeat))
    print("| tracer | calls | per hit (ns) | vs bpftrace | whole run per hit "
          "(ns) | CPU per hit (ns) | t1 s | t2 s | lost |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        ref = base.get(r["case"].kind)
        vs = ratio(r["ns"] / ref["ns"]) if ref and ref["ns"] > 0 else ""
        lost = "%d (%.0f%%)" % (r["lost"], 100.0 * r["lost"] / r["n2"]) \
            if r["lost"] else ("0" if r["case"].check else "")
        print("| %s | %s–%s | %s | %s | %s | %s | %.3f | %.3f | %s |" % (
            r["case"].name, calls(r["n1"]), calls(r["n2"]), ns(r["ns"]), vs,
            ns(r["wall"]), ns(r["cpu"]), r["t1"], r["t2"], lost))

    print("\nGoals, from this run:\n")
    by_name = {r["case"].name: r for r in rows}
    for what, mine, theirs, goal in GOALS:
        m, t = by_name.get(mine), by_name.get(theirs)
        if not m and not t and "qemu" in mine:
            continue  # not an --m32 run, or no qemu-i386
        if not m or not t or t["ns"] <= 0:
            print("- %s (goal ≤ %g×): no result (%s)" % (
                what, goal, "no row " + (mine if not m else theirs)
                if not m or not t else
                "%s: slope not positive, too noisy" % theirs))
            continue
        x = m["ns"] / t["ns"]
        why = []
        if x > goal:
            why.append("%s ns against %s ns" % (ns(m["ns"]), ns(t["ns"])))
        for r in (m, t):
            if r["lost"]:
                why.append("%s lost %d of %d" % (r["case"].name, r["lost"],
                                                 r["n2"]))
        print("- %s: %s (goal ≤ %g×): %s" % (
            what, ratio(x), goal,
            "not met, " + "; ".join(why) if why else "met"))

    missing = [t for t in ("tscc", "tsrun") if not find_tool(t)]
    missing += [t for t in ("bpftrace", "gdb", "ltrace") +
                (("qemu-i386",) if a.m32 else ()) if not shutil.which(t)]
    if missing:
        print("\nnot installed / not built: " + ", ".join(missing))
    if a.only_tsrun:
        print("\ngdb and ltrace skipped (--only-tsrun)")


if __name__ == "__main__":
    main()
