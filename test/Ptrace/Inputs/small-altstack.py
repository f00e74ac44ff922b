#!/usr/bin/env python3
"""Runs small-altstack.c at the smallest alternate signal stack that works
without a tracer, then under tsrun at that size.

  small-altstack.py PROG MODE ROUNDS TSRUN ARGS... -- (the program's
  command line is appended to ARGS)

The smallest size depends on the machine (the kernel's signal frame grows
with the CPU's register state): it is found by bisection, in steps of 16
bytes, from runs of PROG alone. A run that does not end within a few
seconds counts as not working (small-altstack.c ends by itself when a
handler overflows its stack). Prints the program's line untraced and
traced, and tsrun's status.
"""
import resource
import subprocess
import sys


def no_core():
    # Most sizes tried are too small: their deaths need no core files.
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run(argv, timeout):
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, timeout=timeout,
                           text=True, preexec_fn=no_core)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        return None, ""


def works(prog, mode, size, rounds):
    rc, _ = run([prog, mode, str(size), rounds], 30)
    return rc == 0


def main():
    prog, mode, rounds = sys.argv[1:4]
    tsrun = sys.argv[4:]
    lo, hi = 256, 1 << 16
    if not works(prog, mode, hi, rounds):
        print("does not work untraced at %d bytes" % hi)
        return 1
    while hi - lo > 16:
        mid = (lo + hi) // 2 // 16 * 16
        if works(prog, mode, mid, rounds):
            hi = mid
        else:
            lo = mid
    rc, alone = run([prog, mode, str(hi), rounds], 60)
    print("untraced:", alone.strip(), "status", rc)
    rc, traced = run(tsrun + [prog, mode, str(hi), rounds], 300)
    line = [l for l in traced.splitlines() if not l.startswith("@")]
    print("traced:", " ".join(line).strip(), "status",
          "hung" if rc is None else rc)
    for l in traced.splitlines():
        if l.startswith("@"):
            print(l)
    return 0


if __name__ == "__main__":
    sys.exit(main())
