// A burst of 1,000,000 records at the default settings loses none of them,
// checked record by record (every number present, in order, no marker),
// in text, JSON and the binary trace read back by tsreport, from a 64-bit
// and a 32-bit process. A printf of one argument takes 64 bytes of a
// thread's buffer: the thread's own 1M buffer fills within the first
// 16,000 records when tsrun's reader is slow to run, and the thread goes
// on in one of its process's burst buffers (64M, --burst-buffers), which
// holds the whole burst even if the reader does not run at all while it
// lasts. Before burst buffers, the default kept about 20% of it. In
// --ptrace mode every hit stops the program, so a shorter burst says the
// same.
// RUN: %cc64 %S/Inputs/burst.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -o %t.txt -- %t.exe %if inprocess %{1000000%} %else %{20000%} > %t.prog 2> %t.err
// RUN: %python %S/Inputs/check-lost.py %if inprocess %{1000000%} %else %{20000%} text %t.txt | FileCheck --check-prefix=EXACT %s
// RUN: FileCheck --check-prefix=QUIET --allow-empty %s < %t.err
// RUN: %tsrun %t.o -f json -o %t.json -- %t.exe %if inprocess %{1000000%} %else %{20000%} > %t.prog 2> %t.err
// RUN: %python %S/Inputs/check-lost.py %if inprocess %{1000000%} %else %{20000%} json %t.json | FileCheck --check-prefix=EXACT %s
// RUN: FileCheck --check-prefix=QUIET --allow-empty %s < %t.err
// RUN: %tsrun %t.o -f binary -o %t.bin -- %t.exe %if inprocess %{1000000%} %else %{20000%} > %t.prog 2> %t.err
// RUN: FileCheck --check-prefix=QUIET --allow-empty %s < %t.err
// RUN: %tsreport %t.bin > %t.report
// RUN: %python %S/Inputs/check-lost.py %if inprocess %{1000000%} %else %{20000%} text %t.report | FileCheck --check-prefix=EXACT %s
// RUN: %if native-i386 %{ %cc32 %S/Inputs/burst.c -o %t.exe32 %}
// RUN: %if native-i386 %{ %tsrun %t.o -o %t.txt32 -- %t.exe32 %if inprocess %{1000000%} %else %{20000%} > %t.prog 2> %t.err %}
// RUN: %if native-i386 %{ FileCheck --check-prefix=QUIET --allow-empty %s < %t.err %}
// RUN: %if native-i386 %{ %python %S/Inputs/check-lost.py %if inprocess %{1000000%} %else %{20000%} text %t.txt32 | FileCheck --check-prefix=EXACT %s %}
// RUN: %if native-i386 %{ %tsrun %t.o -f binary -o %t.bin32 -- %t.exe32 %if inprocess %{1000000%} %else %{20000%} > %t.prog 2> %t.err %}
// RUN: %if native-i386 %{ FileCheck --check-prefix=QUIET --allow-empty %s < %t.err %}
// RUN: %if native-i386 %{ %tsreport %t.bin32 > %t.report32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/check-lost.py %if inprocess %{1000000%} %else %{20000%} text %t.report32 | FileCheck --check-prefix=EXACT %s %}
// EXACT: exact: {{1000000|20000}} records, none lost in no markers
// QUIET-NOT: lost
// QUIET-NOT: drops

long hit(long);
@@uft:*:a.out:hit:entry { printf("hit %ld\n", __arg1); }
