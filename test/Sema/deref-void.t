// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
int f(void *p);
@@uft:*:a.out:f:entry { printf("%d\n", *__arg1); }
// CHECK: [[#@LINE-1]]:40: error: dereferencing a 'void *' pointer; cast it to a pointer to a complete type first
