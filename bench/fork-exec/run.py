#!/usr/bin/env python3
"""What re-arming after exec costs: a fork+exec loop with a libc probe
(fork's entry, once per round), untraced, tsrun attached (--no-detach),
tsrun --detach, and bpftrace, in the same run.

  bench/fork-exec/run.py [--n N] [--repeat K] [--prog PROG] [--before TSRUN]
  TSCC=... TSRUN=... choose the tools (default: build*/bin, then PATH)
  --before: another tsrun (an older build) measured in the same rounds

forkexec.c makes N rounds (default 400) of fork() and an exec of PROG
(default /bin/true) in the child, which the parent waits for, and times
them itself. Every process, the exec'd images included, is traced: tsrun
sets the agent up in each new image. Each row is run K times (default 5),
the rows interleaved; the median time per round is reported, and its
ratio to the untraced row. Every traced run must count exactly N calls of
fork() (tsrun's END, bpftrace's @n).
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
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--prog", default="/bin/true")
    ap.add_argument("--before", help="another tsrun, for before/after rows")
    a = ap.parse_args()
    tscc, tsrun = tool("tscc"), tool("tsrun")
    with tempfile.TemporaryDirectory() as d:
        exe, obj = os.path.join(d, "forkexec"), os.path.join(d, "count.o")
        subprocess.run(["gcc", "-O2", os.path.join(HERE, "forkexec.c"), "-o",
                        exe], check=True)
        subprocess.run([tscc, os.path.join(HERE, "count.t"), "-o", obj],
                       check=True)
        table(a, exe, obj, tsrun)


def libc_of(exe):
    """The libc the program maps, for bpftrace's uprobe."""
    out = subprocess.run(["ldd", exe], capture_output=True, text=True).stdout
    m = re.search(r"libc\.so\.6 => (\S+)", out)
    return os.path.realpath(m.group(1)) if m else "libc"


def table(a, exe, obj, tsrun):
    """Every row, K times interleaved (load hits all rows)."""
    n = str(a.n)
    rows = [("untraced", [exe, n, a.prog], False),
            ("tsrun --no-detach (attached)",
             [tsrun, obj, "--no-detach", "--", exe, n, a.prog], True),
            ("tsrun --detach",
             [tsrun, obj, "--detach", "--", exe, n, a.prog], True)]
    if a.before:
        rows += [("tsrun before (attached)",
                  [a.before, obj, "--", exe, n, a.prog], True),
                 ("tsrun before --detach",
                  [a.before, obj, "--detach", "--", exe, n, a.prog], True)]
    bpf = shutil.which("bpftrace")
    if bpf:
        rows.append(("bpftrace", [
            bpf, "-e",
            f'uprobe:{libc_of(exe)}:fork /pid == cpid/ {{ @n = count(); }}',
            "-c", f"{exe} {n} {a.prog}"], True))
    times = {name: [] for name, _, _ in rows}
    load = lambda: open("/proc/loadavg").read().split()[:3]
    print("load average before:", " ".join(load()))
    for _ in range(a.repeat):
        for name, cmd, counts in rows:
            times[name].append(run(cmd, a.n, counts))
    print("load average after:", " ".join(load()))
    base = statistics.median(times["untraced"])
    print(f"\n| {a.n} rounds of fork+exec of {a.prog} | median per round "
          "| vs untraced |")
    print("|---|---:|---:|")
    for name, _, _ in rows:
        m = statistics.median(times[name])
        print(f"| {name} | {m / 1e6:.2f} ms | {m / base:.2f}× |")
    if not bpf:
        print("| bpftrace | not installed | |")


if __name__ == "__main__":
    main()
