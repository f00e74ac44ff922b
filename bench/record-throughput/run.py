#!/usr/bin/env python3
"""Record throughput of the live reader, tsrun beside bpftrace in the same
run: one thread calls hit(i) at a given rate for a given time and a probe
prints each argument; the table says how many records each tracer kept.

  python3 bench/record-throughput/run.py --tsrun build/bin/tsrun \\
      --tscc build/bin/tscc [--rate 1000000] [--seconds 10] [--no-bpftrace]

Rate 0 is as fast as the program can call (the burst case)."""
import argparse, os, re, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = """long hit(long);
@@uft:*:a.out:hit:entry { printf("%ld\\n", __arg1); }
"""


def count_records(path, fmt):
    n = lost = 0
    with open(path, errors="replace") as f:
        for line in f:
            if fmt == "json":
                if '"type":"printf"' in line:
                    n += 1
            elif line[:1].isdigit():
                n += 1
    return n


def run_tsrun(a, exe, obj, fmt, tmp, extra=()):
    out = os.path.join(tmp, "out." + fmt)
    t0 = time.time()
    before = os.times()
    extra = list(extra) + (["--thread-buffer", a.thread_buffer]
                           if a.thread_buffer else [])
    p = subprocess.run([a.tsrun, obj, "-f", fmt, "-o", out] + extra +
                       ["--", exe, str(a.rate), str(a.seconds)],
                       capture_output=True, text=True)
    wall = time.time() - t0
    after = os.times()
    # CPU of tsrun and the program together (the program's own share is
    # the same in every row).
    cpu = (after.children_user - before.children_user +
           after.children_system - before.children_system)
    print("  (%s%s: wall %.1f s, tsrun+program CPU %.2f s)" % (
        fmt, " " + " ".join(extra) if extra else "", wall, cpu),
        file=sys.stderr)
    calls = int(re.search(r"paced: (\d+) calls", p.stderr).group(1))
    if fmt == "binary":
        rep = os.path.join(tmp, "report.txt")
        with open(rep, "w") as f:
            subprocess.run([a.tsreport, out], stdout=f, check=True)
        out, fmt = rep, "text"
    kept = count_records(out, fmt)
    warned = "warning:" in p.stderr and "lost" in p.stderr
    return calls, kept, wall, warned


def run_bpftrace(a, exe, tmp):
    out = os.path.join(tmp, "bpf.txt")
    prog = 'uprobe:%s:hit { printf("%%ld\\n", arg0); }' % exe
    t0 = time.time()
    p = subprocess.run(["bpftrace", "-o", out, "-e", prog, "-c",
                        "%s %d %s" % (exe, a.rate, a.seconds)],
                       capture_output=True, text=True)
    wall = time.time() - t0
    m = re.search(r"paced: (\d+) calls", p.stderr + p.stdout)
    calls = int(m.group(1)) if m else 0
    kept = count_records(out, "text")
    return calls, kept, wall, "Lost" in (p.stderr + open(out).read())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tsrun", default="build/bin/tsrun")
    ap.add_argument("--tscc", default="build/bin/tscc")
    ap.add_argument("--tsreport", default="build/bin/tsreport")
    ap.add_argument("--rate", type=int, default=1000000)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--no-bpftrace", action="store_true")
    # Until 64M is the default (see docs/performance.md).
    ap.add_argument("--thread-buffer", default="",
                    help="tsrun's --thread-buffer for every row")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="tscc-throughput-")
    exe = os.path.join(tmp, "paced")
    subprocess.run(["gcc", "-O2", os.path.join(HERE, "paced.c"), "-o", exe],
                   check=True)
    src = os.path.join(tmp, "print.t")
    open(src, "w").write(SCRIPT)
    obj = os.path.join(tmp, "print.o")
    subprocess.run([a.tscc, src, "-o", obj], check=True)
    print("| tracer, output | calls | records kept | lost | calls/s | "
          "records/s | warned |")
    print("|---|---:|---:|---:|---:|---:|---|")
    rows = [("tsrun " + f, lambda f=f: run_tsrun(a, exe, obj, f, tmp))
            for f in ("text", "json", "binary")]
    rows.append(("tsrun text --on-full=block", lambda: run_tsrun(
        a, exe, obj, "text", tmp, ["--on-full=block"])))
    if not a.no_bpftrace and shutil.which("bpftrace"):
        rows.append(("bpftrace printf", lambda: run_bpftrace(a, exe, tmp)))
    print("load before: " + open("/proc/loadavg").read().strip(),
          file=sys.stderr)
    for name, fn in rows:
        calls, kept, wall, warned = fn()
        print("| %s | %d | %d | %d | %.0f | %.0f | %s |" % (
            name, calls, kept, calls - kept, calls / a.seconds,
            kept / a.seconds, "yes" if warned else "no"))
    print("load after: " + open("/proc/loadavg").read().strip(),
          file=sys.stderr)
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
