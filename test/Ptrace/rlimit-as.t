// A program that lowers its RLIMIT_AS to 6 MiB (enough for it alone), then
// forks and execs itself. In the new image the agent's first mappings fit
// and the store's does not: the agent is not set up, and the process runs
// on the ptrace path, counted exactly. tsrun used to leave what it had
// mapped there, and the program's dynamic loader could not map libc
// ("error while loading shared libraries", status 127): it now unmaps it
// (and puts back the handlers, where they went in).
// Known, not covered: a limit at which the agent fits whole but leaves the
// program too little (docs/runtime.md, *Which processes*).
// RUN: %cc64 -O1 %S/Inputs/rlimit-as.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %t.exe 6 | FileCheck %s --check-prefix=ALONE
// RUN: %tsrun %t.o -- %t.exe 6 | FileCheck %s
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ %cc32 -O1 %S/Inputs/rlimit-as.c -o %t32 %}
// RUN: %if native-i386 %{ %t32 6 | FileCheck %s --check-prefix=ALONE %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t32 6 | FileCheck %s %}
// ALONE: parent sum 9900
// ALONE: child sum 999000
// ALONE: child status 0
// CHECK: parent sum 9900
// CHECK: child sum 999000
// CHECK: child status 0
// CHECK: @calls: 1100

long probed(long);
@@uft:*:a.out:probed:entry { @calls = count(); }
