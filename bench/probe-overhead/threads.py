#!/usr/bin/env python3
"""Threads hitting one probe at once: CPU per hit at 1, 2 and 4 threads.

  TSCC=build/bin/tscc TSRUN=build/bin/tsrun \\
    python3 bench/probe-overhead/threads.py [--threads 1,2,4] [--n1 N --n2 N]

threads.c's T threads each call hit() N times; tsrun counts them in-process
with `@c = count()` and `@a[__tid] = count()` (each thread counts in its
own part of the aggregation, without the session lock), with a global
`n++` (the session lock and a locked add on one shared line), and with a
thread-local `k++` (a clause that shares nothing, so it runs without the
session lock: its hits are its fired count), bpftrace (in the same run, if it is
installed) with a uprobe and `@c = count()` (a per-CPU map). Each row
records the 1-minute load average it was measured under.
"CPU per hit" is the slope of the whole command's CPU time (tracer and
program, from wait4) between two run lengths, divided by the hits, so that
start-up costs cancel; "wall per hit" likewise with the elapsed time. Every
run is checked: the count must be exactly T x N. bpftrace runs 100x fewer
calls (it costs microseconds per hit).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = {
    "tsrun, @c = count()":
        "long hit(long);\n@@uft:*:a.out:hit:entry { @c = count(); }\n",
    "tsrun, @a[__tid] = count()":
        "long hit(long);\n@@uft:*:a.out:hit:entry { @a[__tid] = count(); }\n",
    # A script global: the clause takes the session lock, and n++ is one
    # more locked add on the global's line (printed as @n for counted()).
    "tsrun, global n++ (lock)":
        "long hit(long);\n__global long n;\n"
        "@@uft:*:a.out:hit:entry { n++; }\n"
        "@@END { printf(\"@n: %ld\\n\", n); }\n",
    # Touches nothing shared: runs without the session lock (its hits are
    # counted from the clause's fired count, -v).
    "tsrun, thread-local k++ (no lock)":
        "long hit(long);\n__thread long k;\n"
        "@@uft:*:a.out:hit:entry { k++; }\n",
}


def run(cmd):
    """(cpu seconds, wall seconds, stdout + stderr) of cmd."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.read().decode(errors="replace")
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{out}")
    return ru.ru_utime + ru.ru_stime, wall, out


def counted(out):
    """The total of the counts printed (one aggregation or one per key), or
    else clause 0's fired count (tsrun -v)."""
    counts = re.findall(r"^@\w+(?:\[\d+\])?: (\d+)$", out, re.M)
    if counts:
        return sum(int(v) for v in counts)
    m = re.search(r"clause 0 \(line \d+\): fired (\d+), \d+ faults, 0 drops",
                  out)
    return int(m.group(1)) if m else -1


def load():
    """The 1-minute load average, which the rows are recorded with."""
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def measure(cmd_of, threads, n1, n2):
    rows = []
    for n in (n1, n2):
        cpu, wall, out = run(cmd_of(threads, n))
        if counted(out) != threads * n:
            sys.exit(f"counted {counted(out)} of {threads * n}:\n{out}")
        rows.append((cpu, wall))
    hits = threads * (n2 - n1)
    return ((rows[1][0] - rows[0][0]) / hits * 1e9,
            (rows[1][1] - rows[0][1]) / hits * 1e9)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", default="1,2,4")
    ap.add_argument("--n1", type=int, default=200000)
    ap.add_argument("--n2", type=int, default=1000000)
    a = ap.parse_args()
    tscc = os.environ.get("TSCC", "build/bin/tscc")
    tsrun = os.environ.get("TSRUN", "build/bin/tsrun")
    work = tempfile.mkdtemp()
    exe = os.path.join(work, "a.out")
    subprocess.check_call(["cc", "-O2", "-pthread",
                           os.path.join(HERE, "threads.c"), "-o", exe])
    cases = []
    for name, text in SCRIPTS.items():
        src, obj = os.path.join(work, "s.t"), os.path.join(work,
                                                           f"{len(cases)}.o")
        with open(src, "w") as f:
            f.write(text)
        subprocess.check_call([tscc, src, "-o", obj])
        cases.append((name, lambda t, n, obj=obj:
                      [tsrun, "-v", obj, "--", exe, str(t), str(n)], 1))
    if shutil.which("bpftrace"):
        cases.append(("bpftrace uprobe, @c = count()", lambda t, n: [
            "bpftrace", "-e", f"uprobe:{exe}:hit {{ @c = count(); }}", "-c",
            f"{exe} {t} {n}"], 100))
    print(f"load before: {load():.2f}")
    print("| tracer | threads | CPU per hit (ns) | vs 1 thread | "
          "wall per hit (ns) | load |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, cmd_of, div in cases:
        base = None
        for t in [int(x) for x in a.threads.split(",")]:
            cpu, wall = measure(cmd_of, t, a.n1 // div, a.n2 // div)
            base = base or cpu
            print(f"| {name} | {t} | {cpu:,.1f} | {cpu / base:.2f}x | "
                  f"{wall:,.1f} | {load():.1f} |", flush=True)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
