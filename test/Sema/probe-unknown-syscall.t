// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@syscall:*:frobnicate_everything:entry { }
// CHECK: [[#@LINE-1]]:13: error: unknown system call 'frobnicate_everything'
