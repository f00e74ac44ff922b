// Signal handlers on alternate signal stacks at the smallest size that
// works without a tracer (small-altstack.py finds it; it depends on the
// CPU's register state, so on the machine): a stack-overflow handler that
// leaves with siglongjmp, in two threads; a handler that needs a few bytes
// only (it makes a page writable with a raw mprotect and returns); and a
// thread that changes its alternate stack as fast as it can while SIGBUSes
// arrive. Each runs traced exactly as alone. The agent's handler of SIGSEGV,
// SIGBUS, SIGFPE and SIGTRAP used to call the program's handler from its
// own frames on that stack, and the program was killed by SIGSEGV (or
// its fault delivered for ever): it now jumps to the program's handler
// on the kernel's frame, and asks what to do on a stack of its own when
// the alternate stack has little room (docs/runtime.md, *Faults*).
// RUN: %cc64 -O1 -pthread %S/Inputs/small-altstack.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/small-altstack.py %t.exe overflow 3 %tsrun %t.o -- | FileCheck %s --check-prefix=OVERFLOW
// RUN: %python %S/Inputs/small-altstack.py %t.exe fixup 3 %tsrun %t.o -- | FileCheck %s --check-prefix=FIXUP
// RUN: %python %S/Inputs/small-altstack.py %t.exe churn 300 %tsrun %t.o -- | FileCheck %s --check-prefix=CHURN
// RUN: %if inprocess %{ %python %S/Inputs/small-altstack.py %t.exe overflow 3 %tsrun --detach %t.o -- | FileCheck %s --check-prefix=OVERFLOW %}
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ %cc32 -O1 -pthread %S/Inputs/small-altstack.c -o %t32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/small-altstack.py %t32 overflow 3 %tsrun %t.o -- | FileCheck %s --check-prefix=OVERFLOW %}
// RUN: %if native-i386 %{ %python %S/Inputs/small-altstack.py %t32 fixup 3 %tsrun %t.o -- | FileCheck %s --check-prefix=FIXUP %}
// RUN: %if native-i386 %{ %python %S/Inputs/small-altstack.py %t32 churn 300 %tsrun %t.o -- | FileCheck %s --check-prefix=CHURN %}
// OVERFLOW: untraced: overflows 3 3 probed 3 3 status 0
// OVERFLOW-NEXT: traced: overflows 3 3 probed 3 3 status 0
// OVERFLOW-NEXT: @calls: 6
// FIXUP: untraced: fixed 3 probed 3 status 0
// FIXUP-NEXT: traced: fixed 3 probed 3 status 0
// FIXUP-NEXT: @calls: 3
// CHURN: untraced: signals 300 (on an alternate stack or not: all) probed 300 status 0
// CHURN-NEXT: traced: signals 300 (on an alternate stack or not: all) probed 300 status 0
// CHURN-NEXT: @calls: 300

long probed(long);
@@uft:*:a.out:probed:entry { @calls = count(); }
