#!/usr/bin/env python3
"""Cuts a binary trace at a frame boundary, as a tsrun killed between two
writes leaves it: the result is well-formed up to where it stops.

usage: cut-trace.py IN.bin OUT.bin KEEP
  KEEP frames are kept (counting the End frame); a negative KEEP drops that
  many from the end (-1: everything but the End frame).
"""
import struct
import sys


def frames_start(data):
    pos = 16  # magic, version, table count
    for _ in range(9):
        (size,) = struct.unpack_from("<Q", data, pos)
        pos += 8 + size
        pos += -pos % 8
    (name,) = struct.unpack_from("<I", data, pos)
    pos += 4 + name
    return pos + (-pos % 8)


def main():
    src, dst, keep = sys.argv[1], sys.argv[2], int(sys.argv[3])
    data = open(src, "rb").read()
    ends = []
    pos = frames_start(data)
    while pos < len(data):
        _, size = struct.unpack_from("<II", data, pos)
        pos += 8 + size
        pos += -pos % 8
        ends.append(pos)
    start = frames_start(data)
    cut = ([start] + ends)[keep if keep >= 0 else len(ends) + keep]
    open(dst, "wb").write(data[:cut])


if __name__ == "__main__":
    main()
