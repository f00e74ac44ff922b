// RUN: %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { printf("%d\n", 1, 2); }
// CHECK: [[#@LINE-1]]:29: warning: data argument not used by format string
