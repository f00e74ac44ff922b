#!/usr/bin/env python3
"""Prints runtime/include/tscc/Syscalls.def from the Linux UAPI headers.

Usage: utils/gen-syscalls-def.py [INCLUDE_DIR] > runtime/include/tscc/Syscalls.def
INCLUDE_DIR holds asm/unistd_32.h and asm/unistd_64.h (default: Debian's
/usr/include/x86_64-linux-gnu).
"""
import os
import re
import sys

HEADER = """\
/*===- tscc/Syscalls.def - Linux system calls of both data models ------===*
 *
 * One TSCC_SYSCALL(NAME, I386, X86_64) per system call: its number in the
 * i386 table (ILP32 processes) and in the x86-64 table (LP64 processes),
 * -1 where the call does not exist in that model. Sorted by name (byte
 * order) for binary search. The compiler checks syscall probe names with
 * it, the runtime maps names to numbers and back with it
 * (tscc/SyscallTable.h).
 *
 * Generated from the Linux UAPI headers <asm/unistd_32.h> and
 * <asm/unistd_64.h> and kept in the tree so that a machine without kernel
 * headers builds the same table; a unit test (SharedTablesTest) checks it
 * against the headers of the build machine when it has them. Regenerate:
 *   utils/gen-syscalls-def.py > runtime/include/tscc/Syscalls.def
 *
 *===----------------------------------------------------------------------===*/"""


def numbers(path):
    table = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"#define __NR_(\w+)\s+(\d+)\s*$", line)
            if m:
                table[m.group(1)] = int(m.group(2))
    return table


def main():
    include = sys.argv[1] if len(sys.argv) > 1 else "/usr/include/x86_64-linux-gnu"
    i386 = numbers(os.path.join(include, "asm", "unistd_32.h"))
    x86_64 = numbers(os.path.join(include, "asm", "unistd_64.h"))
    print(HEADER)
    for name in sorted(set(i386) | set(x86_64), key=lambda n: n.encode()):
        print("TSCC_SYSCALL(%s, %d, %d)" % (name, i386.get(name, -1),
                                            x86_64.get(name, -1)))


if __name__ == "__main__":
    main()
