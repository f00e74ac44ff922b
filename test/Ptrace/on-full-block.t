// --on-full=block: a thread whose record buffer is full waits for tsrun
// instead of dropping. The output goes to a FIFO that the test stops
// reading after the first record, until the program is seen waiting
// (in-process: in a futex, for room in its buffer; --ptrace: stopped
// while tsrun's output waits for the FIFO), then reads the rest: with the
// smallest buffer (64K, about 1,000 records) and 100,000 records, every
// record is there, in order, with no loss marker and no warning. The
// default, --on-full=drop, loses most of them under the same sink.
// RUN: %cc64 %S/Inputs/burst.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/block-driver.py slow %tsrun %t.o %t.exe 100000 > %t.out
// RUN: %python %S/Inputs/check-lost.py 100000 text %t.out | FileCheck --check-prefix=EXACT %s
// RUN: FileCheck --check-prefix=QUIET %s < %t.out
// If tsrun is killed while the program waits, the program does not wait
// for good: it finds the reader gone, drops the record (nobody is left to
// read it) and finishes on its own.
// RUN: %if inprocess %{ %python %S/Inputs/block-driver.py kill %tsrun %t.o %t.exe 100000 | FileCheck --check-prefix=KILLED %s %}
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ %cc32 %S/Inputs/burst.c -o %t.exe32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/block-driver.py slow %tsrun %t.o %t.exe32 100000 > %t.out32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/check-lost.py 100000 text %t.out32 | FileCheck --check-prefix=EXACT %s %}
// RUN: %if native-i386 %{ FileCheck --check-prefix=QUIET %s < %t.out32 %}
// RUN: %if native-i386 %{ %if inprocess %{ %python %S/Inputs/block-driver.py kill %tsrun %t.o %t.exe32 100000 | FileCheck --check-prefix=KILLED %s %} %}
// RUN: %not %tsrun %t.o --on-full=wait -- %t.exe 1 2>&1 | FileCheck --check-prefix=BAD %s
// EXACT: exact: 100000 records, none lost in no markers
// A loss marker, a loss warning or a clause's non-zero `lost` count; the
// counters line (-v) says 0 lost.
// QUIET-NOT: {{\[lost|records? lost|[1-9][0-9]* lost}}
// QUIET: tsrun status: 0
// QUIET-NOT: warning
// QUIET-NOT: {{\[lost|records? lost|[1-9][0-9]* lost}}
// QUIET: fired 100000, 0 faults, 0 drops, 0 lost
// QUIET-NOT: {{\[lost|records? lost|[1-9][0-9]* lost}}
// QUIET: burst: 100000 calls
// KILLED: tsrun status: -9
// KILLED-NEXT: burst: 100000 calls
// KILLED-NEXT: prog status: 0
// BAD: invalid --on-full 'wait' (expected drop or block)

long hit(long);
@@uft:*:a.out:hit:entry { printf("hit %ld\n", __arg1); }
