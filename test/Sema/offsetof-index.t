// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct s { int v[4]; };
__global int i = 1;
@@BEGIN { printf("%lu\n", offsetof(struct s, v[i])); }
// CHECK: [[#@LINE-1]]:48: error: offsetof array index is not an integer constant expression
