#!/usr/bin/env python3
"""Writes a script to stdout whose one clause nests KIND N levels deep.

KIND is parens `((1))`, unary `- - 1`, ternary `x == 0 ? 0 : x == 1 ? ...`,
sum `x + x + ...` (a left-associative chain: iterative to parse, but as
deep a tree as it is long) or blocks `{ { } }`.
"""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
out = sys.stdout
out.write("__global long x;\n@@BEGIN {\n")
if kind == "parens":
    out.write("  x = " + "(" * n + "1" + ")" * n + ";\n")
elif kind == "unary":
    out.write("  x = " + "- " * n + "1;\n")
elif kind == "ternary":
    out.write("  x = " + "".join(f"x == {i} ? {i} : " for i in range(n)) + "0;\n")
elif kind == "sum":
    out.write("  x = x" + " + x" * n + ";\n")
elif kind == "blocks":
    out.write("  " + "{" * n + "x = 1;" + "}" * n + "\n")
else:
    sys.exit(f"unknown kind {kind}")
out.write("}\n")
