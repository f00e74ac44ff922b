// RUN: %tscc -fsyntax-only %s 2>&1 | FileCheck %s
int f(char *name);
@@uft:*:a.out:f:entry { char *p; p = 42; printf("%p\n", p); }
// CHECK: [[#@LINE-1]]:36: warning: incompatible integer to pointer conversion assigning to 'char *' from 'int'
