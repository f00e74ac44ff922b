#!/usr/bin/env python3
"""Checks that scraped /metrics values equal tsrun's END printout.

usage: check_metrics.py METRICS END-OUT

Every "@name[key]: value" line (count, sum, min, max, avg), every stats()
line and every histogram bucket printed at END must be in the scrape with
the same value; prints one line per aggregation checked.
"""
import re
import sys


def parse_metrics(path):
    samples = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        m = re.match(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$',
                     line.rstrip("\n"))
        if not m:
            sys.exit("bad sample line: " + line)
        labels = tuple(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"',
                                  m.group(3) or ""))
        samples[(m.group(1), labels)] = float(m.group(4))
    return samples


def esc(v):
    return v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def key_labels(key):
    return (("key", esc(key)),) if key is not None else ()


def check(samples, name, labels, want):
    got = samples.get((name, labels))
    if got != float(want):
        sys.exit("%s%r: scraped %r, END printed %s" % (name, labels, got,
                                                       want))


def main():
    samples = parse_metrics(sys.argv[1])
    lines = open(sys.argv[2]).read().split("\n")
    kinds = {}
    for line in open(sys.argv[1]):
        m = re.match(r"# HELP \w+ @(\w+): (\w+)\(\)", line)
        if m:
            kinds[m.group(1)] = m.group(2)
    checked = {}
    hist = None
    for line in lines:
        m = re.match(r"^@(\w+)(?:\[(.*)\])?:\s*(.*)$", line)
        if m and hist:
            check(samples, "tscc_%s_count" % hist[0], hist[1], hist[2])
            hist = None
        if m:
            name, key, value = m.group(1), m.group(2), m.group(3)
            kind = kinds[name]
            labels = key_labels(key)
            checked[name] = checked.get(name, 0) + 1
            if kind == "count":
                check(samples, "tscc_%s_total" % name, labels, value)
            elif kind == "stats":
                st = dict(re.findall(r"(count|average|total|min|max) (-?\d+)",
                                     value))
                for stat, word in [("count", "count"), ("avg", "average"),
                                   ("sum", "total"), ("min", "min"),
                                   ("max", "max")]:
                    check(samples, "tscc_" + name, labels + (("stat", stat),),
                          st[word])
            elif kind in ("hist", "lhist"):
                hist = (name, labels, 0)
            else:
                metric = "tscc_" + name
                if re.search(r"_(total|count|sum|bucket)$", metric):
                    metric += "_value"
                check(samples, metric, labels, value)
            continue
        m = re.match(r"^(\S.*?)\s+(\d+) \|", line)
        if hist and m:
            name, labels, cum = hist
            cum += int(m.group(2))
            hist = (name, labels, cum)
            bound = m.group(1)
            # "[a, b)" / "[a]" / "(..., 0)" / "[hi, ...)": the le is b-1.
            nums = re.findall(r"-?\d+[KMG]?", bound)
            if bound.endswith("...)"):
                continue  # the overflow bucket: only +Inf has it
            mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
            last = nums[-1]
            v = int(last.rstrip("KMG")) * mult.get(last[-1], 1)
            le = v if bound.endswith("]") else v - 1
            check(samples, "tscc_%s_bucket" % name, labels +
                  (("le", str(le)),), cum)
            continue
        if hist and not line.strip():
            name, labels, cum = hist
            check(samples, "tscc_%s_count" % name, labels, cum)
            hist = None
    for name in sorted(checked):
        print("checked @%s: %d lines" % (name, checked[name]))


main()
