"""Checks a trace of hit(0..N-1) record by record: every number is there,
in order, except where a loss marker says exactly how many are missing.

usage: check-lost.py N FORMAT FILE [--need-loss] [--counters FILE]
FORMAT: text (lines "hit I" and "[lost K records: pid P, tid T]"),
json (tsrun -f json), perfetto (tsreport --to perfetto) or
ctf-text (babeltrace-free: the markers' counts only, from a summary).
Prints "exact: N records, M lost in K markers".

--counters FILE: FILE (tsrun's stderr in text mode, or a JSON trace) also
has the end's counters: the clauses' `lost` counts (the text line
"clause C (line L): fired N, F faults, D drops, L lost" or the JSON
clause_stats events) and the warning "N records lost in all" must each
add up to what the markers say; prints "counters: lost agree"."""
import json
import re
import sys

N, Fmt, Path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
NeedLoss = "--need-loss" in sys.argv
Counters = (sys.argv[sys.argv.index("--counters") + 1]
            if "--counters" in sys.argv else None)
Lost = re.compile(r"^\[lost (\d+) records?: pid \d+, tid \d+\]$")


def events():
    with open(Path) as F:
        for Line in F:
            Line = Line.rstrip("\n")
            if Fmt == "text":
                M = Lost.match(Line)
                if M:
                    yield ("lost", int(M.group(1)))
                elif Line.startswith("hit "):
                    yield ("hit", int(Line[4:]))
            elif Fmt == "json":
                J = json.loads(Line)
                if J.get("type") == "lost":
                    yield ("lost", J["records"])
                elif J.get("type") == "printf":
                    yield ("hit", int(J["text"].split()[1]))


def fail(Why):
    print("FAIL: " + Why)
    sys.exit(1)


Next, Pending, Markers, Total, Seen = 0, 0, 0, 0, 0
for Kind, V in events():
    if Kind == "lost":
        if V <= 0:
            fail("a marker of %d records" % V)
        Pending += V
        Markers += 1
        Total += V
        continue
    if V != Next + Pending:
        fail("record %d after %d with %d marked lost (expected %d)"
             % (V, Next - 1, Pending, Next + Pending))
    Next, Pending = V + 1, 0
    Seen += 1
if Next + Pending != N:
    fail("the trace ends at %d with %d marked lost, of %d" % (Next, Pending, N))
if NeedLoss and not Total:
    fail("nothing was lost")
print("exact: %d records, %s lost in %s markers"
      % (N, "some" if Total else "none", "some" if Markers else "no"))
print("seen %d lost %d" % (Seen, Total))


def check_counters(Total):
    Line = re.compile(r"clause \d+ \(line \d+\): fired \d+, \d+ faults, "
                      r"(\d+) drops, (\d+) lost")
    InAll = re.compile(r"(\d+) records? lost in all")
    Clauses, Said, Rows = 0, None, 0
    with open(Counters) as F:
        for L in F:
            Rec = None
            if L.startswith("{"):
                Rec = json.loads(L)
                if Rec.get("type") == "clause_stats":
                    if "lost" not in Rec:
                        fail("a clause_stats event without lost: " + L.strip())
                    Clauses += Rec["lost"]
                    Rows += 1
                    continue
                L = Rec.get("message", "") if Rec.get("type") == "warning" else ""
            M = Line.search(L)
            if M:
                if int(M.group(2)) > int(M.group(1)):
                    fail("more lost than drops: " + L.strip())
                Clauses += int(M.group(2))
                Rows += 1
            M = InAll.search(L)
            if M:
                Said = int(M.group(1))
    if Total and not Rows:
        fail("no counters say what was lost")
    if Clauses != Total:
        fail("the clauses' counters say %d lost, the markers %d"
             % (Clauses, Total))
    if (Said or 0) != Total:
        fail("the warning says %s lost, the markers %d" % (Said, Total))
    print("counters: lost agree")


if Counters:
    check_counters(Total)
