// RUN: %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@syscall:*:socketcall:entry { }
// CHECK: [[#@LINE-1]]:13: warning: system call 'socketcall' does not exist in LP64 processes; this probe never fires in them
