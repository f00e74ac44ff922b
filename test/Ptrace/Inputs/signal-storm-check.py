"""Checks signal-storm.t: every tick the program counted is a hit of the
handler's clause, either counted by it or dropped (its thread was inside a
clause); the threads' clauses count every call and drop nothing.

usage: signal-storm-check.py PROGRAM_AND_PROBES_OUTPUT TSRUN_STDERR
"""
import re
import sys


def main():
    out = open(sys.argv[1]).read()
    err = open(sys.argv[2]).read()
    works = int(re.search(r"^works (\d+)$", out, re.M).group(1))
    ticks = int(re.search(r"^ticks (\d+)$", out, re.M).group(1))
    probes = re.search(r"^probes: works (\d+) ticks (\d+)$", out, re.M)
    clauses = {int(m.group(1)): (int(m.group(2)), int(m.group(3)),
                                 int(m.group(4)))
               for m in re.finditer(r"clause (\d+) \(line \d+\): fired (\d+),"
                                    r" (\d+) faults, (\d+) drops", err)}
    problems = []
    if works != 100000:
        problems.append("the program made %d calls, not 100000" % works)
    if int(probes.group(1)) != 2 * works:
        problems.append("probes counted %s entries and exits of %d calls"
                        % (probes.group(1), works))
    fired, faults, drops = clauses[0]
    if fired != ticks or faults:
        problems.append("the handler's clause fired %d times (%d faults) for"
                        " %d ticks" % (fired, faults, ticks))
    if int(probes.group(2)) + drops != ticks:
        problems.append("counted %s + dropped %d != %d ticks"
                        % (probes.group(2), drops, ticks))
    for c in (1, 2):
        if clauses[c] != (works, 0, 0):
            problems.append("clause %d: fired/faults/drops %s" % (c, clauses[c]))
    if re.search(r"warning|killed|error", err):
        problems.append("tsrun said: " + err)
    for p in problems:
        print("signal-storm-check: " + p)
    print("ticks %d, %d counted in the handler, %d dropped"
          % (ticks, int(probes.group(2)), drops))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
