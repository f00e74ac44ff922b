// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
__global long total;
@@BEGIN { printf("%p\n", &total); }
// CHECK: [[#@LINE-1]]:26: error: cannot take the address of script variable 'total': script variables do not live in the traced process
