// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct m { double ratio; };
int f(struct m *p);
@@uft:*:a.out:f:entry { printf("%d\n", (int)__arg1->ratio); }
// CHECK: [[#@LINE-1]]:45: error: floating-point values (type 'double') are not supported in trace scripts
