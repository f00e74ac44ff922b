// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@syscall:*:nosuch*:entry { }
// CHECK: [[#@LINE-1]]:13: error: 'nosuch*' matches no system call
