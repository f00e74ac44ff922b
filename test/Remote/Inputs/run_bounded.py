#!/usr/bin/env python3
"""Runs a command and reports how it ended, for tests of hostile stubs.

  run_bounded.py [--max-rss-mb N] [--signal-when FILE --signal NAME]
                 [--hang-timeout S] -- COMMAND...

Prints on stderr, after the command's own output:
  run_bounded: rc=N            its exit status (or -SIG)
  run_bounded: rss ok          its peak RSS stayed under --max-rss-mb
  run_bounded: rss N MiB over the limit of M MiB
  run_bounded: hung            still running after --hang-timeout (killed)

--signal-when FILE sends --signal to the command once FILE exists (the
hostile stub creates it when its misbehaviour starts), so that the test acts
at that moment without guessing a delay. The exit status is 0 unless the
command hung: the test checks the report.

In a sanitizer build (lit sets TSCC_TEST_ASAN=1) the command's RSS also
holds AddressSanitizer's own memory: about 25 MiB of run-time and shadow at
start, red zones and shadow around every block (ASan's documented overhead
is about 2x), and freed blocks it keeps in quarantine to catch uses after
free (256 MiB by default). The quarantine is then capped at 32 MiB for the
command and the limit becomes 2 x --max-rss-mb + 64 MiB, still far below
the hundreds of megabytes that the limits exist to catch.
"""
import argparse
import os
import signal
import subprocess
import sys
import threading
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-rss-mb", type=int, default=0)
    ap.add_argument("--signal-when")
    ap.add_argument("--signal", default="TERM")
    ap.add_argument("--hang-timeout", type=float, default=120)
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
    env = None
    if args.max_rss_mb and os.environ.get("TSCC_TEST_ASAN") == "1":
        args.max_rss_mb = 2 * args.max_rss_mb + 64
        env = dict(os.environ)
        env["ASAN_OPTIONS"] = ":".join(
            o for o in (env.get("ASAN_OPTIONS"), "quarantine_size_mb=32") if o)
    proc = subprocess.Popen(cmd, env=env)
    hung = threading.Event()
    done = threading.Event()

    def watchdog():
        if not done.wait(args.hang_timeout):
            hung.set()
            proc.kill()

    threading.Thread(target=watchdog, daemon=True).start()
    if args.signal_when:
        def signaller():
            # The file is the handshake; polling it is how we wait for it.
            while not done.is_set() and not os.path.exists(args.signal_when):
                time.sleep(0.01)
            if not done.is_set():
                proc.send_signal(getattr(signal, "SIG" + args.signal))
        threading.Thread(target=signaller, daemon=True).start()
    _, status, usage = os.wait4(proc.pid, 0)
    done.set()
    rc = os.waitstatus_to_exitcode(status)
    sys.stdout.flush()
    if hung.is_set():
        print("run_bounded: hung", file=sys.stderr)
        return 124
    print("run_bounded: rc=%d" % rc, file=sys.stderr)
    if args.max_rss_mb:
        mib = usage.ru_maxrss // 1024
        if mib < args.max_rss_mb:
            print("run_bounded: rss ok", file=sys.stderr)
        else:
            print("run_bounded: rss %d MiB over the limit of %d MiB"
                  % (mib, args.max_rss_mb), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
