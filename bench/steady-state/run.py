#!/usr/bin/env python3
"""What tsrun's attachment costs a program that receives signals, with the
probe's clause inside the process: untraced, tsrun attached (--no-detach),
tsrun --detach, and bpftrace, in the same run.

  bench/steady-state/run.py [--n N] [--repeat K]
  TSCC=... TSRUN=... choose the tools (default: build*/bin, then PATH)

signals.c makes N rounds (default 100000) of a signal it sends itself, and
times them itself: once with a call to work(), which the tracer's probe
counts, in every round, once with work() called only before the rounds
(the probe is in place but does not fire in them: what a signal costs).
Each row is run K times (default 5), the rows interleaved; the median time
per round is reported, and its ratio to the untraced row. Every traced run
must count exactly the calls made (tsrun's END, bpftrace's @n).
"""
import argparse
import glob
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def tool(name):
    env = os.environ.get(name.upper())
    if env:
        return env
    for d in sorted(glob.glob(os.path.join(ROOT, "build*", "bin"))):
        if os.path.exists(os.path.join(d, name)):
            return os.path.join(d, name)
    return shutil.which(name)


def run(cmd, n, expect_count):
    """The time per round of one run; its count of calls must be n."""
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    out = p.stdout + p.stderr
    m = re.search(r"ns_per_round ([0-9.]+)", out)
    if p.returncode != 0 or not m:
        sys.exit(f"failed: {' '.join(cmd)}\n{out}")
    if expect_count:
        c = re.search(r"(?:count|@n:) ([0-9]+)", out)
        if not c or int(c.group(1)) != n:
            sys.exit(f"wrong count: {' '.join(cmd)}\n{out}")
    return float(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100000)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    tscc, tsrun = tool("tscc"), tool("tsrun")
    with tempfile.TemporaryDirectory() as d:
        exe, obj = os.path.join(d, "signals"), os.path.join(d, "count.o")
        subprocess.run(["gcc", "-O2", os.path.join(HERE, "signals.c"), "-o",
                        exe], check=True)
        subprocess.run([tscc, os.path.join(HERE, "count.t"), "-o", obj],
                       check=True)
        for calls in ("0", "1"):
            table(a, exe, obj, tsrun, calls)


def table(a, exe, obj, tsrun, calls):
    """One table: every row, K times interleaved (load hits all rows)."""
    n = str(a.n)
    expect = a.n if calls == "1" else 1
    rows = [("untraced", [exe, n, calls], False),
            ("tsrun --no-detach (attached)",
             [tsrun, obj, "--no-detach", "--", exe, n, calls], True),
            ("tsrun --detach",
             [tsrun, obj, "--detach", "--", exe, n, calls], True)]
    bpf = shutil.which("bpftrace")
    if bpf:
        rows.append(("bpftrace", [
            bpf, "-e", f'uprobe:{exe}:work {{ @n = count(); }}', "-c",
            f"{exe} {n} {calls}"], True))
    times = {name: [] for name, _, _ in rows}
    for _ in range(a.repeat):
        for name, cmd, counts in rows:
            times[name].append(run(cmd, expect, counts))
    base = statistics.median(times["untraced"])
    what = "a probed call and a signal" if calls == "1" else "a signal"
    print(f"\n| {a.n} rounds of {what} | median per round | vs untraced |")
    print("|---|---:|---:|")
    for name, _, _ in rows:
        m = statistics.median(times[name])
        print(f"| {name} | {m / 1000:.2f} µs | {m / base:.2f}× |")
    if not bpf:
        print("| bpftrace | not installed | |")


if __name__ == "__main__":
    main()
