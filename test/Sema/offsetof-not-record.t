// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { printf("%lu\n", offsetof(int, x)); }
// CHECK: [[#@LINE-1]]:36: error: offsetof requires a struct or union type, not 'int'
