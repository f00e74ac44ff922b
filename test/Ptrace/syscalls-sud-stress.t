// Ctrl-C, SIGTERM or SIGKILL at a random moment while tsrun traces, with
// --syscall-dispatch, a multithreaded process it attached to that makes
// system calls as fast as it can (through glibc, syscall(), and code it
// writes at run time) and checks every result: it must not notice.
// Every rewritten system-call site and Syscall User Dispatch must be gone
// from every thread before tsrun lets go (Ctrl-C, SIGTERM), or be healed
// by the agent once tsrun is dead (SIGKILL). Long form (docs/runtime.md,
// *System calls inside the process*):
//   sud-stress.py build/bin/tsrun OBJ EXE --rounds 50 -- --syscall-dispatch
// RUN: %cc64 -O1 -pthread %S/Inputs/sud-stress.c -o %t.exe
// RUN: %tscc %s -o %t.o
// SIGKILL rounds (--signals INT,TERM,KILL) are left to the long form: about
// 1 in 50 sees one wrong result (docs/runtime.md, known problems).
// RUN: %python %S/Inputs/sud-stress.py %tsrun %t.o %t.exe --rounds 6 --signals INT,TERM -- --syscall-dispatch | FileCheck %s
// CHECK: sud-stress: 6 of 6 rounds exact

@@syscall:*:getppid:entry { @sys = count(); }
@@syscall:*:getppid:exit { @ret = count(); }
@@syscall:*:write:entry { @w = count(); }
