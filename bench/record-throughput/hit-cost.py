#!/usr/bin/env python3
"""What a printing hit costs the traced thread, beside what tsrun's reader
costs, tsrun beside bpftrace in the same run.

  python3 bench/record-throughput/hit-cost.py [--tsrun build/bin/tsrun]
      [--tscc build/bin/tscc] [--n1 200000] [--n2 1000000]
      [--bpf-n1 5000] [--bpf-n2 20000] [--repeat 3] [--no-bpftrace]

hitcpu.c calls hit(i, 2*i) and reports, per call, its loop's wall time and
its own thread's CPU time (CLOCK_THREAD_CPUTIME_ID, which leaves out the
reader, another process). Each row runs two lengths and reports slopes
(the cost of one more call): the thread's wall and CPU per call, and the
CPU per call of everything (tsrun, its reader thread and the program,
from wait4), so that start-up cancels out. Of `repeat` runs of each
length the one with the least thread CPU is kept. The reader's CPU per
record is "all CPU" minus "thread CPU". Rows:

  (no tracer)                 the loop alone
  tsrun, count                @n = count(): a hit that writes no record
  tsrun, print 2 args, FMT    printf("%ld %ld\\n"): text or binary to
                              /dev/null, --thread-buffer 256M (every
                              record kept: the row measures writing
                              records, not dropping them; each page of
                              the buffer is new to the process when the
                              hit first writes it)
  tsrun, print 2 args, text, --on-full=block
                              the default 1M buffer, which the thread
                              waits for the reader to empty when it is
                              full: every record kept, the buffer's pages
                              written again and again (the wall time
                              includes the waits, the thread CPU not)
  bpftrace uprobe, print 2 args  printf to /dev/null (-o)
"""
import argparse, os, re, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
COUNT = "long hit(long, long);\n@@uft:*:a.out:hit:entry { @n = count(); }\n"
PRINT = ("long hit(long, long);\n@@uft:*:a.out:hit:entry "
         "{ printf(\"%ld %ld\\n\", __arg1, __arg2); }\n")


def run(argv):
    """(thread wall ns, thread CPU ns, all CPU s, stderr) of one run."""
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    _, status, ru = os.wait4(p.pid, 0)
    err = p.stderr.read()
    m = re.search(r"hitcpu: (\d+) calls, ([\d.]+) ns wall, ([\d.]+) ns "
                  r"thread CPU", err)
    if not m:
        raise RuntimeError(" ".join(argv) + " failed: " + err[-400:])
    n = int(m.group(1))
    return (float(m.group(2)) * n, float(m.group(3)) * n,
            ru.ru_utime + ru.ru_stime, err)


def slope(argv_of, n1, n2, repeat):
    best = {}
    for _ in range(repeat):
        for n in (n1, n2):
            r = run(argv_of(n))
            if n not in best or r[1] < best[n][1]:
                best[n] = r
    d = n2 - n1
    wall = (best[n2][0] - best[n1][0]) / d
    cpu = (best[n2][1] - best[n1][1]) / d
    allcpu = (best[n2][2] - best[n1][2]) * 1e9 / d
    lost = sum(int(x) for x in re.findall(r"(\d+) records? lost in all",
                                          best[n2][3]))
    return wall, cpu, allcpu, lost


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tsrun", default="build/bin/tsrun")
    ap.add_argument("--tscc", default="build/bin/tscc")
    ap.add_argument("--n1", type=int, default=200000)
    ap.add_argument("--n2", type=int, default=1000000)
    ap.add_argument("--bpf-n1", type=int, default=5000)
    ap.add_argument("--bpf-n2", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-bpftrace", action="store_true")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="tscc-hitcost-")
    exe = os.path.join(tmp, "hitcpu")
    subprocess.run(["gcc", "-O2", os.path.join(HERE, "hitcpu.c"), "-o", exe],
                   check=True)
    objs = {}
    for name, text in (("count", COUNT), ("print", PRINT)):
        src = os.path.join(tmp, name + ".t")
        open(src, "w").write(text)
        objs[name] = os.path.join(tmp, name + ".o")
        subprocess.run([a.tscc, src, "-o", objs[name]], check=True)
    ts = lambda obj, extra: (lambda n: [a.tsrun, obj] + extra +
                             ["--", exe, str(n)])
    rows = [("(no tracer)", lambda n: [exe, str(n)], a.n1, a.n2),
            ("tsrun, count", ts(objs["count"], []), a.n1, a.n2)]
    for fmt in ("text", "binary"):
        rows.append(("tsrun, print 2 args, " + fmt,
                     ts(objs["print"], ["-f", fmt, "--thread-buffer", "256M",
                                        "-o", "/dev/null"]), a.n1, a.n2))
    rows.append(("tsrun, print 2 args, text, --on-full=block",
                 ts(objs["print"], ["--on-full=block", "-o", "/dev/null"]),
                 a.n1, a.n2))
    if not a.no_bpftrace and shutil.which("bpftrace"):
        prog = ('uprobe:%s:hit { printf("%%ld %%ld\\n", arg0, arg1); }'
                % exe)
        rows.append(("bpftrace uprobe, print 2 args",
                     lambda n: ["bpftrace", "-o", "/dev/null", "-e", prog,
                                "-c", "%s %d" % (exe, n)],
                     a.bpf_n1, a.bpf_n2))
    print("load before: " + open("/proc/loadavg").read().strip(),
          file=sys.stderr)
    print("| row | calls | wall per hit (ns) | thread CPU per hit (ns) | "
          "all CPU per hit (ns) | reader CPU per record (ns) | lost |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    results = {}
    for name, argv_of, n1, n2 in rows:
        wall, cpu, allcpu, lost = slope(argv_of, n1, n2, a.repeat)
        results[name] = (wall, cpu)
        reader = ("%.1f" % (allcpu - cpu)) if "print" in name and \
            name.startswith("tsrun") else ""
        print("| %s | %s–%s | %.1f | %.1f | %.1f | %s | %d |" % (
            name, f"{n1:,}", f"{n2:,}", wall, cpu, allcpu, reader, lost))
    print("load after: " + open("/proc/loadavg").read().strip(),
          file=sys.stderr)
    # bpftrace's hit is a trap into the kernel on the thread itself: its
    # cost is in the thread's CPU time too.
    bt = results.get("bpftrace uprobe, print 2 args")
    if bt:
        for name, (w, c) in results.items():
            if name.startswith("tsrun, print"):
                print("%s: wall %.4fx, thread CPU %.4fx bpftrace's "
                      "(goal <= 0.02x)" % (name, w / bt[0], c / bt[1]))
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
