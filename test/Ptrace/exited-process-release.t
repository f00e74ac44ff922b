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
// The same in JSON, where every record names its process.
// RUN: %tsrun %t.o -f json -- %t.exe 100 > %t.json
// RUN: grep -c '"type":"printf"' %t.json | FileCheck %s --check-prefix=RECORDS
// RUN: FileCheck %s --check-prefix=JSON --input-file %t.json
// JSON: "message":"401 traced processes exited; bookkeeping still held for 0 of them
// JSON-NOT: "type":"warning"
// JSON: {"type":"end"}
int work(int id);
@@uft:*:a.out:work:entry
{
  printf("child %d in %s pid %d\n", __arg1, __pname, __pid);
  stktrace();
}
