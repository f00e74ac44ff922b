"""Turns the stack-keyed aggregation of a tsrun JSON output into the lines
call-paths.c prints ("path main>via_a>leaf 5"), so that a test can diff the
profile against the programs' own account.

usage: stack-paths.py [--module] JSON [AGGREGATION]  (default: the first)
Each stack key's frames ("leaf+0x0 (prog)", innermost first) are cut below
main and joined outermost first. With --module every line starts with the
module of the innermost frame ("prog: path ..."), for sessions that trace
several programs.
"""
import json
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
with_module = "--module" in sys.argv
path, wanted = args[0], args[1] if len(args) > 1 else None
for line in open(path):
    event = json.loads(line)
    if event.get("type") != "aggregation":
        continue
    if wanted and event["name"] != wanted:
        continue
    totals = {}
    for entry in event["entries"]:
        stack = next(k for k in entry["keys"] if isinstance(k, list))
        names = []
        for frame in stack:
            name = frame.split("+")[0].split(" ")[0]
            names.append(name)
            if name == "main":
                break
        key = "path " + ">".join(reversed(names))
        if with_module:
            first = stack[0]
            key = first[first.rindex("(") + 1:-1] + ": " + key
        totals[key] = totals.get(key, 0) + entry["count"]
    for key in sorted(totals):
        print(key, totals[key])
    break
