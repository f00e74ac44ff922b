// Threads cancelled inside functions with entry and exit probes. Deferred
// threads make 100 calls of a 5-deep nest() that return, then one that
// waits at pthread_testcancel() five frames deep with its exit probes
// pending; asynchronous threads recurse through spin() without end and are
// cancelled wherever they are (in the program, or in a clause inside the
// process). The cancellation's unwinding stops at the first hijacked
// return and longjmps to the C cleanup handlers (glibc's way with frames
// without unwind tables): every handler runs, the cancelled frames' exit
// probes do not fire, nothing is lost or dropped and the program runs as
// it does alone, 50 times over with new threads.
// The runs without --detach stay attached (--no-detach). KNOWN BUG of the
// detached default, found in wt-detach4's triage: in one run under load
// one call of 50500 was not counted (32-bit or 64-bit, not yet known).
// RUN: %cc64 -O1 -pthread %S/Inputs/cancel.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %t.exe 50 4 100 > %t.alone
// RUN: %tsrun --no-detach %t.o -- %t.exe 50 4 100 > %t.out 2> %t.err
// RUN: grep -v probes: %t.out | diff %t.alone -
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.err
// RUN: %if inprocess %{ %tsrun --detach %t.o -- %t.exe 50 4 100 > %t.det 2> %t.det.err %}
// RUN: %if inprocess %{ grep -v probes: %t.det | diff %t.alone - %}
// RUN: %if inprocess %{ FileCheck %s < %t.det %}
// RUN: %if inprocess %{ FileCheck %s --check-prefix=QUIET --allow-empty < %t.det.err %}
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ %cc32 -O1 -pthread %S/Inputs/cancel.c -o %t32 %}
// RUN: %if native-i386 %{ %tsrun --no-detach %t.o -- %t32 50 4 100 > %t32.out 2> %t32.err %}
// RUN: %if native-i386 %{ grep -v probes: %t32.out | diff %t.alone - %}
// RUN: %if native-i386 %{ FileCheck %s < %t32.out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=QUIET --allow-empty < %t32.err %}
// CHECK: cancelled 200
// CHECK-NEXT: deferred: calls [[C:50500]] returns [[R:50000]] cleanups 500
// CHECK-NEXT: probes: deferred calls [[C]] returns [[R]]
// QUIET-NOT: {{warning|killed|drops|faults|error}}

long nest(long, long, long);
long spin(long);
__global long calls, returns, spins, spun;
@@uft:*:a.out:nest:entry { calls++; }
@@uft:*:a.out:nest:exit { returns++; }
@@uft:*:a.out:spin:entry { spins++; }
@@uft:*:a.out:spin:exit { spun++; }
@@END { printf("probes: deferred calls %ld returns %ld\n", calls, returns); }
