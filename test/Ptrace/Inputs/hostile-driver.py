#!/usr/bin/env python3
"""Runs tsrun over a hostile program and a well-behaved one, and judges it.

  hostile-driver.py TSRUN OBJ PROG MODE N [ARG...] [-- TSRUN-OPTION...]

Launches `PROG MODE N ARG...` (hostile.c) and `PROG steady STEADY` in one
session (STEADY is $HOSTILE_STEADY, default 200000), with tsrun's stdout and
stderr in files, and prints, for FileCheck:

  tsrun status: S          (or "tsrun hung", then it is killed)
  tsrun memory: bounded    (peak RSS under the limit; else the peak)
  steady: exact            (the script's @work equals what steady said;
                            else both)
  hostile: <its last line>
  warning x N: TEXT        (each distinct warning, with how often it came)
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

LIMIT_MB = 512 if os.environ.get("TSCC_TEST_ASAN") else 256
TIMEOUT = 150


def peak_rss_mb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return 0


def main(argv):
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    tsrun, obj, prog, mode, n, *args = argv
    steady = os.environ.get("HOSTILE_STEADY", "200000")
    with tempfile.TemporaryDirectory() as d:
        out_path, err_path = os.path.join(d, "out"), os.path.join(d, "err")
        with open(out_path, "w") as out, open(err_path, "w") as err:
            hostile = " ".join([prog, mode, n] + args)
            ts = subprocess.Popen([tsrun, obj, *extra, "-c", hostile,
                                   "-c", "%s steady %s" % (prog, steady)],
                                  stdout=out, stderr=err)
            peak, start = 0, time.time()
            while ts.poll() is None and time.time() - start < TIMEOUT:
                peak = max(peak, peak_rss_mb(ts.pid))
                time.sleep(0.05)
            if ts.poll() is None:
                print("tsrun hung")
                ts.send_signal(signal.SIGKILL)
            ts.wait()
        output = open(out_path).read()
        errors = open(err_path).read()
    if ts.returncode is not None and ts.returncode >= -64:
        print("tsrun status:", ts.returncode)
    print("tsrun memory:", "bounded" if peak < LIMIT_MB else "%d MiB" % peak)
    # The programs write into the same file as tsrun, so their lines may
    # land in the middle of one of tsrun's.
    said = re.search(r"steady calls (\d+)", output)
    counted = re.search(r"^@work: (\d+)$", output, re.M)
    if said and counted and said.group(1) == counted.group(1):
        print("steady: exact")
    else:
        print("steady: said %s, counted %s" %
              (said and said.group(1), counted and counted.group(1)))
    done = re.findall(r"hostile \S+ done", output)
    print("hostile:", done[-1] if done else "(nothing)")
    seen = {}
    for line in errors.splitlines():
        if "warning:" in line:
            seen[line] = seen.get(line, 0) + 1
    for line, count in seen.items():
        print("warning x %d: %s" % (count, line))


if __name__ == "__main__":
    main(sys.argv[1:])
