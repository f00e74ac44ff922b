// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct opaque *make_opaque(void);
__global struct opaque o;
// CHECK: [[#@LINE-1]]:24: error: variable 'o' has incomplete type 'struct opaque'
@@BEGIN { }
