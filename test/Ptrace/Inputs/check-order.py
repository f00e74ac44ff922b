#!/usr/bin/env python3
"""check-order.py N < output: the lines 'step S tid T' must be exactly
S = 0 .. N-1 in this order, from more than one thread. Prints 'in order'
or what is wrong."""
import sys

n = int(sys.argv[1])
seqs, tids = [], set()
for line in sys.stdin:
    parts = line.split()
    if len(parts) == 4 and parts[0] == "step":
        seqs.append(int(parts[1]))
        tids.add(parts[3])
if seqs != list(range(n)):
    bad = next((i for i, s in enumerate(seqs) if s != i), len(seqs))
    print("out of order at record %d of %d: %s" % (bad, len(seqs),
                                                    seqs[bad:bad + 5]))
    sys.exit(1)
print("in order, %d records from %d threads" % (len(seqs), len(tids)))
