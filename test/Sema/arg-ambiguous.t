// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
int f(int a);
int g(char *s);
@@uft:*:a.out:f:entry, @@uft:*:a.out:g:entry { printf("%d\n", (int)__arg1); }
// CHECK: [[#@LINE-1]]:68: error: '__arg1' is ambiguous: the probes of this clause resolve to functions with different prototypes
