// malloc/free counts in libc for real programs agree with bpftrace uprobes.
// REQUIRES: bpftrace, root
// RUN: %tscc %s -o %t.o
// RUN: bpftrace -o %t.bpf -e 'uprobe:/lib/x86_64-linux-gnu/libc.so.6:malloc /pid == cpid/ { @m = count(); } uprobe:/lib/x86_64-linux-gnu/libc.so.6:free /pid == cpid/ { @f = count(); }' -c '/usr/bin/sort /etc/services' > /dev/null
// RUN: %tsrun %t.o -o %t.ours -- /usr/bin/sort /etc/services > /dev/null
// RUN: cat %t.bpf %t.ours | FileCheck %s
// CHECK-DAG: @f: [[F:[0-9]+]]
// CHECK-DAG: @m: [[M:[0-9]+]]
// CHECK: malloc=[[M]] free=[[F]]

__global long m;
__global long f;

@@uft:*:libc.so.6:malloc:entry { m++; }
@@uft:*:libc.so.6:free:entry { f++; }
@@END { printf("malloc=%ld free=%ld\n", m, f); }
