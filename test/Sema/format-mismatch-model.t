// RUN: %tscc -fsyntax-only %s 2>&1 | FileCheck %s
int f(long len);
@@uft:*:a.out:f:entry { printf("len %d\n", __arg1); }
// CHECK: [[#@LINE-1]]:37: warning: format specifies type 'int' but the argument has type 'long' in LP64 processes
