// --buffer-mode, in every output format: the program calls work(1) ..
// work(2000), about 130 KiB of records, into a 16 KiB buffer.
//  - continuous: all of them;
//  - circular: the newest, written at the end, with a warning saying how
//    many older ones were overwritten (2000 minus those kept);
//  - single: the oldest; collection stops when the buffer is full, and a
//    warning says how many records were not recorded (those in flight then;
//    later calls ran no clause at all).
// RUN: %cc64 -O1 %S/Inputs/switcher.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -o %t.cont -- %t.exe /dev/null 0 w1-2000
// RUN: %python %S/Inputs/check-records.py continuous 2000 < %t.cont
//
// RUN: %tsrun %t.o --buffer-mode circular --buffer-size 16K -o %t.circ \
// RUN:   -- %t.exe /dev/null 0 w1-2000 2> %t.circ.err
// RUN: %python %S/Inputs/check-records.py circular 2000 < %t.circ > %t.circ.kept
// RUN: FileCheck %s --check-prefix=CIRC --input-file %t.circ.kept
// RUN: cat %t.circ.kept %t.circ.err | FileCheck %s --check-prefix=OVERWRITTEN
// A record is 64 bytes (40 of origin, 16 of header, 8 of argument).
// CIRC: circular: kept 256 of 2000: work(1745) .. work(2000)
// OVERWRITTEN: not kept: [[N:[0-9]+]]
// OVERWRITTEN: tsrun: warning: circular buffer: [[N]] older records were overwritten
// --ring is the same.
// RUN: %tsrun %t.o --ring --buffer-size 16K -o %t.ring \
// RUN:   -- %t.exe /dev/null 0 w1-2000 2> /dev/null
// RUN: diff %t.circ %t.ring
//
// RUN: %tsrun %t.o --buffer-mode single --buffer-size 16K -o %t.single \
// RUN:   -- %t.exe /dev/null 0 w1-2000 2> %t.single.err
// RUN: %python %S/Inputs/check-records.py single 2000 < %t.single \
// RUN:   | FileCheck %s --check-prefix=SINGLE
// RUN: FileCheck %s --check-prefix=SINGLE-ERR --input-file %t.single.err
// SINGLE: single: kept 256 of 2000: work(1) .. work(256)
// SINGLE-ERR: tsrun: collection stopped (single buffer full)
// SINGLE-ERR: tsrun: warning: single buffer full after 256 records (16384 bytes): collection was stopped; {{[0-9]+}} later {{records were|record was}} not recorded
//
// JSON and binary keep the same records: sizes are counted the same way.
// RUN: %tsrun %t.o -f json --buffer-mode circular --buffer-size 16K \
// RUN:   -o %t.circ.json -- %t.exe /dev/null 0 w1-2000 2> /dev/null
// RUN: %python %S/Inputs/record-text.py %t.circ.json | diff %t.circ -
// RUN: FileCheck %s --check-prefix=JSON-WARN --input-file %t.circ.json
// JSON-WARN: {"message":"circular buffer: 1744 older records were overwritten","type":"warning"}
// RUN: %tsrun %t.o -f binary --buffer-mode circular --buffer-size 16K \
// RUN:   -o %t.circ.bin -- %t.exe /dev/null 0 w1-2000 2> /dev/null
// RUN: %tsreport %t.circ.bin 2> %t.circ.bin.err | diff %t.circ -
// RUN: FileCheck %s --check-prefix=OVERWRITTEN-BIN --input-file %t.circ.bin.err
// OVERWRITTEN-BIN: tsrun: warning: circular buffer: {{[0-9]+}} older records were overwritten
// RUN: %tsrun %t.o -f json --buffer-mode single --buffer-size 16K \
// RUN:   -o %t.single.json -- %t.exe /dev/null 0 w1-2000 2> /dev/null
// RUN: %python %S/Inputs/record-text.py %t.single.json \
// RUN:   | %python %S/Inputs/check-records.py single 2000 \
// RUN:   | FileCheck %s --check-prefix=SINGLE
// RUN: FileCheck %s --check-prefix=JSON-FULL --input-file %t.single.json
// JSON-FULL: {"state":"off","time_ns":{{[0-9]+}},"type":"collection","why":"single buffer full"}
// RUN: %tsrun %t.o -f binary --buffer-mode single --buffer-size 16K \
// RUN:   -o %t.single.bin -- %t.exe /dev/null 0 w1-2000 2> /dev/null
// RUN: %tsreport %t.single.bin 2> %t.single.bin.err \
// RUN:   | %python %S/Inputs/check-records.py single 2000 \
// RUN:   | FileCheck %s --check-prefix=SINGLE
// RUN: FileCheck %s --check-prefix=SINGLE-ERR --input-file %t.single.bin.err
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -O1 %S/Inputs/switcher.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun %t.o -o %t.i386/%basename_t.tmp.cont -- %t.i386/%basename_t.tmp.exe /dev/null 0 w1-2000 %}
// RUN: %if native-i386 %{ %python %S/Inputs/check-records.py continuous 2000 < %t.i386/%basename_t.tmp.cont %}
// RUN: %if native-i386 %{ %tsrun %t.o --buffer-mode circular --buffer-size 16K -o %t.i386/%basename_t.tmp.circ -- %t.i386/%basename_t.tmp.exe /dev/null 0 w1-2000 2> %t.i386/%basename_t.tmp.circ.err %}
// RUN: %if native-i386 %{ %python %S/Inputs/check-records.py circular 2000 < %t.i386/%basename_t.tmp.circ > %t.i386/%basename_t.tmp.circ.kept %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=CIRC --input-file %t.i386/%basename_t.tmp.circ.kept %}
// RUN: %if native-i386 %{ cat %t.i386/%basename_t.tmp.circ.kept %t.i386/%basename_t.tmp.circ.err | FileCheck %s --check-prefix=OVERWRITTEN %}
// RUN: %if native-i386 %{ %tsrun %t.o --ring --buffer-size 16K -o %t.i386/%basename_t.tmp.ring -- %t.i386/%basename_t.tmp.exe /dev/null 0 w1-2000 2> /dev/null %}
// RUN: %if native-i386 %{ diff %t.i386/%basename_t.tmp.circ %t.i386/%basename_t.tmp.ring %}
// RUN: %if native-i386 %{ %tsrun %t.o --buffer-mode single --buffer-size 16K -o %t.i386/%basename_t.tmp.single -- %t.i386/%basename_t.tmp.exe /dev/null 0 w1-2000 2> %t.i386/%basename_t.tmp.single.err %}
// RUN: %if native-i386 %{ %python %S/Inputs/check-records.py single 2000 < %t.i386/%basename_t.tmp.single | FileCheck %s --check-prefix=SINGLE %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=SINGLE-ERR --input-file %t.i386/%basename_t.tmp.single.err %}
// RUN: %if native-i386 %{ %tsrun %t.o -f json --buffer-mode circular --buffer-size 16K -o %t.i386/%basename_t.tmp.circ.json -- %t.i386/%basename_t.tmp.exe /dev/null 0 w1-2000 2> /dev/null %}
// RUN: %if native-i386 %{ %python %S/Inputs/record-text.py %t.i386/%basename_t.tmp.circ.json | diff %t.i386/%basename_t.tmp.circ - %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=JSON-WARN --input-file %t.i386/%basename_t.tmp.circ.json %}
// RUN: %if native-i386 %{ %tsrun %t.o -f binary --buffer-mode circular --buffer-size 16K -o %t.i386/%basename_t.tmp.circ.bin -- %t.i386/%basename_t.tmp.exe /dev/null 0 w1-2000 2> /dev/null %}
// RUN: %if native-i386 %{ %tsreport %t.i386/%basename_t.tmp.circ.bin 2> %t.i386/%basename_t.tmp.circ.bin.err | diff %t.i386/%basename_t.tmp.circ - %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=OVERWRITTEN-BIN --input-file %t.i386/%basename_t.tmp.circ.bin.err %}
// RUN: %if native-i386 %{ %tsrun %t.o -f json --buffer-mode single --buffer-size 16K -o %t.i386/%basename_t.tmp.single.json -- %t.i386/%basename_t.tmp.exe /dev/null 0 w1-2000 2> /dev/null %}
// RUN: %if native-i386 %{ %python %S/Inputs/record-text.py %t.i386/%basename_t.tmp.single.json | %python %S/Inputs/check-records.py single 2000 | FileCheck %s --check-prefix=SINGLE %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=JSON-FULL --input-file %t.i386/%basename_t.tmp.single.json %}
// RUN: %if native-i386 %{ %tsrun %t.o -f binary --buffer-mode single --buffer-size 16K -o %t.i386/%basename_t.tmp.single.bin -- %t.i386/%basename_t.tmp.exe /dev/null 0 w1-2000 2> /dev/null %}
// RUN: %if native-i386 %{ %tsreport %t.i386/%basename_t.tmp.single.bin 2> %t.i386/%basename_t.tmp.single.bin.err | %python %S/Inputs/check-records.py single 2000 | FileCheck %s --check-prefix=SINGLE %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=SINGLE-ERR --input-file %t.i386/%basename_t.tmp.single.bin.err %}

long work(long);

@@uft:*:a.out:work:entry { printf("work %ld\n", __arg1); }
