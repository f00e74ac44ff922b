"""Checks a trace of burst-threads.c: lines "hit K I" for T threads (K)
of N calls each (I). Every thread's numbers must be 0..N-1 in order, with
no loss marker.

usage: check-thread-bursts.py T N FILE
Prints "exact: T threads x N records, none lost" or "FAIL: ..."."""
import sys

T, N, Path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
Next = [0] * T
Lost = 0
with open(Path) as F:
    for Line in F:
        if Line.startswith("[lost "):
            Lost += 1
            continue
        Parts = Line.split()
        if len(Parts) != 3 or Parts[0] != "hit":
            continue
        K, I = int(Parts[1]), int(Parts[2])
        if not 0 <= K < T or I != Next[K]:
            print("FAIL: thread %d: record %d after %d" % (K, I, Next[K] - 1))
            sys.exit(1)
        Next[K] += 1
Short = [K for K in range(T) if Next[K] != N]
if Short or Lost:
    print("FAIL: %d threads short (%s), %d loss markers"
          % (len(Short), " ".join("%d:%d" % (K, Next[K]) for K in Short),
             Lost))
    sys.exit(1)
print("exact: %d threads x %d records, none lost" % (T, N))
