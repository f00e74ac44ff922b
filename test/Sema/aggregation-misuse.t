// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { @n = count(); printf("%d\n", @n); }
// CHECK: [[#@LINE-1]]:40: error: aggregation '@n' can only be assigned an aggregation function or passed to print() or clear()
