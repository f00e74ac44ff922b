#!/usr/bin/env python3
"""Copies an ELF file, overwriting the first bytes of one function.

  patch_function.py IN OUT FUNC

The copy keeps every header, segment and symbol of IN: only the code of
FUNC differs (its first 8 bytes become `nop`s). It stands for a build that
differs where nothing but the code can tell, so a tracer that checks only
headers would take one for the other.
"""
import shutil
import struct
import sys


def section_headers(data):
    is64 = data[4] == 2
    if is64:
        shoff, = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
        fmt = "<IIQQQQIIQQ"
    else:
        shoff, = struct.unpack_from("<I", data, 0x20)
        shentsize, shnum = struct.unpack_from("<HH", data, 0x2E)
        fmt = "<IIIIIIIIII"
    out = []
    for i in range(shnum):
        f = struct.unpack_from(fmt, data, shoff + i * shentsize)
        # name, type, flags, addr, offset, size, link, info, align, entsize
        out.append(dict(type=f[1], addr=f[3], offset=f[4], size=f[5],
                        link=f[6], entsize=f[9]))
    return is64, out


def find_function(data, name):
    is64, shdrs = section_headers(data)
    want = name.encode()
    for sh in shdrs:
        if sh["type"] != 2:  # SHT_SYMTAB
            continue
        strtab = shdrs[sh["link"]]
        size = 24 if is64 else 16
        for off in range(sh["offset"], sh["offset"] + sh["size"], size):
            if is64:
                st_name, info, _, shndx, value, _ = struct.unpack_from(
                    "<IBBHQQ", data, off)
            else:
                st_name, value, _, info, _, shndx = struct.unpack_from(
                    "<IIIBBH", data, off)
            start = strtab["offset"] + st_name
            end = data.index(b"\0", start)
            if data[start:end] == want and info & 0xF == 2:  # STT_FUNC
                text = shdrs[shndx]
                return value - text["addr"] + text["offset"]
    sys.exit("patch_function.py: no function %s" % name)


def main():
    src, dst, func = sys.argv[1:4]
    shutil.copyfile(src, dst)
    shutil.copymode(src, dst)
    with open(dst, "r+b") as f:
        data = f.read()
        f.seek(find_function(data, func))
        f.write(b"\x90" * 8)


if __name__ == "__main__":
    main()
