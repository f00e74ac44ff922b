#!/usr/bin/env python3
"""Record throughput of the live reader, tsrun beside bpftrace in the same
run: one thread calls hit(i) at a given rate for a given time and a probe
prints each argument; the table says how many records each tracer kept.

  python3 bench/record-throughput/run.py --tsrun build/bin/tsrun \\
      --tscc build/bin/tscc [--rate 1000000] [--seconds 10] [--no-bpftrace]

Rate 0 is as fast as the program can call (the burst case).

  python3 bench/record-throughput/run.py --reader [--seconds 5]

The reader's own speed instead: the program calls as fast as it can with
--on-full=block (it waits for the reader when its buffer is full, so
nothing is lost and the reader sets the pace), in text, JSON and binary,
and the table gives the records per second kept with 0 lost and the CPU
tsrun spent per record (tsrun's CPU from wait4, less the program's own,
less what a run of a few records costs: start-up and attach). Then
tsreport alone formats the binary file as text and as JSON (CPU per
record from wait4), and bpftrace's printf in the same run (its CPU the
same way; it drops what it cannot keep up with)."""
import argparse, os, re, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = """long hit(long);
@@uft:*:a.out:hit:entry { printf("%ld\\n", __arg1); }
"""


def paced_cpu(stderr):
    m = re.search(r"paced: (\d+) calls in ([\d.]+) s .*cpu ([\d.]+) s",
                  stderr)
    return int(m.group(1)), float(m.group(2)), float(m.group(3))


def run_cpu(argv, stdout=subprocess.DEVNULL):
    """(CPU seconds of argv and its waited children, wall, stderr)."""
    t0 = time.time()
    p = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.PIPE,
                         text=True)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    return ru.ru_utime + ru.ru_stime, time.time() - t0, err


def reader_rows(a, exe, obj, tmp):
    """The reader's maximum sustained rate and CPU per record."""
    rows = []
    binary_out = None
    for fmt in ("text", "json", "binary"):
        out = os.path.join(tmp, "max." + fmt)
        def once(seconds):
            cpu, wall, err = run_cpu(
                [a.tsrun, obj, "-f", fmt, "-o", out, "--on-full=block",
                 "--", exe, "0", str(seconds)])
            calls, secs, own = paced_cpu(err)
            return cpu - own, calls, secs, err
        base = min(once(0.001)[0] for _ in range(2))  # start-up and attach
        cpu, calls, secs, err = once(a.seconds)
        if fmt == "binary":
            binary_out = out
            rep = os.path.join(tmp, "max.report")
            with open(rep, "w") as f:
                subprocess.run([a.tsreport, out], stdout=f, check=True)
            kept = count_records(rep, "text")
        else:
            kept = count_records(out, fmt)
        rows.append(("tsrun " + fmt + " `--on-full=block`", calls, kept,
                     kept / secs, (cpu - base) * 1e9 / max(kept, 1)))
    # tsreport alone, on the binary file of the last run.
    for fmt in ("text", "json"):
        cpu, wall, _ = run_cpu([a.tsreport, binary_out, "-f", fmt])
        rows.append(("tsreport binary to " + fmt, kept, kept, kept / wall,
                     cpu * 1e9 / max(kept, 1)))
    if not a.no_bpftrace and shutil.which("bpftrace"):
        bout = os.path.join(tmp, "bpf.txt")
        prog = 'uprobe:%s:hit { printf("%%ld\\n", arg0); }' % exe
        cpu, wall, err = run_cpu(["bpftrace", "-o", bout, "-e", prog, "-c",
                                  "%s 0 %s" % (exe, a.seconds)])
        m = re.search(r"paced: (\d+) calls in ([\d.]+) s .*cpu ([\d.]+) s",
                      err)
        calls, secs, own = (paced_cpu(err) if m else (0, a.seconds, 0.0))
        kept = count_records(bout, "text")
        rows.append(("bpftrace printf", calls, kept, kept / secs,
                     (cpu - own) * 1e9 / max(kept, 1)))
    return rows


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
    ap.add_argument("--reader", action="store_true",
                    help="the reader's maximum rate and CPU per record")
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
    if a.reader:
        print("load before: " + open("/proc/loadavg").read().strip(),
              file=sys.stderr)
        print("| reader, output | calls | records kept | lost | "
              "records/s kept | CPU per record (ns) |")
        print("|---|---:|---:|---:|---:|---:|")
        for name, calls, kept, rate, ns in reader_rows(a, exe, obj, tmp):
            print("| %s | %d | %d | %d | %.0f | %.1f |" % (
                name, calls, kept, calls - kept, rate, ns))
        print("load after: " + open("/proc/loadavg").read().strip(),
              file=sys.stderr)
        shutil.rmtree(tmp)
        return
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
