// The kernel behaviour that makes a SIGKILL of tsrun able to give one
// system call of a process traced with --syscall-dispatch its own number
// as its result (docs/runtime.md, *System calls inside the process*): a
// tracee stopped for a signal whose tracer dies goes on without it. If a
// kernel delivers it instead, this fails, and the known problem is gone.
// RUN: %cc64 %S/Inputs/tracer-death-sigsys.c -o %t.exe
// RUN: %t.exe | FileCheck %s
// CHECK: tracer: stop for signal 31
// CHECK: handler ran=0 result=110
// CHECK: child status 0
