#!/usr/bin/env python3
"""Prints run-tests.sh's one closing line:

    N passed[ (N after a retry)], N failed, N skipped; asan+ubsan: ..., N reports

for the suite that utils/setup/run-suite.sh ran in BUILD_DIR (ctest.log,
lit-results.json, lit-results-ptrace.json) and, after the semicolon, for the
ASan+UBSan job's build directory, or why that job did not run.

usage: summarize.py BUILD_DIR [--sanitized DIR | --sanitized-skipped REASON]
"""
import argparse
import json
import os
import re


def count(build):
    """(passed, failed, skipped, retried) of one run-suite.sh run; a missing
    or unreadable result counts as one failure. retried: of the passed,
    lit tests that passed only on a retry (ALLOW_RETRIES)."""
    passed = failed = skipped = retried = 0
    try:
        with open(os.path.join(build, "ctest.log"), errors="replace") as f:
            text = f.read()
        m = re.search(r"tests passed, (\d+) tests failed out of (\d+)", text)
        if m:
            failed += int(m.group(1))
            passed += int(m.group(2)) - int(m.group(1))
        else:
            failed += 1
        skipped += len(re.findall(r"\*\*\*Skipped|Not Run", text))
    except OSError:
        failed += 1

    for name in ("lit-results.json", "lit-results-ptrace.json"):
        try:
            with open(os.path.join(build, name)) as f:
                results = json.load(f)["tests"]
            for t in results:
                code = t["code"]
                if code in ("PASS", "XFAIL"):
                    passed += 1
                elif code == "FLAKYPASS":
                    passed += 1
                    retried += 1
                elif code in ("UNSUPPORTED", "SKIPPED", "EXCLUDED"):
                    skipped += 1
                else:
                    failed += 1
        except (OSError, ValueError, KeyError):
            failed += 1
    return passed, failed, skipped, retried


def describe(counts):
    passed, failed, skipped, retried = counts
    text = "%d passed" % passed
    if retried:
        text += " (%d after a retry)" % retried
    return text + ", %d failed, %d skipped" % (failed, skipped)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--sanitized", metavar="DIR")
    group.add_argument("--sanitized-skipped", metavar="REASON")
    parser.add_argument("--format", metavar="RESULT",
                        help="what utils/format/check-format.sh said")
    args = parser.parse_args()

    line = describe(count(args.build))
    if args.sanitized:
        reports_dir = os.path.join(args.sanitized, "sanitizer-reports")
        try:
            reports = len(os.listdir(reports_dir))
        except OSError:
            reports = 0
        line += "; asan+ubsan: %s, %d reports" % (
            describe(count(args.sanitized)), reports)
    elif args.sanitized_skipped:
        line += "; asan+ubsan: not run (%s)" % args.sanitized_skipped
    if args.format:
        line += "; clang-format: %s" % args.format
    print(line)


if __name__ == "__main__":
    main()
