// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct flags { unsigned ready : 1; unsigned busy : 1; };
int f(struct flags *p);
@@uft:*:a.out:f:entry { printf("%p\n", &__arg1->busy); }
// CHECK: [[#@LINE-1]]:40: error: address of bit-field requested
