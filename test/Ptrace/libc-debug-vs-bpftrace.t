// With libc's debug file installed (libc6-dbg), tsrun knows libc's static
// functions as bpftrace does: every function bpftrace lists, tsrun lists
// too, and a probe on a static one (ydhms_diff, under mktime) fires, named
// in __func and in stacks.
// REQUIRES: compiler, bpftrace, root, libc-debug-file
// No 32-bit twin: its oracle is libc's debug file, and Debian has none for
// the 32-bit libc (/lib32/libc.so.6 of libc6-i386: libc6-dbg holds the
// 64-bit libc's only, and there is no i386 dbgsym package); ELF32 debug
// files found by debuglink and build-id are covered by debug-symbols.t.
// RUN: %tscc %s -o %t.o
// RUN: %tsrun -l 'uft:*:libc.so.6:*' /bin/true | cut -f1 \
// RUN:   | sed -e 's/^@@uft:[*]:libc.so.6://' -e 's/:entry$//' | sort -u > %t.ours
// RUN: bpftrace -l 'uprobe:/lib/x86_64-linux-gnu/libc.so.6:*' \
// RUN:   | sed -e 's/.*libc.so.6://' | sort -u > %t.bpf
// RUN: comm -13 %t.ours %t.bpf > %t.missing
// RUN: count 0 < %t.missing
// RUN: %python -c "import sys; n=len(open(sys.argv[1]).readlines()); print('bpftrace lists', 'more than 5000' if n > 5000 else n)" %t.bpf | FileCheck %s --check-prefix=MANY
// MANY: bpftrace lists more than 5000
// RUN: %cc64 %S/Inputs/mktime-calls.c -o %t.prog
// RUN: %tsrun %t.o -- %t.prog 4 | FileCheck %s
// CHECK: mktime called 4 times
// CHECK: ydhms_diff+0x0 (libc.so.6)
// CHECK-NEXT: {{__mktime_internal|ranged_convert}}+0x{{[0-9a-f]+}} (libc.so.6)
// CHECK: mktime fired 4 ydhms_diff fired: yes func ydhms_diff

__global long mk, yd;
__global String f;
@@uft:*:libc.so.6:mktime:entry { mk++; }
@@uft:*:libc.so.6:ydhms_diff:entry {
  if (yd++ == 0)
    stktrace(2);
  f = __func;
}
@@END { printf("mktime fired %ld ydhms_diff fired: %s func %s\n", mk, yd > 0 ? "yes" : "no", f); }
