// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct s { int a; };
__global struct s g;
@@BEGIN { printf("%d\n", g->a); }
// CHECK: [[#@LINE-1]]:27: error: member reference type 'struct s' is not a pointer; did you mean to use '.'?
