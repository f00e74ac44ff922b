// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@syscall:*:read:entry:now { }
// CHECK: [[#@LINE-1]]:24: error: wrong number of fields in 'syscall' probe specification; expected syscall:PID:NAME:entry or syscall:PID:NAME:exit
