"""Checks which records a buffer mode kept.

  check-records.py MODE N < OUTPUT

OUTPUT holds "work I" lines (text, or JSON/tsreport text containing them)
for a program that called work(1) .. work(N). Prints what was kept:
  continuous: all N, in order;
  single:     work(1) .. work(K), the oldest, K < N;
  circular:   work(N-K+1) .. work(N), the newest, K < N.
"""
import re
import sys

mode, n = sys.argv[1], int(sys.argv[2])
got = [int(m) for m in re.findall(r"work (\d+)", sys.stdin.read())]
k = len(got)
if mode == "continuous":
    want = list(range(1, n + 1))
elif mode == "single":
    want = list(range(1, k + 1))
elif mode == "circular":
    want = list(range(n - k + 1, n + 1))
else:
    sys.exit("unknown mode " + mode)
if got != want or k == 0 or (mode != "continuous" and k >= n):
    print("%s: unexpected records: %d kept, first %s, last %s" %
          (mode, k, got[:1], got[-1:]))
    sys.exit(1)
print("%s: kept %d of %d: work(%d) .. work(%d)" %
      (mode, k, n, want[0], want[-1]))
print("not kept: %d" % (n - k))
