// exit() in a clause, at a random hit: tsrun ends the session itself and
// detaches from the hot program it was attached to, which must not notice
// (detach-stress.t says how that is checked).
// RUN: %cc64 -O1 -fcf-protection=none -pthread %S/Inputs/detach-target.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/detach-driver.py exit %tsrun %t.o %t.exe --rounds 4 --max-hits 5000 | FileCheck %s
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -O1 -fcf-protection=none -pthread %S/Inputs/detach-target.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/detach-driver.py exit %tsrun %t.o %t.i386/%basename_t.tmp.exe --rounds 4 --max-hits 5000 | FileCheck %s %}
// CHECK: exit: 4 of 4 rounds exact

long work(long);
__global long n;

@@uft:*:a.out:work:entry
{
  n++;
  if (n == $1)
    exit();
}
@@uft:*:a.out:work:exit { @rets = count(); }
@@uft:*:a.out:inner:entry { if (within("outer")) { @in = count(); } }
@@syscall:*:getppid:entry { @sys = count(); }
