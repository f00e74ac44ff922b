#!/usr/bin/env python3
"""A traced program forges records that claim to come from other processes.

  forge-driver.py TSRUN OBJ PROG

Launches `PROG secret` (which keeps a secret at an address it tells) and
`PROG forge` (which appends forged printf records and stack snapshots to
its own ring, naming target ids 0 to 4, with a frame pointer at the
secret's address) in one session, with JSON output. Prints:

  tsrun status: S
  secret: not leaked         (or: "secret: LEAKED")
  forged records: N, all attributed to the forger
                             (or where they were attributed)
  warning x N: TEXT          (each distinct warning)
"""
import json
import os
import subprocess
import sys
import tempfile


def main(tsrun, obj, prog):
    with tempfile.TemporaryDirectory() as d:
        tell, key = os.path.join(d, "tell"), os.path.join(d, "key")
        done = os.path.join(d, "done")
        os.mkfifo(done)
        out_path, err_path = os.path.join(d, "out"), os.path.join(d, "err")
        with open(out_path, "w") as out, open(err_path, "w") as err:
            ts = subprocess.run(
                [tsrun, obj, "-f", "json", "--thread-buffer", "64K",
                 "-c", "%s secret %s %s %s" % (prog, tell, done, key),
                 "-c", "%s forge 65536 %s %s" % (prog, tell, done)],
                stdout=out, stderr=err, timeout=150)
        # The programs write into the same file as tsrun: their lines may
        # land in the middle of one of its lines.
        text = open(out_path).read()
        for said in ("secret kept\n", "hostile forge done\n"):
            text = text.replace(said, "", 1)
        lines = text.splitlines()
        errors = open(err_path).read()
        secret = open(key).read().strip()
    print("tsrun status:", ts.returncode)
    events = []
    for line in lines:
        try:
            events.append(json.loads(line))
        except ValueError:
            pass  # a program's own output
    leaked = any(secret in line or str(int(secret, 16)) in line
                 for line in lines)
    print("secret:", "LEAKED" if leaked else "not leaked")
    forger = {e["pid"] for e in events
              if e.get("type") == "printf" and e.get("args") == [0]}
    forged = [e for e in events if e.get("type") == "printf"
              and e.get("args", [0])[0] in range(0x7e570, 0x7e575)]
    wrong = sorted({e["pid"] for e in forged} - forger)
    if forged and not wrong:
        print("forged records: %d, all attributed to the forger" %
              len(forged))
    else:
        print("forged records: %d, attributed to pids %s" %
              (len(forged), wrong))
    seen = {}
    for line in errors.splitlines():
        if "warning:" in line:
            seen[line] = seen.get(line, 0) + 1
    for line, count in seen.items():
        print("warning x %d: %s" % (count, line))


if __name__ == "__main__":
    main(*sys.argv[1:4])
