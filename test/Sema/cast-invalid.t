// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct s { int a; };
@@BEGIN { printf("%d\n", (int)(struct s)__probe); }
// CHECK: [[#@LINE-1]]:31: error: cannot cast from 'String' to 'struct s'
