// RUN: %tscc -fsyntax-only %s 2>&1 | FileCheck %s
int f(char *name, int *count);
@@uft:*:a.out:f:entry { char *p; p = __arg2; printf("%p\n", p); }
// CHECK: [[#@LINE-1]]:36: warning: incompatible pointer types assigning to 'char *' from 'int *'
