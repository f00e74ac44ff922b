// A program with its own seccomp filter and SIGSYS handler, its system
// calls traced in the process: a call its filter fails (RET_ERRNO) or
// traps (RET_TRAP, emulated by its handler) goes the same way when made
// from tsrun's gadget, and the exit probes see what the program sees.
// (On the seccomp-stop path those calls are not seen at all: the program's
// filter wins over tsrun's RET_TRACE, so that run only checks that the
// program works the same.)
// RUN: %tscc %s -o %t.o
// RUN: %cc64 %S/Inputs/own-seccomp.c -o %t64
// RUN: %tsrun %t.o -- %t64 > %t.out
// RUN: FileCheck %s --check-prefix=PROG < %t.out
// RUN: %if inprocess %{ %python %S/Inputs/check-pairs.py PROG < %t.out | FileCheck %s %}
// PROG: sigsys 2
// CHECK: pairs: 4

@@syscall:*:getppid:exit, @@syscall:*:getpid:exit
{
  printf("PROG %s rv %ld errno %d\n", __func, __rv, __errno);
}
