#!/usr/bin/env python3
"""Deterministic mutation fuzzing of tscc's frontend.

Takes valid trace scripts, applies seeded random mutations (delete, duplicate
or swap tokens, truncate, insert garbage bytes or stray tokens, nest deeply)
and runs tscc on every mutant. A run fails if tscc
  - dies from a signal or exits with anything but 0 or 1,
  - prints an assertion failure or an LLVM stack dump,
  - exits 1 without a single "error:" diagnostic, or exits 0 with one,
  - takes longer than the timeout.
Failing mutants are kept in --keep DIR so they can be replayed by hand.
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

TOKEN_RE = re.compile(
    rb"@@[^\s,{]*|@\w+|\$\w*|[A-Za-z_]\w*|\d[\w.]*|\"(?:\\.|[^\"\\\n])*\"?"
    rb"|'(?:\\.|[^'\\\n])*'?|/\*|\*/|//|<<=|>>=|->|\+\+|--|&&|\|\||[<>=!]=|<<|>>"
    rb"|\s+|.", re.S)

STRAY = [b"{", b"}", b"(", b")", b"[", b"]", b";", b",", b"@@", b"@@uft:*:",
         b"/*", b"\"", b"'", b"$", b"@", b"#define X", b"when", b"__auto",
         b"String", b"typedef", b"struct", b"sizeof", b"offsetof(", b"?",
         b":", b"->", b"0x", b"09", b"1.5", b"\\", b"`", b"\x00", b"\xff",
         b"\xc3", b"__arg1", b"return", b"while", b"else", b"(size_t)"]


def tokens(data):
    return TOKEN_RE.findall(data)


def mutate(rng, data):
    """Returns (description, mutant)."""
    toks = tokens(data)
    if not toks:
        return "empty", b"\x00"
    significant = [i for i, t in enumerate(toks) if not t.isspace()] or [0]
    kind = rng.choice(["delete", "duplicate", "swap", "truncate", "garbage",
                       "stray", "stray", "multi", "nest"])
    if kind == "delete":
        i = rng.choice(significant)
        return f"delete token {i} {toks[i]!r}", b"".join(toks[:i] + toks[i + 1:])
    if kind == "duplicate":
        i = rng.choice(significant)
        return f"duplicate token {i}", b"".join(toks[:i + 1] + toks[i:])
    if kind == "swap":
        i = rng.choice(significant)
        j = rng.choice(significant)
        toks[i], toks[j] = toks[j], toks[i]
        return f"swap tokens {i} and {j}", b"".join(toks)
    if kind == "truncate":
        n = rng.randrange(len(data) + 1)
        return f"truncate at byte {n}", data[:n]
    if kind == "garbage":
        n = rng.randrange(len(data) + 1)
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8)))
        return f"insert {junk!r} at byte {n}", data[:n] + junk + data[n:]
    if kind == "stray":
        i = rng.randrange(len(toks) + 1)
        s = rng.choice(STRAY)
        return f"insert {s!r} before token {i}", b"".join(toks[:i] + [s] + toks[i:])
    if kind == "multi":
        desc = []
        for _ in range(rng.randrange(2, 6)):
            d, data = mutate(rng, data)
            desc.append(d)
        return "; ".join(desc), data
    # Deep nesting of parentheses or blocks around some token.
    i = rng.choice(significant)
    depth = rng.randrange(50, 300)
    opener, closer = rng.choice([(b"(", b")"), (b"{", b"}"), (b"[", b"]"),
                                 (b"-", b"")])
    return (f"nest token {i} {depth} deep in {opener!r}",
            b"".join(toks[:i] + [opener * depth, toks[i], closer * depth] +
                     toks[i + 1:]))


def check(tscc, args, path, timeout):
    """Returns None if the run was fine, else a reason."""
    try:
        r = subprocess.run([tscc] + args + [path], capture_output=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"timed out after {timeout}s"
    err = r.stderr.decode("utf-8", "replace")
    if r.returncode < 0 or r.returncode >= 128:
        return f"killed by signal / crashed (exit {r.returncode})\n{err[-2000:]}"
    if r.returncode not in (0, 1):
        return f"unexpected exit status {r.returncode}\n{err[-2000:]}"
    for marker in ("Assertion", "Stack dump", "PLEASE submit a bug report",
                   "internal parser error"):
        if marker in err:
            return f"'{marker}' in stderr\n{err[-2000:]}"
    has_error = re.search(r"(^|: )(fatal )?error: ", err, re.M) is not None
    if r.returncode == 1 and not has_error:
        return "exit status 1 without any error diagnostic"
    if r.returncode == 0 and has_error:
        return f"exit status 0 despite an error diagnostic\n{err[-2000:]}"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tscc", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=300,
                    help="number of mutants over all inputs")
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--keep", help="directory for failing mutants")
    ap.add_argument("--args", default="--dump-ast",
                    help="tscc arguments before the script (default: %(default)s)")
    ap.add_argument("inputs", nargs="+")
    opts = ap.parse_args()

    seeds = []
    for p in sorted(opts.inputs):
        with open(p, "rb") as f:
            seeds.append((os.path.basename(p), f.read()))
    rng = random.Random(opts.seed)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(opts.count):
            name, data = seeds[n % len(seeds)]
            desc, mutant = mutate(rng, data)
            path = os.path.join(tmp, f"m{n}.t")
            with open(path, "wb") as f:
                f.write(mutant)
            reason = check(opts.tscc, opts.args.split(), path, opts.timeout)
            if reason is None:
                continue
            failures += 1
            print(f"FAIL mutant {n} of {name} ({desc}): {reason}")
            if opts.keep:
                os.makedirs(opts.keep, exist_ok=True)
                kept = os.path.join(opts.keep, f"m{n}-{name}")
                with open(kept, "wb") as f:
                    f.write(mutant)
                print(f"  kept as {kept}")
    print(f"{opts.count} mutants, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
