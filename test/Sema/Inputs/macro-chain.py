#!/usr/bin/env python3
"""Writes a script whose macros double with every line, `#define A1 (A0 + A0)`
up to A<DEPTH>, to stdout; the clause uses the macros named on the command
line. A<n> expands to 4 * 2^n - 3 tokens: A14 to 65533, A15 to 131069."""
import sys

depth = int(sys.argv[1])
print("#define A0 1")
for i in range(1, depth + 1):
    print(f"#define A{i} (A{i - 1} + A{i - 1})")
names = sys.argv[2:]
print("__global long " + ", ".join(f"v{i}" for i in range(len(names))) + ";")
print("@@BEGIN { " + " ".join(f"v{i} = {n};" for i, n in enumerate(names)) + " }")
