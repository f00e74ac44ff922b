#!/usr/bin/env python3
"""Traces a hostile program of another user beside a well-behaved one.

  other-user-driver.py TSRUN OBJ PROG N STEADY [-- TSRUN-OPTION...]

Launches, in one session, `PROG scribble N FILE` (hostile.c) as user
nobody (setpriv), and `PROG steady-marked STEADY FILE` as tsrun's user, and
prints, for FileCheck:

  tsrun status: S          (or "tsrun hung", then it is killed)
  tsrun memory: bounded    (peak RSS under the limit; else the peak)
  steady: exact            (@work[its pid] equals what it said; else both)
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
NOBODY = "setpriv --reuid=65534 --regid=65534 --clear-groups --"


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
    tsrun, obj, prog, n, steady = argv
    # nobody must be able to see the file the steady program creates: not
    # in $TMPDIR, which may be private (lit's is).
    with tempfile.TemporaryDirectory(dir=os.path.dirname(prog)) as d:
        os.chmod(d, 0o755)
        flag = os.path.join(d, "marked")
        out_path, err_path = os.path.join(d, "out"), os.path.join(d, "err")
        with open(out_path, "w") as out, open(err_path, "w") as err:
            ts = subprocess.Popen(
                [tsrun, obj, *extra,
                 "-c", "%s %s scribble %s %s" % (NOBODY, prog, n, flag),
                 "-c", "%s steady-marked %s %s" % (prog, steady, flag)],
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
    said = re.search(r"steady pid (\d+) calls (\d+)", output)
    counted = said and re.search(r"^@work\[%s\]: (\d+)$" % said.group(1),
                                 output, re.M)
    if said and counted and said.group(2) == counted.group(1):
        print("steady: exact")
    else:
        print("steady: said %s, counted %s" %
              (said and said.group(2), counted and counted.group(1)))
    done = re.findall(r"hostile scribble done.*", output)
    print("hostile:", done[-1] if done else "(nothing)")
    seen = {}
    for line in errors.splitlines():
        if "warning:" in line:
            seen[line] = seen.get(line, 0) + 1
    for line, count in seen.items():
        print("warning x %d: %s" % (count, line))
    sys.stdout.flush()
    if os.environ.get("OTHER_USER_DEBUG"):
        print(output[-3000:], errors[-3000:], file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
