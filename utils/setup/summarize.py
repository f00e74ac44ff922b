#!/usr/bin/env python3
"""Prints one closing line 'N passed, N failed, N skipped' for ctest + lit
(every lit results file given)."""
import json
import re
import sys

passed = failed = skipped = 0
ctest_log, lit_jsons = sys.argv[1], sys.argv[2:]

try:
    text = open(ctest_log, errors="replace").read()
    m = re.search(r"tests passed, (\d+) tests failed out of (\d+)", text)
    if m:
        failed += int(m.group(1))
        passed += int(m.group(2)) - int(m.group(1))
    skipped += len(re.findall(r"\*\*\*Skipped|Not Run", text))
except OSError:
    failed += 1

for lit_json in lit_jsons:
    try:
        results = json.load(open(lit_json))["tests"]
        for t in results:
            code = t["code"]
            if code in ("PASS", "XFAIL"):
                passed += 1
            elif code in ("UNSUPPORTED", "SKIPPED", "EXCLUDED"):
                skipped += 1
            else:
                failed += 1
    except (OSError, ValueError, KeyError):
        failed += 1

print(f"{passed} passed, {failed} failed, {skipped} skipped")
