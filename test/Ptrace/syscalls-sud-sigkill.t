// SIGKILL of tsrun while it traces a system-call-heavy process it attached
// to with --syscall-dispatch: the program runs on with every result right
// (the agent's next SIGSYS or hit finds tsrun gone, lets every call
// through the selector and puts its sites back). On the ptrace path the
// kernel just detaches it.
// RUN: %cc64 %S/Inputs/sud-loop.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: printf '#!/bin/sh\nexec %tsrun --syscall-dispatch "$@"\n' > %t.tsrun && chmod +x %t.tsrun
// RUN: %python %S/Inputs/sud-sigkill.py %t.tsrun %t.o %t.exe 4 | FileCheck %s
// CHECK: tsrun killed
// CHECK: done n>0=1 bad=0
// CHECK: prog status: 0

__global long entries;

@@syscall:*:getppid:entry { entries++; }
@@syscall:*:getppid:exit { }
