// Ctrl-C or SIGTERM at a random moment, while tsrun is attached to a hot
// multithreaded program with entry, exit, FUNC+OFFSET, within(),
// recursive, faulting, breakpoint and system-call probes, and a signal
// handler that runs into probes: the program must not
// notice. It checks its own work while traced and computes a checksum of
// the work it does after tsrun is gone; both must equal an untraced run's,
// its code must be its file's and its signal dispositions its own, and it
// must exit with status 0. (Single-stepping through the agent used to
// leave threads with TF set, and a thread in the vDSO, called by the
// agent, used to return into unmapped memory.) Long form:
//   detach-driver.py attach build/bin/tsrun OBJ EXE --rounds 100
// RUN: %cc64 -O1 -fcf-protection=none -pthread %S/Inputs/detach-target.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/detach-driver.py attach %tsrun %t.o %t.exe --rounds 10 | FileCheck %s
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -O1 -fcf-protection=none -pthread %S/Inputs/detach-target.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/detach-driver.py attach %tsrun %t.o %t.i386/%basename_t.tmp.exe --rounds 10 | FileCheck %s %}
// CHECK: attach: 10 of 10 rounds exact

long work(long);
long inner(long);
long rare(long);
long rec(int, long);
long peek(long *);
__global long peeked;

@@uft:*:a.out:work:entry { @calls = count(); }
@@uft:*:a.out:work:exit { @rets = count(); }
@@uft:*:a.out:mix+3 { @mix = count(); }
@@uft:*:a.out:inner:entry
{
  if (within("outer")) {
    @in = count();
  } else {
    @out = count();
  }
}
@@uft:*:a.out:rec:exit { @rec = count(); }
// Every other pointer is unmapped: a fault in the clause.
@@uft:*:a.out:peek:entry { peeked = peeked + *__arg1; }
// Keys by a stack: a breakpoint, also in-process; and prints in the
// process (print.c waits for tsrun, which may die meanwhile).
@@uft:*:a.out:rare:entry { @rare[stktrace(1)] = count(); print(@rare); }
@@syscall:*:getppid:entry { @sys = count(); }
@@syscall:*:getppid:exit { @sysret = count(); }
