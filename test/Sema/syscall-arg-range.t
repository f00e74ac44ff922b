// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@syscall:*:read:entry { printf("%ld\n", __arg7); }
// CHECK: [[#@LINE-1]]:42: error: '__arg7' does not exist: system calls have at most 6 arguments
