// RUN: %tscc -fsyntax-only %s 2>&1 | FileCheck %s
int f(char *name);
@@uft:*:a.out:f:entry { printf("%d\n", (int)__arg1); }
// CHECK: [[#@LINE-1]]:40: warning: cast from pointer type 'char *' to smaller integer type 'int' truncates the address in LP64 processes
