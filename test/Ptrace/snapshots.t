// In circular mode SIGHUP writes the ring, as it is, to a new numbered file
// next to -o FILE (FILE.1, FILE.2, ...), and tracing goes on; at the end FILE
// gets the ring as usual. Without -o the snapshots go to tsrun-snapshot.N in
// the current directory. Outside circular mode SIGHUP ends the session.
// RUN: %cc64 -O1 %S/Inputs/switcher.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: rm -rf %t.d && mkdir %t.d && touch %t.d/out.2
// RUN: %python %S/Inputs/switch-driver.py %t.fifo -- %tsrun %t.o \
// RUN:   --buffer-mode circular -o %t.d/out \
// RUN:   -- %t.exe %t.fifo parent w1-20 t1 w21-30 t1 w31-40 \
// RUN:   | FileCheck %s --check-prefix=EVENTS
// EVENTS: stderr: tsrun: snapshot: 21 records written to {{.*}}.d/out.1
// out.2 already existed: the next free number.
// EVENTS-NEXT: stderr: tsrun: snapshot: 32 records written to {{.*}}.d/out.3
// EVENTS-NEXT: tsrun status: 0
// RUN: FileCheck %s --check-prefix=SNAP1 --input-file %t.d/out.1
// SNAP1: work 1
// SNAP1: work 20
// SNAP1-NEXT: toggle 1
// SNAP1-NOT: work
// RUN: FileCheck %s --check-prefix=SNAP2 --input-file %t.d/out.3
// SNAP2: work 30
// SNAP2-NEXT: toggle 1
// SNAP2-NOT: work
// RUN: FileCheck %s --check-prefix=FINAL --input-file %t.d/out
// FINAL: work 40
// FINAL: @toggles: 2
//
// JSON: each snapshot is a complete JSON lines file; the main output has a
// "snapshot" event for each.
// RUN: %python %S/Inputs/switch-driver.py %t.fifo -- %tsrun %t.o \
// RUN:   --buffer-mode circular -f json -o %t.d/j \
// RUN:   -- %t.exe %t.fifo parent w1-20 t1 w21-30 > /dev/null
// RUN: FileCheck %s --check-prefix=JSNAP --input-file %t.d/j.1
// JSNAP: "schema":"tscc-run/1"
// JSNAP: "text":"work 20\n"
// JSNAP: {"type":"end"}
// RUN: FileCheck %s --check-prefix=JMAIN --input-file %t.d/j
// JMAIN: {"file":"{{.*}}.d/j.1","records":21,"time_ns":{{[0-9]+}},"type":"snapshot"}
//
// Binary snapshots are traces tsreport reads.
// RUN: %python %S/Inputs/switch-driver.py %t.fifo -- %tsrun %t.o \
// RUN:   --buffer-mode circular -f binary -o %t.d/b \
// RUN:   -- %t.exe %t.fifo parent w1-20 t1 w21-30 > /dev/null
// RUN: %tsreport %t.d/b.1 | FileCheck %s --check-prefix=SNAP1
// RUN: %tsreport %t.d/b 2>&1 | FileCheck %s --check-prefix=BMAIN
// BMAIN: tsrun: snapshot: 21 records written to {{.*}}.d/b.1
// BMAIN: work 30
//
// Without -o: tsrun-snapshot.1 in the current directory.
// RUN: cd %t.d && %python %S/Inputs/switch-driver.py %t.fifo -- %tsrun %t.o \
// RUN:   --buffer-mode circular -- %t.exe %t.fifo parent w1-20 t1 \
// RUN:   | FileCheck %s --check-prefix=NO-O
// NO-O: stderr: tsrun: snapshot: 21 records written to tsrun-snapshot.1
// RUN: FileCheck %s --check-prefix=SNAP1 --input-file %t.d/tsrun-snapshot.1
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -O1 %S/Inputs/switcher.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ rm -rf %t.i386/%basename_t.tmp.d && mkdir %t.i386/%basename_t.tmp.d && touch %t.i386/%basename_t.tmp.d/out.2 %}
// RUN: %if native-i386 %{ %python %S/Inputs/switch-driver.py %t.i386/%basename_t.tmp.fifo -- %tsrun %t.o --buffer-mode circular -o %t.i386/%basename_t.tmp.d/out -- %t.i386/%basename_t.tmp.exe %t.i386/%basename_t.tmp.fifo parent w1-20 t1 w21-30 t1 w31-40 | FileCheck %s --check-prefix=EVENTS %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=SNAP1 --input-file %t.i386/%basename_t.tmp.d/out.1 %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=SNAP2 --input-file %t.i386/%basename_t.tmp.d/out.3 %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=FINAL --input-file %t.i386/%basename_t.tmp.d/out %}
// RUN: %if native-i386 %{ %python %S/Inputs/switch-driver.py %t.i386/%basename_t.tmp.fifo -- %tsrun %t.o --buffer-mode circular -f json -o %t.i386/%basename_t.tmp.d/j -- %t.i386/%basename_t.tmp.exe %t.i386/%basename_t.tmp.fifo parent w1-20 t1 w21-30 > /dev/null %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=JSNAP --input-file %t.i386/%basename_t.tmp.d/j.1 %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=JMAIN --input-file %t.i386/%basename_t.tmp.d/j %}
// RUN: %if native-i386 %{ %python %S/Inputs/switch-driver.py %t.i386/%basename_t.tmp.fifo -- %tsrun %t.o --buffer-mode circular -f binary -o %t.i386/%basename_t.tmp.d/b -- %t.i386/%basename_t.tmp.exe %t.i386/%basename_t.tmp.fifo parent w1-20 t1 w21-30 > /dev/null %}
// RUN: %if native-i386 %{ %tsreport %t.i386/%basename_t.tmp.d/b.1 | FileCheck %s --check-prefix=SNAP1 %}
// RUN: %if native-i386 %{ %tsreport %t.i386/%basename_t.tmp.d/b 2>&1 | FileCheck %s --check-prefix=BMAIN %}
// RUN: %if native-i386 %{ cd %t.i386/%basename_t.tmp.d && %python %S/Inputs/switch-driver.py %t.i386/%basename_t.tmp.fifo -- %tsrun %t.o --buffer-mode circular -- %t.i386/%basename_t.tmp.exe %t.i386/%basename_t.tmp.fifo parent w1-20 t1 | FileCheck %s --check-prefix=NO-O %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=SNAP1 --input-file %t.i386/%basename_t.tmp.d/tsrun-snapshot.1 %}

long work(long);
long toggle(long);

@@uft:*:a.out:work:entry { printf("work %ld\n", __arg1); }
@@uft:*:a.out:toggle:entry { printf("toggle %ld\n", __arg1); @toggles = count(); }
