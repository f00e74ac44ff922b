#!/usr/bin/env python3
"""Per-hit cost of a user-function entry probe, native x86-64 processes.

Runs the same loop program (loop.c: N calls of hit(a, b)) under each tracer
with a probe that counts and one that prints both arguments, at two run
lengths, and reports the slope (seconds per extra hit), so start-up costs
cancel out. Prints a markdown table.

  bench/probe-overhead/run.py [--n1 N] [--n2 N] [--repeat K]
  TSCC=... TSRUN=... choose the tools (default: build*/bin, then PATH)

Peers: bpftrace uprobes, gdb dprintf, ltrace -x. A peer that is not
installed is listed as such.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def find_tool(name):
    env = os.environ.get(name.upper())
    if env:
        return env
    for d in sorted(glob.glob(os.path.join(ROOT, "build*", "bin"))):
        p = os.path.join(d, name)
        if os.access(p, os.X_OK):
            return p
    return shutil.which(name)


def timed(cmd, repeat):
    """Best wall time of `repeat` runs: the least disturbed one."""
    best = None
    for _ in range(repeat):
        t0 = time.monotonic()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        dt = time.monotonic() - t0
        if r.returncode not in (0, 1):
            raise RuntimeError("%s failed (%d): %s" %
                               (" ".join(cmd), r.returncode, r.stderr[-500:]))
        best = dt if best is None else min(best, dt)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n1", type=int, default=5000)
    ap.add_argument("--n2", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()

    work = tempfile.mkdtemp(prefix="probe-overhead-")
    exe = os.path.join(work, "loop")
    subprocess.run(["gcc", "-O2", "-fno-omit-frame-pointer",
                    os.path.join(HERE, "loop.c"), "-o", exe], check=True)
    tscc, tsrun = find_tool("tscc"), find_tool("tsrun")
    objs = {}
    if tscc and tsrun:
        for s in ("count", "print"):
            objs[s] = os.path.join(work, s + ".o")
            subprocess.run([tscc, os.path.join(HERE, s + ".t"), "-o",
                            objs[s]], check=True)

    def cases(n):
        c = {}
        if objs:
            c["tsrun, count"] = [tsrun, objs["count"], "--", exe, str(n)]
            c["tsrun, print 2 args"] = [tsrun, objs["print"], "-o",
                                        "/dev/null", "--", exe, str(n)]
        if shutil.which("bpftrace"):
            c["bpftrace uprobe, count"] = [
                "bpftrace", "-e", "uprobe:%s:hit { @n = count(); }" % exe,
                "-c", "%s %d" % (exe, n)]
            c["bpftrace uprobe, print 2 args"] = [
                "bpftrace", "-o", "/dev/null", "-e",
                'uprobe:%s:hit { printf("%%ld %%ld\\n", arg0, arg1); }' % exe,
                "-c", "%s %d" % (exe, n)]
        if shutil.which("gdb"):
            c["gdb dprintf, print 2 args"] = [
                "gdb", "-q", "-batch", "-ex", "set pagination off",
                "-ex", 'dprintf hit,"%ld %ld\\n",$rdi,$rsi', "-ex", "run",
                "--args", exe, str(n)]
        if shutil.which("ltrace"):
            c["ltrace -x hit, print"] = ["ltrace", "-o", "/dev/null",
                                         "-x", "hit", exe, str(n)]
        c["(no tracer)"] = [exe, str(n)]
        return c

    c1, c2 = cases(a.n1), cases(a.n2)
    rows = []
    for name in c1:
        try:
            t1 = timed(c1[name], a.repeat)
            t2 = timed(c2[name], a.repeat)
        except RuntimeError as e:
            print("warning: %s: %s" % (name, e), file=sys.stderr)
            continue
        rows.append((name, (t2 - t1) / (a.n2 - a.n1) * 1e6, t1, t2))
    base = {k.split(",")[1].strip(): v for k, v, _, _ in rows
            if k.startswith("bpftrace")}
    print("Per-hit cost of an entry probe (slope between %d and %d calls, "
          "best of %d)\n" % (a.n1, a.n2, a.repeat))
    print("| tracer | per hit (µs) | vs bpftrace | t(%d) s | t(%d) s |"
          % (a.n1, a.n2))
    print("|---|---:|---:|---:|---:|")
    for name, us, t1, t2 in rows:
        kind = "count" if "count" in name else "print 2 args"
        ref = base.get(kind)
        ratio = "%.2f×" % (us / ref) if ref and "(no tracer)" not in name \
            else ""
        print("| %s | %.2f | %s | %.3f | %.3f |" % (name, us, ratio, t1, t2))
    missing = [t for t in ("tscc", "tsrun") if not find_tool(t)]
    missing += [t for t in ("bpftrace", "gdb", "ltrace") if not shutil.which(t)]
    if missing:
        print("\nnot installed / not built: " + ", ".join(missing))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
