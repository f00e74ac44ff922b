"""record-pids.py FILE: FILE is tsrun -f json output mixed with the traced
program's own lines "child PID ..." and "parent PID ...". Every printf
record must carry, as its pid, the pid its clause printed (__pid), and
both processes must have one. Prints what it found."""
import json
import re
import sys

pids = {}
ok = True
records = []
for line in open(sys.argv[1]):
    m = re.match(r"(child|parent) (\d+)\b", line)
    if m:
        pids[m.group(1)] = int(m.group(2))
        continue
    if line.startswith("{"):
        e = json.loads(line)
        if e.get("type") == "printf":
            records.append(e)
for e in records:
    if e["pid"] != e["args"][0]:
        ok = False
        print("record of pid %d attributed to pid %d" % (e["args"][0], e["pid"]))
for who in ("parent", "child"):
    n = sum(1 for e in records if e["pid"] == pids.get(who))
    print("%s records %d" % (who, n))
print("attribution %s" % ("right" if ok else "WRONG"))
