// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@syscall:*:opne:entry { }
// CHECK: [[#@LINE-1]]:13: error: unknown system call 'opne'; did you mean 'open'?
