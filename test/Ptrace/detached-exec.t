// An image that a process tsrun has let go of (--detach) execs is traced
// from its first instruction, with no hit lost: the agent stops at libc's
// exec functions and asks tsrun for a window, tsrun attaches for the exec
// and sets the new image up, then lets go again. The chain: the first
// image runs untraced by ptrace (TracerPid 0), execvp() fails in each
// directory of PATH (each failed execve() closes its window), a
// posix_spawn() child (a vfork() child of the detached process) execs the
// program again, and the first image execs it last. Every count is the
// program's own, per image: 64->64, and 64->32 and 32->64 where the
// kernel runs i386; attached, the same counts. On the ptrace path
// (--param tsrun_mode=ptrace) nothing is let go of, and the counts are
// the same.
// RUN: %cc64 %S/Inputs/exec-chain.c -o %t.64
// RUN: %tscc %s -o %t.o
// RUN: %tsrun -v --detach %t.o -- %t.64 first 30 %t.64 > %t.out 2> %t.err
// RUN: %if inprocess %{ FileCheck %s --check-prefixes=CHECK,UNTRACED < %t.out %}
// RUN: %if inprocess %{ FileCheck %s --check-prefix=DETACHED --implicit-check-not=warning < %t.err %}
// RUN: %if ptrace-mode %{ FileCheck %s --check-prefixes=CHECK,TRACED < %t.out %}
// RUN: %tsrun --no-detach %t.o -- %t.64 first 30 %t.64 | FileCheck %s --check-prefixes=CHECK,TRACED
// RUN: %if native-i386 %{ %cc32 %S/Inputs/exec-chain.c -o %t.32 %}
// RUN: %if native-i386 %{ %tsrun --detach %t.o -- %t.64 first 30 %t.32 > %t.6432 2> %t.6432.err %}
// RUN: %if native-i386 %{ %tsrun --detach %t.o -- %t.32 first 30 %t.64 > %t.3264 2> %t.3264.err %}
// RUN: %if native-i386 && inprocess %{ FileCheck %s --check-prefixes=CHECK,UNTRACED < %t.6432 %}
// RUN: %if native-i386 && inprocess %{ FileCheck %s --check-prefixes=CHECK,UNTRACED < %t.3264 %}
// RUN: %if native-i386 && ptrace-mode %{ FileCheck %s --check-prefixes=CHECK,TRACED < %t.6432 %}
// RUN: %if native-i386 && ptrace-mode %{ FileCheck %s --check-prefixes=CHECK,TRACED < %t.3264 %}
// RUN: %if native-i386 %{ not grep -i warning %t.6432.err %t.3264.err %}
// CHECK: first calls 30
// UNTRACED-SAME: {{ untraced$}}
// TRACED-SAME: {{ traced$}}
// CHECK-NEXT: execvp failed
// CHECK-NEXT: spawned calls 31
// CHECK-NEXT: last calls 32
// CHECK-NEXT: work: first 30 spawned 31 last 32
// DETACHED: tsrun: pid [[PID:[0-9]+]]: detached: every site runs in the process
// Three failed execve()s (execvp through PATH), each its own window:
// DETACHED-COUNT-3: tsrun: pid [[PID]]: attached for an exec (a window)
// DETACHED-NEXT: tsrun: pid [[PID]]: detached: every site runs in the process
// The posix_spawn() child, unknown to tsrun until it asked:
// DETACHED: tsrun: pid [[CHILD:[0-9]+]]: attached for an exec (a window)
// DETACHED: tsrun: pid [[CHILD]] ({{.*}}): exec
// DETACHED: tsrun: pid [[PID]]: attached for an exec (a window)
// DETACHED: tsrun: pid [[PID]] ({{.*}}): exec
// DETACHED-NEXT: tsrun: pid [[PID]]: detached: every site runs in the process

int work(int);
__global long first, spawned, last;

@@uft:*:a.out:work:entry {
  if (__arg1 < 1000)
    first++;
  else if (__arg1 < 2000)
    spawned++;
  else
    last++;
}
@@END {
  printf("work: first %ld spawned %ld last %ld\n", first, spawned, last);
}
