// The USDT probes of a real program: CPython's python:function__entry and
// python:line, whose semaphores make the interpreter report at all. Counts
// agree with bpftrace's usdt probes on the same program; string arguments
// (the file and function names, 8@%rbp and 8@%r12) read as the interpreter
// passed them. PYTHONHASHSEED makes the interpreter's start-up repeatable.
// REQUIRES: bpftrace, root, python-usdt
// RUN: %tscc %s -o %t.o
// RUN: env PYTHONHASHSEED=0 bpftrace -o %t.bpf -e 'usdt:/usr/bin/python3:python:function__entry /pid == cpid/ { @entries = count(); } usdt:/usr/bin/python3:python:line /pid == cpid/ { @lines = count(); }' -c '/usr/bin/python3 %S/Inputs/usdt-py.py' > /dev/null
// RUN: env PYTHONHASHSEED=0 %tsrun %t.o -o %t.ours -- /usr/bin/python3 %S/Inputs/usdt-py.py > %t.out
// RUN: cat %t.bpf %t.ours | FileCheck %s
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// CHECK-DAG: @entries: [[E:[0-9]+]]
// CHECK-DAG: @lines: [[L:[0-9]+]]
// CHECK: module {{.*}}usdt-py.py
// CHECK: entries=[[E]] lines=[[L]]
// OUT: 44

__global long entries, lines;
@@usdt:*:a.out:python:function__entry { entries++; }
@@usdt:*:a.out:python:line { lines++; }
@@usdt:*:a.out:python:function__entry when (get_userstring(__arg2) == "<module>") { printf("module %s\n", get_userstring(__arg1)); }
@@END { printf("entries=%ld lines=%ld\n", entries, lines); }
