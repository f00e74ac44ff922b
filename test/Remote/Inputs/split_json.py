"""split_json.py TRACE.json MODEL: the "VAL ..." printf lines that fired in
processes of data model MODEL (ILP32 or LP64), sorted and de-duplicated, and
checked to carry the pid that the same process reported in its VAL pid line."""
import json
import sys

lines = set()
for raw in open(sys.argv[1]):
    rec = json.loads(raw)
    if rec.get("type") != "printf" or rec.get("data_model") != sys.argv[2]:
        continue
    text = rec["text"].rstrip("\n")
    if text.startswith("VAL pid ") and int(text.split()[2]) != rec["pid"]:
        sys.exit("record pid %s but __pid %s" % (rec["pid"], text))
    if text.startswith("VAL") and "getppid" not in text:
        lines.add(text)
print("\n".join(sorted(lines)))
