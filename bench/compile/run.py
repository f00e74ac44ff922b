#!/usr/bin/env python3
"""Compile-time benchmark: tscc vs. bpftrace --emit-elf, in the same run.

For N in (1, 50, 500) it generates a C program with N functions, a tscc
script with one clause per function, and the equivalent bpftrace program
(one uprobe per function, same predicate and actions), then times each
compiler REPEAT times and reports the median wall time.

Usage: bench/compile/run.py [--tscc build/bin/tscc] [--repeat 5] [--sizes 1,50,500]
Prints a markdown table (pasted into docs/performance.md).
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def gen_program(n, path):
    with open(path + ".c", "w") as f:
        for i in range(n):
            f.write(f"long f{i}(long a, long b) {{ return a * {i} + b; }}\n")
        f.write("int main(void) { long s = 0;\n")
        for i in range(n):
            f.write(f"  s += f{i}(s, {i});\n")
        f.write("  return (int)(s & 1); }\n")
    subprocess.run(["gcc", "-O0", "-o", path, path + ".c"], check=True)


def gen_tscc(n, path):
    with open(path, "w") as f:
        for i in range(n):
            f.write(f"long f{i}(long a, long b);\n")
        f.write("__global long hits;\n")
        for i in range(n):
            f.write(f"@@uft:*:a.out:f{i}:entry when (__arg1 > 5)\n"
                    f"{{ hits++; printf(\"f{i} %ld %ld\\n\", __arg1, __arg2);"
                    f" @calls[__pname] = count(); }}\n")


def gen_bpftrace(n, binary, path):
    with open(path, "w") as f:
        for i in range(n):
            f.write(f"uprobe:{binary}:f{i} /arg0 > 5/\n"
                    f"{{ @hits = count(); printf(\"f{i} %ld %ld\\n\", arg0, arg1);"
                    f" @calls[comm] = count(); }}\n")


def time_cmd(cmd, repeat):
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        samples.append(time.perf_counter() - t0)
        if r.returncode != 0:
            sys.exit(f"failed: {' '.join(cmd)}\n{r.stderr.decode(errors='replace')}")
    return statistics.median(samples)


def main():
    ap = argparse.ArgumentParser()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--tscc", default=os.path.join(root, "build", "bin", "tscc"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--sizes", default="1,50,500")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    # bpftrace needs locked memory even for --emit-elf.
    try:
        resource.setrlimit(resource.RLIMIT_MEMLOCK,
                           (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    except (ValueError, OSError):
        pass
    have_bpftrace = shutil.which("bpftrace") is not None

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            binary = os.path.join(tmp, f"prog{n}")
            gen_program(n, binary)
            script = os.path.join(tmp, f"s{n}.t")
            gen_tscc(n, script)
            t_tscc = time_cmd([args.tscc, script, "-o", os.path.join(tmp, f"s{n}.o")],
                              args.repeat)
            t_bpf = None
            if have_bpftrace:
                bt = os.path.join(tmp, f"s{n}.bt")
                gen_bpftrace(n, binary, bt)
                t_bpf = time_cmd(["bpftrace", "--emit-elf", os.path.join(tmp, f"s{n}.elf"), bt],
                                 args.repeat)
            rows.append((n, t_tscc, t_bpf))

    print(f"| clauses | tscc (ms) | bpftrace --emit-elf (ms) | tscc / bpftrace |")
    print(f"|---:|---:|---:|---:|")
    for n, t, b in rows:
        bs = f"{b * 1000:.1f}" if b is not None else "n/a"
        ratio = f"{t / b:.2f}" if b else "n/a"
        print(f"| {n} | {t * 1000:.1f} | {bs} | {ratio} |")
    by_n = {n: t for n, t, _ in rows}
    if 50 in by_n and 500 in by_n:
        print(f"\ntscc growth 50 -> 500 clauses: {by_n[500] / by_n[50]:.1f}x (goal: <= 12x)")
    print(f"(median of {args.repeat} runs each; machine: {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
