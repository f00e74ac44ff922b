"""Compares the VmSize lines of vsz.c run untraced (first file) and traced
(second): prints the growth, rounded to MiB only when it is over the
limit (the exact figure varies with the machine), so that FileCheck can
check "within" lines. Usage: check-vsz.py LIMIT_MIB UNTRACED TRACED"""
import re
import sys


def vm_size(path):
    with open(path) as f:
        for line in f:
            m = re.match(r"vsz: (\d+) threads VmSize (\d+) kB", line)
            if m:
                return int(m.group(1)), int(m.group(2))
    sys.exit("no VmSize line in " + path)


limit = int(sys.argv[1])
threads, before = vm_size(sys.argv[2])
threads2, after = vm_size(sys.argv[3])
if threads != threads2:
    sys.exit("thread counts differ")
growth = after - before
if growth <= limit * 1024:
    print("%d threads: growth within %d MiB" % (threads, limit))
else:
    print("%d threads: growth %d kB, over %d MiB" % (threads, growth, limit))
