// A program that execs itself after its file was replaced (a new file at
// the same path, as a rebuild puts it there) runs the new file: its
// probes are resolved in the new file, never in the parse tsrun cached of
// the old one (ElfCache keys files by device, inode, size, times and
// build-id). Version 2 has another function where version 1 had work(),
// so a stale parse would put the probe there: the counts are exact per
// image, attached, detached (--detach: the exec comes through a window)
// and on the ptrace path (--param tsrun_mode=ptrace), 64 and 32-bit.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc64 -DVERSION=1 %S/Inputs/replaced-exec.c -o %t/prog
// RUN: %cc64 -DVERSION=2 %S/Inputs/replaced-exec.c -o %t/prog.new
// RUN: %tscc %s -o %t/probe.o
// RUN: %tsrun %t/probe.o -- %t/prog %t/prog %t/prog.new | FileCheck %s
// RUN: %cc64 -DVERSION=1 %S/Inputs/replaced-exec.c -o %t/prog
// RUN: %cc64 -DVERSION=2 %S/Inputs/replaced-exec.c -o %t/prog.new
// RUN: %tsrun --detach %t/probe.o -- %t/prog %t/prog %t/prog.new | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ %cc32 -DVERSION=1 %S/Inputs/replaced-exec.c -o %t/prog %}
// RUN: %if native-i386 %{ %cc32 -DVERSION=2 %S/Inputs/replaced-exec.c -o %t/prog.new %}
// RUN: %if native-i386 %{ %tsrun %t/probe.o -- %t/prog %t/prog %t/prog.new | FileCheck %s %}
// RUN: %if native-i386 %{ %cc32 -DVERSION=1 %S/Inputs/replaced-exec.c -o %t/prog %}
// RUN: %if native-i386 %{ %cc32 -DVERSION=2 %S/Inputs/replaced-exec.c -o %t/prog.new %}
// RUN: %if native-i386 %{ %tsrun --detach %t/probe.o -- %t/prog %t/prog %t/prog.new | FileCheck %s %}
// CHECK: version 1: 3 calls of work
// CHECK-NEXT: version 2: 4 calls of work
// CHECK-NEXT: v1=3 v2=4 other=0

__global long v1;
__global long v2;
__global long other;

@@uft:*:a.out:work:entry
{
  if (__arg1 == 1)
    v1++;
  else if (__arg1 == 2)
    v2++;
  else
    other++;
}
@@END { printf("v1=%ld v2=%ld other=%ld\n", v1, v2, other); }
