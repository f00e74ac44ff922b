#!/usr/bin/env python3
"""Compares tsrun's stktrace() with the program's own backtrace().

  compare-backtrace.py PROGRAM_OUTPUT TSRUN_JSON [DATA_MODEL]

PROGRAM_OUTPUT has the callers of the probed function as backtrace.c prints
them ("frame TEXT" lines); TSRUN_JSON is tsrun's -f json output with one
stack record whose first frame is the probed function (of DATA_MODEL, if
given). The callers must be the same frames, in the same order, with the
same offsets: then the stack is printed normalised (no offsets, the
executable called "exe"), so that the stacks of two builds can be diffed.
dladdr() knows exported symbols only: where the program prints
"module+0xOFF", tsrun may name the function from the full symbol table or
separate debug symbols (libc's __libc_start_call_main), so there only the
module must agree, and the normalised frame is "? (module)".
Exits 1, showing both stacks, when they differ.
"""
import json
import re
import sys


UNNAMED = re.compile(r"^(\S+)\+0x[0-9a-f]+$")


def same_frame(tsrun, prog):
    """Whether tsrun's frame is the program's (see above)."""
    unnamed = UNNAMED.match(prog)
    if tsrun == prog or not unnamed:
        return tsrun == prog
    return tsrun.endswith(" (%s)" % unnamed.group(1))


def main():
    prog = [l.split(" ", 1)[1].rstrip("\n")
            for l in open(sys.argv[1]) if l.startswith("frame ")]
    model = sys.argv[3] if len(sys.argv) > 3 else None
    stacks = [r for r in map(json.loads, open(sys.argv[2]))
              if r.get("type") == "stack"
              and (model is None or r.get("data_model") == model)]
    if len(stacks) != 1:
        sys.exit("expected one stack record, got %d" % len(stacks))
    frames = stacks[0]["frames"]
    if not prog or len(frames) != len(prog) + 1 or \
            not all(same_frame(t, p) for t, p in zip(frames[1:], prog)):
        print("tsrun stktrace():", *frames, sep="\n  ", file=sys.stderr)
        print("program backtrace():", *prog, sep="\n  ", file=sys.stderr)
        sys.exit("the stacks differ")
    exe = re.match(r".*\((.*)\)$", frames[0]).group(1)
    for f in [frames[0]] + prog:
        unnamed = UNNAMED.match(f)
        f = "? (%s)" % unnamed.group(1) if unnamed else f
        f = f.replace("(%s)" % exe, "(exe)")
        print(re.sub(r"\+0x[0-9a-f]+", "", f))


if __name__ == "__main__":
    main()
