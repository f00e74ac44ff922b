// The words that steer the session are out of a traced program's reach.
// One that keeps setting the store's old record sequence word back to 0
// (records are numbered per thread now: it steers nothing), writing an
// exit request into its own shard (the script has no exit()), stopping its
// own clauses and waking tsrun does not end the session, nor cost the
// program traced beside it a single hit; the forged request is reported
// once. One that tries to make the
// control page writable (collection off, session stopping, the reader's
// lifeline), with mprotect() or through /proc/self/mem, cannot. Both used
// to be fields of the store every program could write: one write switched
// collection off, ended the session, or made every agent heal itself.
// REQUIRES: inprocess
// RUN: %cc64 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/hostile-driver.py %tsrun %t.o %t.exe header 20000 | FileCheck %s --check-prefix=HEADER
// The 32-bit twin (both programs -m32), where the kernel runs i386:
// RUN: %if native-i386 %{ %cc32 -O1 -pthread -I %utils/../runtime/include %S/Inputs/hostile.c -o %t32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/hostile-driver.py %tsrun %t.o %t32 header 20000 | FileCheck %s --check-prefix=HEADER %}
// HEADER: tsrun status: 0
// HEADER-NEXT: tsrun memory: bounded
// HEADER-NEXT: steady: exact
// HEADER-NEXT: hostile: hostile header done
// HEADER-DAG: warning x 1: tsrun: warning: a traced program asked to end the session, but no clause calls exit(); ignored
// HEADER-NOT: set back
// RUN: %python %S/Inputs/hostile-driver.py %tsrun %t.o %t.exe control 1000 | FileCheck %s --check-prefix=CONTROL
// RUN: %if native-i386 %{ %python %S/Inputs/hostile-driver.py %tsrun %t.o %t32 control 1000 | FileCheck %s --check-prefix=CONTROL %}
// CONTROL: tsrun status: 0
// CONTROL-NEXT: tsrun memory: bounded
// CONTROL-NEXT: steady: exact
// CONTROL-NEXT: hostile: hostile control done

long work(long);
long poke(long, long);

@@uft:*:a.out:work:entry { @work = count(); }
@@uft:*:a.out:poke:entry { printf("poke %ld\n", __arg2); }
