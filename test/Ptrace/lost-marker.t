// Records lost to a full thread buffer (the smallest, 64K, no burst
// buffers to go on in, and a burst of 200,000 records): a loss marker
// sits exactly where records are missing,
// with how many, in text, JSON, the binary trace read back by tsreport
// and its Perfetto export; the warning is on stderr in every format, and
// the clause's `lost` counter (the text counters line, JSON clause_stats,
// the binary trace's counters) and the warning's total say as many as the
// markers. In
// --ptrace mode every hit stops the program, so the reader keeps up and
// nothing may be lost: the records are then all there, in order.
// RUN: %cc64 %S/Inputs/burst.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o --thread-buffer 64K --burst-buffers 0 -o %t.txt -- %t.exe 200000 > %t.prog 2> %t.err
// RUN: FileCheck --check-prefix=PROG %s < %t.prog
// RUN: %python %S/Inputs/check-lost.py 200000 text %t.txt %if inprocess %{--need-loss%} --counters %t.err | FileCheck --check-prefixes=EXACT,COUNTERS %s
// RUN: %if inprocess %{ FileCheck --check-prefix=WARN %s < %t.err %}
// RUN: %tsrun %t.o --thread-buffer 64K --burst-buffers 0 -f json -o %t.json -- %t.exe 200000 > %t.prog 2> %t.err
// RUN: %python %S/Inputs/check-lost.py 200000 json %t.json %if inprocess %{--need-loss%} --counters %t.json | FileCheck --check-prefixes=EXACT,COUNTERS %s
// RUN: %if inprocess %{ FileCheck --check-prefix=WARN %s < %t.err %}
// RUN: %tsrun %t.o --thread-buffer 64K --burst-buffers 0 -f binary -o %t.bin -- %t.exe 200000 > %t.prog 2> %t.err
// RUN: %if inprocess %{ FileCheck --check-prefix=WARN %s < %t.err %}
// RUN: %tsreport %t.bin > %t.report 2> %t.report.err
// RUN: %python %S/Inputs/check-lost.py 200000 text %t.report %if inprocess %{--need-loss%} --counters %t.report.err | FileCheck --check-prefixes=EXACT,COUNTERS %s
// RUN: %tsreport %t.bin -f json > %t.report.json
// RUN: %python %S/Inputs/check-lost.py 200000 json %t.report.json %if inprocess %{--need-loss%} --counters %t.report.json | FileCheck --check-prefixes=EXACT,COUNTERS %s
// RUN: %tsreport %t.bin --to perfetto %t.perfetto.json
// RUN: %if inprocess %{ FileCheck --check-prefix=PERFETTO %s < %t.perfetto.json %}
// PROG: burst: 200000 calls
// EXACT: exact: 200000 records
// COUNTERS: counters: lost agree
// No warning but the loss (records are numbered per thread: nothing about
// sequence numbers to warn of).
// WARN-NOT: set back
// WARN: tsrun: warning: {{[0-9]+}} records lost in all: a thread's record buffer was full (the reader fell behind); dropping: clause 0 (line {{[0-9]+}}); a larger --thread-buffer (now 64K) gives each thread more room
// WARN-NOT: set back
// PERFETTO: "name":"lost {{[0-9]+}} records"

long hit(long);
@@uft:*:a.out:hit:entry { printf("hit %ld\n", __arg1); }
