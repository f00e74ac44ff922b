"""Prints the "text" of every record of a tscc-run/1 JSON lines file, and
its collection and snapshot events, one per line."""
import json
import sys

for line in open(sys.argv[1]):
    j = json.loads(line)
    if "text" in j:
        sys.stdout.write(j["text"])
    elif j.get("type") in ("collection", "snapshot"):
        print("event: " + json.dumps(j, sort_keys=True))
