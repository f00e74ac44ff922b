// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@syscall:*:read:entry { printf("%d\n", __errno); }
// CHECK: [[#@LINE-1]]:41: error: '__errno' is only available in system call exit probes
