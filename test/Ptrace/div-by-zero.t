// An integer division or remainder by zero yields 0 and counts a fault of
// the clause, in the process (in-process agent) and in tsrun (--ptrace)
// alike; the session says at the end which clause divided by zero.
// RUN: %cc64 -shared -fPIC %S/Inputs/aliases-lib.c -o %t.lib.so
// RUN: %cc64 %S/Inputs/aliases.c -o %t.exe %t.lib.so -Wl,-rpath,%T
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 6 > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -shared -fPIC %S/Inputs/aliases-lib.c -o %t.i386/%basename_t.tmp.lib.so %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/aliases.c -o %t.i386/%basename_t.tmp.exe %t.i386/%basename_t.tmp.lib.so -Wl,-rpath,%T %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe 6 > %t.i386/%basename_t.tmp.out 2> %t.i386/%basename_t.tmp.err %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=OUT < %t.i386/%basename_t.tmp.out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=ERR < %t.i386/%basename_t.tmp.err %}
// OUT: calls=6
// OUT: q=300 r=0 calls=6 ok=6
// ERR: tsrun: warning: clause 0 (line [[@LINE+9]]) divided by zero; the result was 0 each time (counted as a fault)
// ERR-NOT: clause 1 (line
// ERR: tsrun: clause 0 (line [[@LINE+7]]): fired 6, 6 faults, 0 drops
// ERR-NOT: clause 1

__global long q, r, calls, ok;

// __arg1 is 0..5: the divisor is 0 three times (a division and a remainder
// each), 1 the other three. INT_MIN / -1 wraps and is not a fault.
@@uft:*:*:work:entry { q += 100 / (__arg1 & 1); r += 7 % (__arg1 & 1); calls++; }
@@uft:*:*:work:exit { long m = -9223372036854775807L - 1; ok += (m / (__rv - __rv - 1)) == m; }
@@END { printf("q=%ld r=%ld calls=%ld ok=%ld\n", q, r, calls, ok); }
