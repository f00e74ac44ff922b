#!/usr/bin/env python3
"""Compiles and runs every trace-script example in the documentation.

usage: check-examples.py TSCC TSRUN APP OUTDIR DOC.md...

An example is a ```c fenced block with a clause (a line starting with
`@@`); other blocks are shell sessions or output.
Each is compiled as a whole script and must compile without a warning,
then runs under tsrun against APP (the demo program, utils/demo/app.c,
whose `handle(struct req *, int)` the examples probe): tsrun must exit 0
with every probe of the example matched and no error or warning. A block
that is deliberately incomplete or wrong is preceded by an HTML comment:

    <!-- example: fragment -->   (not a whole script: skipped)
    <!-- example: error -->      (shows a mistake: must fail to compile)

Prints one line per example and exits 1 if any example does not do what
the documentation says it does, so the docs cannot drift from the tools.
"""
import os
import re
import subprocess
import sys


def examples(path):
    """Yields (line, marker, text) for every ```c block with a probe."""
    lines = open(path, encoding="utf-8").read().split("\n")
    marker = None
    i = 0
    while i < len(lines):
        m = re.match(r"\s*<!--\s*example:\s*(\w+)\s*-->", lines[i])
        if m:
            marker = m.group(1)
        elif re.match(r"\s*```c\s*$", lines[i]):
            start = i + 1
            j = start
            while j < len(lines) and not re.match(r"\s*```\s*$", lines[j]):
                j += 1
            text = "\n".join(lines[start:j]) + "\n"
            if any(l.lstrip().startswith("@@") for l in text.split("\n")):
                yield start, marker, text
            marker = None
            i = j
        elif lines[i].strip():
            marker = None if not lines[i].lstrip().startswith("<!--") else marker
        i += 1


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                          **kw)


def main():
    tscc, tsrun, app, outdir = sys.argv[1:5]
    docs = sys.argv[5:]
    os.makedirs(outdir, exist_ok=True)
    bad = 0
    count = 0
    for doc in docs:
        name = os.path.basename(doc)
        for line, marker, text in examples(doc):
            if marker == "fragment":
                print(f"{name}:{line}: fragment (skipped)")
                continue
            count += 1
            script = os.path.join(outdir, f"{name}-{line}.t")
            with open(script, "w", encoding="utf-8") as f:
                f.write(text)
            obj = script + ".o"
            r = run([tscc, script, "-o", obj])
            if marker == "error":
                ok = r.returncode != 0
                what = "fails to compile, as shown"
                log = r.stderr
            elif r.returncode != 0 or "warning:" in r.stderr:
                ok, what, log = False, "does not compile cleanly", r.stderr
            else:
                t = run([tsrun, obj, "--", app])
                ok = (t.returncode == 0 and "tsrun: error" not in t.stderr
                      and "warning:" not in t.stderr)
                what = "compiles and runs" if ok else "does not run cleanly"
                log = t.stderr
            print(f"{name}:{line}: {'ok' if ok else 'WRONG'} ({what})")
            if not ok:
                bad += 1
                sys.stdout.write(log)
    print(f"{count} examples, {bad} wrong")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
