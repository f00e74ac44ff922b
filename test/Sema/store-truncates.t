// RUN: %tscc -fsyntax-only %s 2>&1 | FileCheck %s
int f(long len);
@@uft:*:a.out:f:entry { int n; n = __arg1; printf("%d\n", n); }
// CHECK: [[#@LINE-1]]:34: warning: implicit conversion from 'long' to 'int' truncates the value in LP64 processes only
