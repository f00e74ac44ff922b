// tsrun --keep-launched -- PROG, then Ctrl-C at a random moment: PROG
// lives on exactly as if it had never been traced (detach-stress.t says
// how that is checked). No system-call probe: a command launched with
// tsrun's seccomp filter is always killed at the end.
// RUN: %cc64 -O1 -fcf-protection=none -pthread %S/Inputs/detach-target.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/detach-driver.py launch %tsrun %t.o %t.exe --rounds 4 | FileCheck %s
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -O1 -fcf-protection=none -pthread %S/Inputs/detach-target.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/detach-driver.py launch %tsrun %t.o %t.i386/%basename_t.tmp.exe --rounds 4 | FileCheck %s %}
// CHECK: launch: 4 of 4 rounds exact

long work(long);
long inner(long);
long rec(int, long);

@@uft:*:a.out:work:entry { @calls = count(); }
@@uft:*:a.out:work:exit { @rets = count(); }
@@uft:*:a.out:mix+3 { @mix = count(); }
@@uft:*:a.out:inner:entry { if (within("outer")) { @in = count(); } }
@@uft:*:a.out:rec:exit { @rec = count(); }
