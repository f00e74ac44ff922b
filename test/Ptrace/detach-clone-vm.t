// tsrun attaches (-p) to a process that a clone(CLONE_VM) child, made
// before tsrun came, shares memory with; both recurse 1000 calls deep into
// a function with an exit probe, and tsrun detaches from them while both
// are at the bottom. Both were traced (the child was attached with its
// parent), every hijacked return address of both is put back, the agent
// stays mapped for the other (it uses the same memory), and both return
// through every frame to the right places, untraced.
// (Before, the ptrace path killed the child with its first breakpoint;
// in the process, the child's hits were taken for the parent's.)
// The sites removed include the agent's own gates (libc's exec functions,
// sigaction(), pthread_sigmask() where tsrun may let go of the process).
// RUN: %cc64 %S/Inputs/sharedeep.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/deep-detach.py %tsrun %t.o %t.exe 1000 > %t.out
// RUN: FileCheck %s < %t.out
// RUN: %if inprocess %{ FileCheck %s --check-prefix=AGENT < %t.out %}
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/sharedeep.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/deep-detach.py %tsrun %t.o %t.i386/%basename_t.tmp.exe 1000 > %t.i386/out %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/out %}
// RUN: %if native-i386 %{ %if inprocess %{ FileCheck %s --check-prefix=AGENT < %t.i386/out %} %}
// CHECK: prog says: bottom
// CHECK: tsrun status: 0
// CHECK-NEXT: rec [[V:[0-9]+]] [[V]], expected [[V]]
// CHECK-NEXT: tracers 0 0
// CHECK-NEXT: child status 0
// CHECK-NEXT: prog status: 0
// With the agent (none on the ptrace path), what it says of both:
// AGENT-NOT: {{warning|error}}
// AGENT-COUNT-2: tsrun: pid {{[0-9]+}}: agent removed: {{[0-9]+}} sites and 1001 return addresses restored, its memory left mapped (pid {{[0-9]+}} shares it)
// AGENT-NOT: {{warning|error}}

long rec(long);
@@uft:*:a.out:rec:exit { @rv = sum(__rv); }
