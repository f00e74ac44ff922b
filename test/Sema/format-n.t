// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { long n; printf("ab%n\n", n); }
// CHECK: [[#@LINE-1]]:29: error: the 'n' conversion is not supported in format strings
