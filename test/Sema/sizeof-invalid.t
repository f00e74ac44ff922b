// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct hidden *make_hidden(void);
@@BEGIN { printf("%lu\n", sizeof(struct hidden)); }
// CHECK: [[#@LINE-1]]:27: error: invalid application of 'sizeof' to an incomplete type 'struct hidden'
