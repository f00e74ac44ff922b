// A thread is blocked in a system call that a jump at the probe site would
// displace, when tsrun attaches; the call restarts once tsrun lets the
// thread go, from the syscall instruction, inside the bytes a jump would
// have overwritten (issue 24). The site takes no jump but a trap (an int3
// over its first instruction only, which the restart does not go back
// to), the program survives and the probe counts every call after the
// attachment.
// RUN: %cc64 %S/Inputs/restart-in-site.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/attach-run.py %tsrun %t.o %t.exe 200 > %t.out
// RUN: FileCheck %s < %t.out
// RUN: %if inprocess %{ FileCheck %s --check-prefix=WHY < %t.out %}
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/restart-in-site.c -o %t.i386/t.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/attach-run.py %tsrun %t.o %t.i386/t.exe 200 > %t.i386/t.out %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/t.out %}
// RUN: %if native-i386 %{ %if inprocess %{ FileCheck %s --check-prefix=WHY < %t.i386/t.out %} %}
// CHECK: read_at after the wait: 200 calls, 200 bytes
// CHECK: probe saw 200 calls
// CHECK: prog status: 0
// CHECK: tsrun status: 0
// A thread tsrun borrowed for a system call of its own while attaching
// is put back as the kernel restarts its call (SelfRestore.h): before its
// syscall instruction, so it is seen inside the bytes rather than in the
// call; a trap either way.
// WHY: probe @@uft:*:a.out:read_at:entry at read_at in {{.*}}, in-process trap (a thread is {{in the system call the jump would displace|inside the bytes the jump would overwrite}})

__global long calls;
@@uft:*:a.out:read_at:entry { calls++; }
@@END { printf("probe saw %ld calls\n", calls); }
