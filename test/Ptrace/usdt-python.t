// The USDT probes of a real program: CPython's python:function__entry and
// python:line, whose semaphores make the interpreter report at all. Counts
// agree with bpftrace's usdt probes on the same program; string arguments
// (the file and function names, 8@%rbp and 8@%r12) read as the interpreter
// passed them. PYTHONHASHSEED makes the interpreter's start-up repeatable.
// The sites run their clauses in the process (jumps or traps into the
// agent), which evaluates the notes' arguments there.
// REQUIRES: bpftrace, root, python-usdt
// RUN: %tscc %s -o %t.o
// Both interpreters get a regular file as stderr: CPython makes one more
// Python-level call at start-up when its stderr is a file than when it is
// a pipe or /dev/null (6332 against 6331 function entries here).
// RUN: env PYTHONHASHSEED=0 bpftrace -o %t.bpf -e 'usdt:/usr/bin/python3:python:function__entry /pid == cpid/ { @entries = count(); } usdt:/usr/bin/python3:python:line /pid == cpid/ { @lines = count(); }' -c '/usr/bin/python3 %S/Inputs/usdt-py.py' > /dev/null 2> %t.bpferr
// RUN: env PYTHONHASHSEED=0 %tsrun -v %t.o -o %t.ours -- /usr/bin/python3 %S/Inputs/usdt-py.py > %t.out 2> %t.err
// RUN: %if inprocess %{ FileCheck %s --check-prefix=SITES < %t.err %}
// RUN: cat %t.bpf %t.ours | FileCheck %s
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// CHECK-DAG: @entries: [[E:[0-9]+]]
// CHECK-DAG: @lines: [[L:[0-9]+]]
// CHECK: module {{.*}}usdt-py.py
// CHECK: entries=[[E]] lines=[[L]]
// OUT: 44
// In the process: the agent evaluates the string arguments' registers.
// Debian's python3 has no symbol for the function around function__entry's
// note; its .eh_frame FDE bounds it, so its branches are checked and the
// site takes a jump, not a trap (a signal per call once tsrun lets go).
// SITES-DAG: probe @@usdt:*:a.out:python:function__entry at {{.*}}, in-process jump{{$}}
// SITES-DAG: probe @@usdt:*:a.out:python:line at {{.*}}, in-process {{jump|trap}}

__global long entries, lines;
@@usdt:*:a.out:python:function__entry { entries++; }
@@usdt:*:a.out:python:line { lines++; }
@@usdt:*:a.out:python:function__entry when (get_userstring(__arg2) == "<module>") { printf("module %s\n", get_userstring(__arg1)); }
@@END { printf("entries=%ld lines=%ld\n", entries, lines); }
