"""Reads tsrun's TSCC_EXEC_STATS report (stderr) and says how many ptrace
round trips of injection the new images and the fork children took: per
exec and per child, rounded up, with the bounds the test checks.

  exec-round-trips.py MAX_PER_EXEC MAX_PER_CHILD < stats
"""
import re
import sys

text = sys.stdin.read()


def count(pattern):
    m = re.search(pattern, text, re.M)
    return int(m.group(1)) if m else None


execs = count(r"^\s+stops exec\s+(\d+)")
children = count(r"^\s+stops fork\s+(\d+)")
# (Before batches, each injected call was its own round trip, and the
# report named them so.)
trips = r"\s+\d+\s+[0-9.]+ ms(?:\s+[0-9.]+ ms cpu)?\s+(\d+) (?:round trips|injected calls)"
exec_trips = count(r"^\s+exec" + trips)
child_trips = count(r"^\s+child's first stop" + trips)
batched = count(r"^\s+\.\.\. in batches\s+(\d+)") or 0
if None in (execs, children, exec_trips, child_trips) or not execs:
    sys.exit("no complete TSCC_EXEC_STATS report:\n" + text)
per_exec = -(-exec_trips // execs)
per_child = -(-child_trips // children)
max_exec, max_child = int(sys.argv[1]), int(sys.argv[2])
print(f"execs {execs} children {children}")
print(f"round trips per exec {'<=' if per_exec <= max_exec else '>'} {max_exec}"
      f" ({per_exec})")
print(f"round trips per child {'<=' if per_child <= max_child else '>'} "
      f"{max_child} ({per_child})")
print(f"batches per exec {'>= 2' if batched >= 2 * execs else '< 2'}")
