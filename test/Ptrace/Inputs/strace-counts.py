#!/usr/bin/env python3
"""Counts the calls of an `strace -f -o FILE` log, in the order and form
syscalls-vs-strace-ls.t prints tsrun's: one line, NAME=N for each of
statx lgetxattr getxattr readlink openat, the failed openat calls, close
and write. A call split by another thread's ("<unfinished ...>" then
"<... NAME resumed>") is counted once, where it starts."""
import re
import sys

NAMES = ["statx", "lgetxattr", "getxattr", "readlink", "openat", "close",
         "write"]
counts = dict.fromkeys(NAMES, 0)
failed = 0
pending = {}
for line in open(sys.argv[1]):
    m = re.match(r"\s*(\d+)\s+(\w+)\(", line)
    if m and m.group(2) in counts:
        counts[m.group(2)] += 1
        if m.group(2) == "openat":
            if "<unfinished ...>" in line:
                pending[m.group(1)] = True
            elif re.search(r"= -1 ", line):
                failed += 1
        continue
    m = re.match(r"\s*(\d+)\s+<\.\.\. openat resumed>", line)
    if m and pending.pop(m.group(1), False) and re.search(r"= -1 ", line):
        failed += 1
out = ["%s=%d" % (n, counts[n]) for n in NAMES[:5]]
out += ["openat_failed=%d" % failed]
out += ["%s=%d" % (n, counts[n]) for n in NAMES[5:]]
print("strace " + " ".join(out))
