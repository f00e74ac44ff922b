// A shard larger than a 32-bit process can map (64 thread buffers of 64M:
// 4 GiB). A 32-bit mmap took the low half of the size, mapped a few KiB,
// and every record after the first 189 was a fault of its clause ("fired
// 20000, 19811 faults"). An agent now maps the shard's head and each
// buffer as its thread writes into it, so the 32-bit process keeps its
// clauses in the process, and every record is there. Where the agent
// cannot keep the shard's descriptor (a descriptor limit of 512: it keeps
// it at 900 and up) it would have to map the shard whole: that process's
// clauses then run in tsrun, -v says why, and every record is there too;
// the 64-bit process in the same session keeps its clauses in the process.
// REQUIRES: native-i386, inprocess
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %tscc %s -o %t.o
// RUN: %cc32 %S/Inputs/burst.c -o %t.d/burst32
// RUN: %cc64 %S/Inputs/burst.c -o %t.d/burst64
// RUN: %tsrun -v %t.o --thread-buffer 64M -o %t.d/out -c '%t.d/burst32 20000' -c '%t.d/burst64 20000' > %t.d/prog 2> %t.d/err
// RUN: FileCheck --check-prefix=GROWN %s < %t.d/err
// RUN: FileCheck --check-prefix=COUNTS %s < %t.d/err
// RUN: grep -c '^hit ' %t.d/out | FileCheck --check-prefix=RECORDS %s
// RUN: ulimit -n 512 && %tsrun -v %t.o --thread-buffer 64M -o %t.d/out2 -c '%t.d/burst32 20000' -c '%t.d/burst64 20000' > %t.d/prog2 2> %t.d/err2
// RUN: FileCheck --check-prefix=WHY %s < %t.d/err2
// RUN: FileCheck --check-prefix=COUNTS %s < %t.d/err2
// RUN: grep -c '^hit ' %t.d/out2 | FileCheck --check-prefix=RECORDS %s
// GROWN: clauses run in the process (in-process agent)
// GROWN: clauses run in the process (in-process agent)
// GROWN-NOT: clauses run in tsrun
// WHY: clauses run in tsrun: mapping the process's shard: {{[0-9]+}} MiB do not fit in a 32-bit process
// WHY: clauses run in the process (in-process agent)
// COUNTS: clause 0 (line {{[0-9]+}}): fired 40000, 0 faults, 0 drops
// RECORDS: 40000

long hit(long);
@@uft:*:a.out:hit:entry { printf("hit %ld\n", __arg1); }
