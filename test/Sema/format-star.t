// RUN: %tscc -fsyntax-only %s 2>&1 | FileCheck %s
int f(long w);
@@uft:*:a.out:f:entry { printf("%*d\n", __arg1, 5); }
// CHECK: [[#@LINE-1]]:33: warning: field width should have type 'int', but the argument has type 'long'
