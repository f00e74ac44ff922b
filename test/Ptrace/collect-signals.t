// SIGUSR1 stops collection and SIGUSR2 starts it again (trcoff/trcon): the
// program, a child of tsrun, signals its parent from toggle() and waits there
// until the driver has read tsrun's announcement of the switch. Records of
// the calls made while collection was off are absent, every other one is
// there. toggle(10)'s exit happens after collection stopped, so it is not
// collected; toggle(12)'s entry happened while it was off, so its exit is
// not collected either (no half calls). Text, JSON and binary alike.
// RUN: %cc64 -O1 %S/Inputs/switcher.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/switch-driver.py %t.fifo -- %tsrun %t.o -o %t.txt \
// RUN:   -- %t.exe %t.fifo parent w1-10 t10 w11-20 t12 w21-30 \
// RUN:   | FileCheck %s --check-prefix=EVENTS
// EVENTS: stderr: tsrun: collection stopped (SIGUSR1)
// EVENTS-NEXT: stderr: tsrun: collection started (SIGUSR2)
// EVENTS-NEXT: tsrun status: 0
// RUN: diff %S/Inputs/switched.txt %t.txt
//
// RUN: %python %S/Inputs/switch-driver.py %t.fifo -- %tsrun %t.o -f json \
// RUN:   -o %t.json -- %t.exe %t.fifo parent w1-10 t10 w11-20 t12 w21-30 \
// RUN:   | FileCheck %s --check-prefix=EVENTS
// RUN: %python %S/Inputs/record-text.py %t.json > %t.json.txt
// RUN: grep -v '^event' %t.json.txt | diff %S/Inputs/switched.txt -
// RUN: FileCheck %s --check-prefix=JSON --input-file %t.json.txt
// JSON: toggle 10
// JSON-NEXT: event: {"state": "off", "time_ns": {{[0-9]+}}, "type": "collection", "why": "SIGUSR1"}
// JSON-NEXT: event: {"state": "on", "time_ns": {{[0-9]+}}, "type": "collection", "why": "SIGUSR2"}
// JSON-NEXT: work 21
//
// RUN: %python %S/Inputs/switch-driver.py %t.fifo -- %tsrun %t.o -f binary \
// RUN:   -o %t.bin -- %t.exe %t.fifo parent w1-10 t10 w11-20 t12 w21-30 \
// RUN:   | FileCheck %s --check-prefix=EVENTS
// RUN: %tsreport %t.bin > %t.bin.txt 2> %t.bin.err
// RUN: diff %S/Inputs/switched.txt %t.bin.txt
// RUN: FileCheck %s --check-prefix=BINERR --input-file %t.bin.err
// BINERR: tsrun: collection stopped (SIGUSR1)
// BINERR-NEXT: tsrun: collection started (SIGUSR2)
// Perfetto marks the switches with global instant events; CTF leaves them out
// and babeltrace2 reads the trace as usual.
// RUN: %tsreport %t.bin --to perfetto %t.pf.json
// RUN: FileCheck %s --check-prefix=PERFETTO --input-file %t.pf.json
// PERFETTO: {"args":{"why":"SIGUSR1"},"name":"collection stopped (SIGUSR1)","ph":"i","pid":{{[0-9]+}},"s":"g","tid":{{[0-9]+}},"ts":{{[0-9.e+]+}}}
// PERFETTO-NEXT: {"args":{"why":"SIGUSR2"},"name":"collection started (SIGUSR2)","ph":"i","pid":{{[0-9]+}},"s":"g","tid":{{[0-9]+}},"ts":{{[0-9.e+]+}}}
// RUN: rm -rf %t.ctf && %tsreport %t.bin --to ctf %t.ctf
// RUN: babeltrace2 %t.ctf | grep -c 'printf_' | FileCheck %s --check-prefix=CTF
// CTF: 21
//
// --collect=off starts stopped: nothing until SIGUSR2 (toggle(12)'s entry
// included), then everything until SIGUSR1.
// RUN: %python %S/Inputs/switch-driver.py %t.fifo -- %tsrun %t.o \
// RUN:   --collect=off -o %t.off.txt \
// RUN:   -- %t.exe %t.fifo parent w1-10 t12 w11-20 t10 w21-30 \
// RUN:   | FileCheck %s --check-prefix=OFF
// OFF: stderr: tsrun: collection stopped (--collect=off)
// OFF-NEXT: stderr: tsrun: collection started (SIGUSR2)
// OFF-NEXT: stderr: tsrun: collection stopped (SIGUSR1)
// OFF-NEXT: tsrun status: 0
// RUN: diff %S/Inputs/switched-off.txt %t.off.txt
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -O1 %S/Inputs/switcher.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/switch-driver.py %t.i386/%basename_t.tmp.fifo -- %tsrun %t.o -o %t.i386/%basename_t.tmp.txt -- %t.i386/%basename_t.tmp.exe %t.i386/%basename_t.tmp.fifo parent w1-10 t10 w11-20 t12 w21-30 | FileCheck %s --check-prefix=EVENTS %}
// RUN: %if native-i386 %{ diff %S/Inputs/switched.txt %t.i386/%basename_t.tmp.txt %}
// RUN: %if native-i386 %{ %python %S/Inputs/switch-driver.py %t.i386/%basename_t.tmp.fifo -- %tsrun %t.o -f json -o %t.i386/%basename_t.tmp.json -- %t.i386/%basename_t.tmp.exe %t.i386/%basename_t.tmp.fifo parent w1-10 t10 w11-20 t12 w21-30 | FileCheck %s --check-prefix=EVENTS %}
// RUN: %if native-i386 %{ %python %S/Inputs/record-text.py %t.i386/%basename_t.tmp.json > %t.i386/%basename_t.tmp.json.txt %}
// RUN: %if native-i386 %{ grep -v '^event' %t.i386/%basename_t.tmp.json.txt | diff %S/Inputs/switched.txt - %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=JSON --input-file %t.i386/%basename_t.tmp.json.txt %}
// RUN: %if native-i386 %{ %python %S/Inputs/switch-driver.py %t.i386/%basename_t.tmp.fifo -- %tsrun %t.o -f binary -o %t.i386/%basename_t.tmp.bin -- %t.i386/%basename_t.tmp.exe %t.i386/%basename_t.tmp.fifo parent w1-10 t10 w11-20 t12 w21-30 | FileCheck %s --check-prefix=EVENTS %}
// RUN: %if native-i386 %{ %tsreport %t.i386/%basename_t.tmp.bin > %t.i386/%basename_t.tmp.bin.txt 2> %t.i386/%basename_t.tmp.bin.err %}
// RUN: %if native-i386 %{ diff %S/Inputs/switched.txt %t.i386/%basename_t.tmp.bin.txt %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=BINERR --input-file %t.i386/%basename_t.tmp.bin.err %}
// RUN: %if native-i386 %{ %tsreport %t.i386/%basename_t.tmp.bin --to perfetto %t.i386/%basename_t.tmp.pf.json %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=PERFETTO --input-file %t.i386/%basename_t.tmp.pf.json %}
// RUN: %if native-i386 %{ rm -rf %t.i386/%basename_t.tmp.ctf && %tsreport %t.i386/%basename_t.tmp.bin --to ctf %t.i386/%basename_t.tmp.ctf %}
// RUN: %if native-i386 %{ babeltrace2 %t.i386/%basename_t.tmp.ctf | grep -c 'printf_' | FileCheck %s --check-prefix=CTF %}
// RUN: %if native-i386 %{ %python %S/Inputs/switch-driver.py %t.i386/%basename_t.tmp.fifo -- %tsrun %t.o --collect=off -o %t.i386/%basename_t.tmp.off.txt -- %t.i386/%basename_t.tmp.exe %t.i386/%basename_t.tmp.fifo parent w1-10 t12 w11-20 t10 w21-30 | FileCheck %s --check-prefix=OFF %}
// RUN: %if native-i386 %{ diff %S/Inputs/switched-off.txt %t.i386/%basename_t.tmp.off.txt %}

long work(long);
long toggle(long);

@@uft:*:a.out:work:entry { printf("work %ld\n", __arg1); }
@@uft:*:a.out:toggle:entry { printf("toggle %ld\n", __arg1); }
@@uft:*:a.out:toggle:exit { printf("toggled %ld\n", __rv); }
