#!/usr/bin/env python3
"""Per-hit cost of a user-function entry probe, native x86-64 processes.

Runs the same loop program (loop.c: N calls of hit(a, b)) under each tracer
with a probe that counts and one that prints both arguments, at two run
lengths, and reports the slope (seconds per extra hit), so start-up costs
cancel out. Prints a markdown table.

  bench/probe-overhead/run.py [--n1 N] [--n2 N] [--repeat K]
  TSCC=... TSRUN=... choose the tools (default: build*/bin, then PATH)

"per hit" is the traced program's slowdown (wall time); "CPU per hit" is
the user + system time of the tracer and the program together, so a tracer
that polls instead of sleeping shows its price there.

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
    """(wall, cpu) of the least disturbed of `repeat` runs: the one with the
    best wall time. cpu is user + system time of the tracer and everything
    it waited for (the traced program included), from wait4()."""
    best = None
    for _ in range(repeat):
        with tempfile.TemporaryFile() as err:
            t0 = time.monotonic()
            proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                                    stderr=err)
            _, status, ru = os.wait4(proc.pid, 0)
            dt = time.monotonic() - t0
            proc.returncode = os.waitstatus_to_exitcode(status)
            if proc.returncode not in (0, 1):
                err.seek(0)
                raise RuntimeError("%s failed (%d): %s" % (
                    " ".join(cmd), proc.returncode,
                    err.read().decode(errors="replace")[-500:]))
        cpu = ru.ru_utime + ru.ru_stime
        if best is None or dt < best[0]:
            best = (dt, cpu)
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
            # The event loop never polls: every hit wakes tsrun from sleep.
            c["tsrun --spin 0, count"] = [tsrun, "--spin", "0",
                                          objs["count"], "--", exe, str(n)]
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
            (t1, cpu1) = timed(c1[name], a.repeat)
            (t2, cpu2) = timed(c2[name], a.repeat)
        except RuntimeError as e:
            print("warning: %s: %s" % (name, e), file=sys.stderr)
            continue
        per_hit = lambda x1, x2: (x2 - x1) / (a.n2 - a.n1) * 1e6
        rows.append((name, per_hit(t1, t2), per_hit(cpu1, cpu2), t1, t2))
    base = {k.split(",")[1].strip(): v for k, v, _, _, _ in rows
            if k.startswith("bpftrace")}
    print("Per-hit cost of an entry probe (slope between %d and %d calls, "
          "best of %d)\n" % (a.n1, a.n2, a.repeat))
    print("| tracer | per hit (µs) | vs bpftrace | CPU per hit (µs) "
          "| t(%d) s | t(%d) s |" % (a.n1, a.n2))
    print("|---|---:|---:|---:|---:|---:|")
    for name, us, cpu, t1, t2 in rows:
        kind = "count" if "count" in name else "print 2 args"
        ref = base.get(kind)
        ratio = "%.2f×" % (us / ref) if ref and "(no tracer)" not in name \
            else ""
        print("| %s | %.2f | %s | %.2f | %.3f | %.3f |" %
              (name, us, ratio, cpu, t1, t2))
    missing = [t for t in ("tscc", "tsrun") if not find_tool(t)]
    missing += [t for t in ("bpftrace", "gdb", "ltrace") if not shutil.which(t)]
    if missing:
        print("\nnot installed / not built: " + ", ".join(missing))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
