// A clause that prints reads the clock through the process's own vDSO, in a
// 64-bit and in a 32-bit process: no clock_gettime system call per record.
// The 32-bit agent once read /proc/PID/auxv as pairs of 64-bit words, found
// no vDSO there, and paid a system call per record (clock_gettime64, i386
// number 403): a printing hit cost six times what it costs a 64-bit one.
// bpftrace, an independent oracle, counts the traced program's system calls
// by number while tsrun runs it.
// REQUIRES: bpftrace, root, inprocess
// RUN: mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %tscc %s -o %t.o
// RUN: %cc64 %S/Inputs/burst.c -o %t.d/clk64
// RUN: bpftrace -o %t.bt64 -e 'tracepoint:raw_syscalls:sys_enter /comm == "clk64"/ { @calls[args->id] = count(); }' -c '%tsrun %t.o -o %t.d/out64 -- %t.d/clk64 20000' > /dev/null
// RUN: FileCheck --check-prefix=CLOCK64 %s < %t.bt64
// RUN: FileCheck --check-prefix=RECORDS %s < %t.d/out64
// RUN: %if native-i386 %{ %cc32 %S/Inputs/burst.c -o %t.d/clk32 %}
// RUN: %if native-i386 %{ bpftrace -o %t.bt32 -e 'tracepoint:raw_syscalls:sys_enter /comm == "clk32"/ { @calls[args->id] = count(); }' -c '%tsrun %t.o -o %t.d/out32 -- %t.d/clk32 20000' > /dev/null %}
// RUN: %if native-i386 %{ FileCheck --check-prefix=CLOCK32 %s < %t.bt32 %}
// RUN: %if native-i386 %{ FileCheck --check-prefix=RECORDS %s < %t.d/out32 %}
//
// The program ran (it printed with write(), 1 on x86-64 and 4 on i386), and
// made no clock_gettime (228) or clock_gettime64 (403) call by the hundred:
// CLOCK64-NOT: @calls[228]: {{[0-9][0-9][0-9]+$}}
// CLOCK64: @calls[1]:
// CLOCK64-NOT: @calls[228]: {{[0-9][0-9][0-9]+$}}
// CLOCK32-NOT: @calls[403]: {{[0-9][0-9][0-9]+$}}
// CLOCK32: @calls[4]:
// CLOCK32-NOT: @calls[403]: {{[0-9][0-9][0-9]+$}}
// RECORDS: hit {{[0-9]+}}

long hit(long);
@@uft:*:a.out:hit:entry { printf("hit %ld\n", __arg1); }
