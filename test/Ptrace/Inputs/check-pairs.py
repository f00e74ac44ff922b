"""Checks that a traced program and the script agree, line for line.

  check-pairs.py PREFIX [EXCLUDED...] < OUTPUT

OUTPUT holds the program's own printout and the script's output together
(tsrun's stdout is the program's). Every line starting with PREFIX that the
program printed about a call, the script printed too, from its probe on
that call: so each such line must be there an even number of times. Lines
only the program prints (those a regular expression EXCLUDED matches as a
whole) are left out. Prints "pairs: N", or every unpaired line and exits 1.
"""
import collections
import re
import sys

prefix, excluded = sys.argv[1], [re.compile(e) for e in sys.argv[2:]]
counts = collections.Counter(
    l.rstrip("\n") for l in sys.stdin
    if l.startswith(prefix) and not any(e.fullmatch(l.rstrip("\n"))
                                        for e in excluded))
odd = sorted(l for l, n in counts.items() if n % 2)
for l in odd:
    print("unpaired (%d times): %s" % (counts[l], l))
if odd:
    sys.exit(1)
print("pairs: %d" % (sum(counts.values()) // 2))
