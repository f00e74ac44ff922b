// A long session frees what it kept of each process that exited once the
// session is done with it: every record the process made has been output,
// stacks symbolised. tsrun kept each forked child's bookkeeping (its
// modules, its Target, the session's entry for it) until the end, ~1.4 KB
// per exited process without bound; -v now says how many are still held
// (401 of 401 before this was fixed).
//
// Each child makes a record and a stack trace right before it exits, and
// both must come out whole: its records are delivered, and its stack is
// symbolised with its modules, before any of it is freed.
// RUN: %cc64 -g %S/Inputs/fork-many.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -v -- %t.exe 100 > %t.out 2> %t.err
// RUN: grep -c '^child [0-9]* in exited-process-release' %t.out | FileCheck %s --check-prefix=RECORDS
// RUN: grep -c '^ *work+0x0 (exited-process-release' %t.out | FileCheck %s --check-prefix=RECORDS
// RUN: grep -c '^ *main+0x[0-9a-f]* (exited-process-release' %t.out | FileCheck %s --check-prefix=RECORDS
// RECORDS: 400
// RUN: FileCheck %s --input-file %t.err
// A bound that load cannot break: a child is held until the session has
// drained its records, which normally happens as it exits.
// CHECK: tsrun: 401 traced processes exited; bookkeeping still held for 0 of them (at most {{[0-9][0-9]?}} at once)
// CHECK-NOT: malformed record
//
// The same in JSON, where every record names its process (written with
// -o: on stdout, the program's own lines would cut records in two).
// RUN: %tsrun %t.o -f json -o %t.json -- %t.exe 100 > /dev/null
// RUN: grep -c '"type":"printf"' %t.json | FileCheck %s --check-prefix=RECORDS
// RUN: FileCheck %s --check-prefix=JSON --input-file %t.json
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -g %S/Inputs/fork-many.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun %t.o -v -- %t.i386/%basename_t.tmp.exe 100 > %t.i386/%basename_t.tmp.out 2> %t.i386/%basename_t.tmp.err %}
// RUN: %if native-i386 %{ grep -c '^child [0-9]* in exited-process-release' %t.i386/%basename_t.tmp.out | FileCheck %s --check-prefix=RECORDS %}
// RUN: %if native-i386 %{ grep -c '^ *work+0x0 (exited-process-release' %t.i386/%basename_t.tmp.out | FileCheck %s --check-prefix=RECORDS %}
// RUN: %if native-i386 %{ grep -c '^ *main+0x[0-9a-f]* (exited-process-release' %t.i386/%basename_t.tmp.out | FileCheck %s --check-prefix=RECORDS %}
// RUN: %if native-i386 %{ FileCheck %s --input-file %t.i386/%basename_t.tmp.err %}
// RUN: %if native-i386 %{ %tsrun %t.o -f json -o %t.i386/%basename_t.tmp.json -- %t.i386/%basename_t.tmp.exe 100 > /dev/null %}
// RUN: %if native-i386 %{ grep -c '"type":"printf"' %t.i386/%basename_t.tmp.json | FileCheck %s --check-prefix=RECORDS %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=JSON --input-file %t.i386/%basename_t.tmp.json %}
// JSON: "message":"401 traced processes exited; bookkeeping still held for 0 of them
// JSON-NOT: "type":"warning"
// JSON: {"type":"end"}
int work(int id);
@@uft:*:a.out:work:entry
{
  printf("child %d in %s pid %d\n", __arg1, __pname, __pid);
  stktrace();
}
