#!/usr/bin/env python3
"""Prints the first N bytes of function FUNC as ELF file EXE holds them.

  function_bytes.py EXE FUNC N

The line reads `code XX XX ...`, as test/Remote/Inputs/teardown.c prints
the bytes it finds in its own memory.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from patch_function import find_function  # noqa: E402


def main():
    path, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    data = open(path, "rb").read()
    offset = find_function(data, name)
    print("code " + " ".join("%02x" % b for b in data[offset:offset + count]))


if __name__ == "__main__":
    main()
