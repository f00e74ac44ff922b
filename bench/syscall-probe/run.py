#!/usr/bin/env python3
"""Per-call cost of a traced system call: getppid() through glibc, with an
entry probe that counts, under tsrun (clauses in the process, at patched
syscall sites), tsrun --ptrace (a seccomp stop per call), tsrun -p --syscall-dispatch
(attached, no seccomp filter: Syscall User Dispatch catches the calls no
patched site makes), tsrun --detach (the same in a process tsrun has let
go of) and bpftrace (tracepoint:syscalls:sys_enter_getppid,
and tracepoint:raw_syscalls:sys_enter filtered on the number, both
filtered on the traced pid), with the untraced program in the same run.

  bench/syscall-probe/run.py [--n1 N] [--n2 N] [--n1-slow N] [--n2-slow N]
                             [--repeat K]
  TSCC=... TSRUN=... choose the tools (default: build*/bin, then PATH)

"per call" is the slope of the loop's own timing (loop.c) between the two
run lengths, so start-up costs cancel out: wall time, and the CPU time of
the program's thread (user + system), which a loaded machine disturbs less
and which holds all of the in-process clause's and bpftrace's program's
work (not tsrun --ptrace's, done in tsrun while the program waits: that row
is only meaningful in wall time). "added" is a row's per call minus the
untraced one's. "vs bpftrace" divides the added CPU cost by bpftrace's.
Every traced run must count exactly the calls the program made. The tsrun
row is first run with -v to check that the probe runs in the process.

With --m32 (where gcc -m32 works and the kernel runs i386 programs) the
same loop built for i386 gets rows of its own: untraced, tsrun (a
32-bit process's system-call probes are seccomp stops by default, so
those rows use the slow run lengths), tsrun --syscall-dispatch launched
and attached (the agent's SIGSYS handler catches every call, through the
vDSO's sysenter, in the process: checked with -v first), tsrun --detach
(the same, with tsrun let go of the process: no ptrace stop for a
SIGSYS) and bpftrace's
raw_syscalls filtered on the i386
number (64 is getppid there): the per-call tracepoints
(syscalls:sys_enter_getppid) never fire for the compat system calls of
an i386 process on x86-64.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TIMEOUT = 600


def find_tool(name):
    env = os.environ.get(name.upper())
    if env:
        return env
    for d in sorted(glob.glob(os.path.join(ROOT, "build*", "bin"))):
        if os.access(os.path.join(d, name), os.X_OK):
            return os.path.join(d, name)
    return shutil.which(name)


def run_once(cmd, n):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
    m = re.search(r"loop-ns (\d+)\nloop-cpu-ns (\d+)", p.stderr)
    if p.returncode != 0 and not m:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), p.stderr[-2000:]))
    t = (int(m.group(1)), int(m.group(2))) if m else None
    return t, p.stdout, p.stderr


def run_attached(tsrun, obj, exe, n, extra):
    """tsrun -p: the loop waits until tsrun says it is attached."""
    prog = subprocess.Popen([exe, str(n), "wait"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    pid = prog.stdout.readline().split()[1]
    ts = subprocess.Popen([tsrun, "-v"] + extra + [obj, "-p", pid],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    said = []
    for line in ts.stderr:
        said.append(line)
        if ": attached" in line:
            break
    prog.stdin.write("go\n")
    prog.stdin.flush()
    out, err = prog.communicate(timeout=TIMEOUT)
    tout, terr = ts.communicate(timeout=TIMEOUT)
    m = re.search(r"loop-ns (\d+)\nloop-cpu-ns (\d+)", err)
    if not m:
        sys.exit("failed: attached run\n" + err + "".join(said) + terr)
    return (int(m.group(1)), int(m.group(2))), tout, "".join(said) + terr


def hits(out):
    m = re.search(r"hits (\d+)|@n: (\d+)", out)
    return int(m.group(1) or m.group(2)) if m else None


def slope(cmd_of, n1, n2, repeat, counted):
    """(wall, CPU) ns per call: the fastest run of each length. cmd_of
    gives a command, or a function that runs the program itself."""
    best = {}
    for n in (n1, n2):
        for _ in range(repeat):
            c = cmd_of(n)
            t, out, err = c() if callable(c) else run_once(c, n)
            if counted and hits(out) != n:
                sys.exit("wrong count for %d calls: %s" % (n, out + err))
            old = best.get(n, t)
            best[n] = (min(old[0], t[0]), min(old[1], t[1]))
    return tuple((best[n2][k] - best[n1][k]) / (n2 - n1) for k in (0, 1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n1", type=int, default=200000)
    ap.add_argument("--n2", type=int, default=1000000)
    ap.add_argument("--n1-slow", type=int, default=2000,
                    help="calls, shorter run of tsrun --ptrace (default 2000)")
    ap.add_argument("--n2-slow", type=int, default=10000,
                    help="calls, longer run of tsrun --ptrace (default 10000)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--m32", action="store_true",
                    help="also the rows of the loop built for i386")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="syscall-probe-")
    try:
        run(a, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(a, work):
    exe = os.path.join(work, "loop")
    subprocess.run(["gcc", "-O2", os.path.join(HERE, "loop.c"), "-o", exe],
                   check=True)
    tscc, tsrun = find_tool("tscc"), find_tool("tsrun")
    obj = os.path.join(work, "count.o")
    subprocess.run([tscc, os.path.join(HERE, "count.t"), "-o", obj],
                   check=True)
    _, _, err = run_once([tsrun, "-v", obj, "--", exe, "10"], 10)
    if "getppid in libc.so.6" not in err or "in-process at" not in err:
        sys.exit("the getppid probe does not run in the process:\n" + err)
    rows = [("(no tracer)", lambda n: [exe, str(n)], False, False),
            ("tsrun", lambda n: [tsrun, obj, "--", exe, str(n)], True, False),
            ("tsrun --ptrace", lambda n: [tsrun, "--ptrace", obj, "--", exe,
                                          str(n)], True, True),
            ("tsrun -p --syscall-dispatch",
             lambda n: lambda: run_attached(tsrun, obj, exe, n,
                                            ["--syscall-dispatch"]),
             True, False),
            ("tsrun --detach",
             lambda n: [tsrun, "--detach", obj, "--", exe, str(n)], True,
             False)]
    bpf = shutil.which("bpftrace")
    if bpf:
        prog = ("tracepoint:syscalls:sys_enter_getppid /pid == cpid/ "
                "{ @n = count(); }")
        rows.append(("bpftrace", lambda n: [bpf, "-q", "-e", prog, "-c",
                                            "%s %d" % (exe, n)], True, False))
        raw = ("tracepoint:raw_syscalls:sys_enter /pid == cpid && "
               "args->id == 110/ { @n = count(); }")
        rows.append(("bpftrace raw_syscalls", lambda n: [
            bpf, "-q", "-e", raw, "-c", "%s %d" % (exe, n)], True, False))
    if a.m32:
        rows += rows_i386(work, tsrun, obj, bpf)
    per = {}
    for name, cmd_of, counted, slow in rows:
        n1, n2 = (a.n1_slow, a.n2_slow) if slow else (a.n1, a.n2)
        per[name] = slope(cmd_of, n1, n2, a.repeat, counted)
    print("| tracer | wall per call (ns) | added | CPU per call (ns) | "
          "added | vs bpftrace (CPU) |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, *_ in rows:
        i386 = name.endswith(", i386")
        base = per["(no tracer), i386" if i386 else "(no tracer)"]
        peer = "bpftrace raw_syscalls, i386" if i386 else "bpftrace"
        bpf_added = per[peer][1] - base[1] if peer in per else 0
        w, c = per[name]
        vs = ""
        if not name.startswith("(no tracer)") and bpf_added > 0:
            vs = "%.2f" % ((c - base[1]) / bpf_added)
        print("| %s | %.0f | %.0f | %.0f | %.0f | %s |" %
              (name, w, w - base[0], c, c - base[1], vs))
    base = per["(no tracer)"]
    bpf_added = per["bpftrace"][1] - base[1] if "bpftrace" in per else 0
    if bpf_added > 0:
        for name in ("tsrun", "tsrun -p --syscall-dispatch", "tsrun --detach"):
            r = (per[name][1] - base[1]) / bpf_added
            print("\ngoal: %s <= 1x bpftrace per traced call (CPU): %.2fx, %s"
                  % (name, r, "met" if r <= 1 else "NOT met"))
    base = per.get("(no tracer), i386")
    peer = per.get("bpftrace raw_syscalls, i386")
    if base and peer and peer[1] - base[1] > 0:
        for name in ("tsrun --syscall-dispatch, i386",
                     "tsrun -p --syscall-dispatch, i386",
                     "tsrun --detach, i386"):
            r = (per[name][1] - base[1]) / (peer[1] - base[1])
            print("goal: %s <= 1x bpftrace per traced call (CPU): %.2fx, %s"
                  % (name, r, "met" if r <= 1 else "NOT met"))
    elif "bpftrace" in per:
        print("\nbpftrace added no measurable CPU time: no ratio")


def rows_i386(work, tsrun, obj, bpf):
    """The rows of the loop built for i386 (getppid is 64 there)."""
    exe = os.path.join(work, "loop32")
    subprocess.run(["gcc", "-m32", "-O2", os.path.join(HERE, "loop.c"), "-o",
                    exe], check=True)
    rows = [("(no tracer), i386", lambda n: [exe, str(n)], False, False),
            ("tsrun, i386", lambda n: [tsrun, obj, "--", exe, str(n)], True,
             True),
            ("tsrun --ptrace, i386", lambda n: [tsrun, "--ptrace", obj, "--",
                                                exe, str(n)], True, True),
            ("tsrun --syscall-dispatch, i386",
             lambda n: [tsrun, "--syscall-dispatch", obj, "--", exe, str(n)],
             True, False),
            ("tsrun -p --syscall-dispatch, i386",
             lambda n: lambda: run_attached(tsrun, obj, exe, n,
                                            ["--syscall-dispatch"]),
             True, False),
            ("tsrun --detach, i386",
             lambda n: [tsrun, "--detach", obj, "--", exe, str(n)], True,
             False)]
    _, _, err = run_once([tsrun, "--syscall-dispatch", "-v", obj, "--", exe,
                          "10"], 10)
    if "in-process: every call is caught by Syscall User Dispatch" not in err:
        sys.exit("the i386 getppid probe does not run in the process:\n" +
                 err)
    if bpf:
        raw = ("tracepoint:raw_syscalls:sys_enter /pid == cpid && "
               "args->id == 64/ { @n = count(); }")
        rows.append(("bpftrace raw_syscalls, i386", lambda n: [
            bpf, "-q", "-e", raw, "-c", "%s %d" % (exe, n)], True, False))
    return rows


if __name__ == "__main__":
    main()
