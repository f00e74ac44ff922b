#!/usr/bin/env python3
"""Per-record cost of each buffer mode (--buffer-mode), native x86-64.

Runs bench/probe-overhead's loop program (N calls of hit(a, b)) under tsrun
with the entry probe that prints both arguments (print.t), so every call is
one record, in each buffer mode and output format, at two run lengths, and
reports the slope (cost per extra record), so start-up costs cancel. The
measuring and checking code is bench/probe-overhead/run.py's.

  bench/buffer-modes/run.py [--n1 N] [--n2 N] [--repeat K]
  TSCC=... TSRUN=... choose the tools (default: build*/bin, then PATH)

Rows, each with the in-process agent (tsrun's default path):
  continuous / circular / single, text / json / binary
      every record kept: the circular and single buffers and the thread
      buffers are big enough for all of them (--buffer-size 512M,
      --thread-buffer 256M), so the rows measure keeping records, not
      dropping them; the output goes to a file in a temporary directory
  single, full after 1000 records
      collection stops when the buffer is full: what every later call costs
  --collect=off
      collection off all along: the probe alone, no clause
  (no tracer)
      the loop by itself

Columns: "per record" is the traced program's slowdown per call (loop.c
times its own loop); "whole run per record" is the slope of the whole
command, tsrun formatting and writing the records included; "CPU per
record" is tsrun and the program together. "kept" is what the longer run's
output holds, checked: all N records (N lines, or N record frames as
tsreport renders them), 1000-odd for the full single buffer, none with
collection off.
"""
import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.path.join(os.path.dirname(HERE), "probe-overhead")
spec = importlib.util.spec_from_file_location(
    "probe_overhead", os.path.join(PEERS, "run.py"))
po = importlib.util.module_from_spec(spec)
spec.loader.exec_module(po)


def count_records(path, fmt, tsreport):
    """Records in an output file: text lines "A B", JSON printf events,
    binary frames rendered by tsreport."""
    if fmt == "binary":
        text = subprocess.run([tsreport, path], capture_output=True,
                              text=True, check=True).stdout
    else:
        with open(path, errors="replace") as f:
            text = f.read()
    if fmt == "json":
        return len(re.findall(r'"type":"printf"', text))
    return len(re.findall(r"^-?\d+ -?\d+$", text, re.M))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n1", type=int, default=100000)
    ap.add_argument("--n2", type=int, default=1000000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    tscc, tsrun = po.find_tool("tscc"), po.find_tool("tsrun")
    tsreport = os.path.join(os.path.dirname(tsrun), "tsreport")
    work = tempfile.mkdtemp(prefix="tscc-bench-buffers-")
    loop = os.path.join(work, "loop")
    subprocess.run(["cc", "-O2", "-o", loop,
                    os.path.join(PEERS, "loop.c")], check=True)
    obj = os.path.join(work, "print.o")
    subprocess.run([tscc, os.path.join(PEERS, "print.t"), "-o", obj],
                   check=True)
    out = os.path.join(work, "out")

    def tsrun_case(name, opts, fmt, want):
        def argv(n):
            return [tsrun, obj, "-f", fmt, "-o", out,
                    "--thread-buffer", "256M"] + opts + ["--", loop, str(n)]

        def check(n, stdout, stderr):
            kept = count_records(out, fmt, tsreport)
            expected = want(n)
            if expected is not None and kept != expected:
                raise RuntimeError("%s: %d records kept, expected %d" %
                                   (name, kept, expected))
            check.kept = kept
            return po.tsrun_drops(stderr)
        return po.Case(name, "print", True, argv, check)

    everything = lambda n: n
    cases = []
    for mode in ("continuous", "circular", "single"):
        size = [] if mode == "continuous" else ["--buffer-size", "512M"]
        for fmt in ("binary", "text", "json"):
            cases.append(tsrun_case("%s, %s" % (mode, fmt),
                                    ["--buffer-mode", mode] + size, fmt,
                                    everything))
    # 1000 records of 40 + 16 + 16 bytes.
    cases.append(tsrun_case("single, full after 1000 records, binary",
                            ["--buffer-mode", "single", "--buffer-size",
                             str(72 * 1000)], "binary", lambda n: 1000))
    cases.append(tsrun_case("--collect=off, binary", ["--collect=off"],
                            "binary", lambda n: 0))
    cases.append(po.Case("(no tracer)", "none", True,
                         lambda n: [loop, str(n)]))

    print("| tsrun --buffer-mode, -f | per record (ns) | whole run per "
          "record (ns) | CPU per record (ns) | kept of %s | lost |" %
          po.calls(a.n2))
    print("|---|---:|---:|---:|---:|---:|")
    for c in cases:
        (l1, w1, c1, _), (l2, w2, c2, lost) = po.timed(c, [a.n1, a.n2],
                                                       a.repeat)
        d = a.n2 - a.n1
        kept = getattr(c.check, "kept", "") if c.check else ""
        print("| %s | %s | %s | %s | %s | %s |" % (
            c.name, po.ns((l2 - l1) / d * 1e9), po.ns((w2 - w1) / d * 1e9),
            po.ns((c2 - c1) / d * 1e9), kept, lost if c.check else ""),
            flush=True)
    print("\nLTTng-UST, as published (not measured here): about 100-200 ns "
          "per event.")


if __name__ == "__main__":
    main()
