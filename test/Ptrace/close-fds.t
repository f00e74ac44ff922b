// A program that closes every descriptor it did not open (a daemon's start)
// also closes the one the agent keeps to map its threads' record buffers
// as they first write. Its threads' records still all arrive: the agent
// then maps a buffer from the shard's own mapping (mremap of a shared
// mapping with an old size of 0). Before, every record of those threads
// was a drop, with a warning ("could not map a thread's record buffer").
// tsrun says nothing now.
// REQUIRES: inprocess
// RUN: %cc64 -O1 -pthread %S/Inputs/close-fds.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -o %t.out -- %t.exe > %t.prog 2> %t.err
// RUN: FileCheck %s --check-prefix=PROG < %t.prog
// RUN: test ! -s %t.err
// RUN: grep -c '^w ' %t.out | FileCheck %s --check-prefix=RECORDS
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ %cc32 -O1 -pthread %S/Inputs/close-fds.c -o %t.exe32 %}
// RUN: %if native-i386 %{ %tsrun %t.o -o %t.out32 -- %t.exe32 > %t.prog32 2> %t.err32 %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=PROG < %t.prog32 %}
// RUN: %if native-i386 %{ test ! -s %t.err32 %}
// RUN: %if native-i386 %{ grep -c '^w ' %t.out32 | FileCheck %s --check-prefix=RECORDS %}
// PROG: calls 800
// RECORDS: 800

long work(long);
@@uft:*:a.out:work:entry { printf("w %ld\n", __arg1); }
