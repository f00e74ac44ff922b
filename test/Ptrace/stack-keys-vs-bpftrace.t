// A stack-keyed count agrees with bpftrace's `@[ustack] = count()` on the
// same program: as many distinct stacks, with the same count each.
// REQUIRES: bpftrace, root
// RUN: %cc64 -O1 -fno-omit-frame-pointer %S/Inputs/call-paths.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: bpftrace -o %t.bpf -e 'uprobe:%t.exe:leaf { @[ustack] = count(); }' -c '%t.exe 6 4 9' > /dev/null
// RUN: %tsrun %t.o -o %t.ours -- %t.exe 6 4 9 > /dev/null
// RUN: grep -o '^]: [0-9]*' %t.bpf | sort > %t.bpf.counts
// RUN: grep -o '^]: [0-9]*' %t.ours | sort > %t.ours.counts
// RUN: diff %t.bpf.counts %t.ours.counts
// RUN: FileCheck %s < %t.ours.counts
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -O1 -fno-omit-frame-pointer %S/Inputs/call-paths.c -o %t.i386/t.exe %}
// RUN: %if native-i386 %{ bpftrace -o %t.i386/t.bpf -e 'uprobe:%t.i386/t.exe:leaf { @[ustack] = count(); }' -c '%t.i386/t.exe 6 4 9' > /dev/null %}
// RUN: %if native-i386 %{ %tsrun %t.o -o %t.i386/t.ours -- %t.i386/t.exe 6 4 9 > /dev/null %}
// RUN: %if native-i386 %{ grep -o '^]: [0-9]*' %t.i386/t.bpf | sort > %t.i386/t.bpf.counts %}
// RUN: %if native-i386 %{ grep -o '^]: [0-9]*' %t.i386/t.ours | sort > %t.i386/t.ours.counts %}
// RUN: %if native-i386 %{ diff %t.i386/t.bpf.counts %t.i386/t.ours.counts %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/t.ours.counts %}
// CHECK: ]: 4
// CHECK-NEXT: ]: 6
// CHECK-NEXT: ]: 9

@@uft:*:a.out:leaf:entry { @[stktrace()] = count(); }
