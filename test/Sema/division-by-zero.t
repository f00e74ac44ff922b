// A constant zero divisor is diagnosed at compile time; the program still
// compiles (the division yields 0 and counts a fault when it runs).
// RUN: %tscc %s -o %t.o 2>&1 | FileCheck %s
// RUN: test -f %t.o

__global long a, b;
@@BEGIN {
  a = 10 / 0;
  // CHECK: division-by-zero.t:[[@LINE-1]]:10: warning: division by zero: the result is 0, and each evaluation counts a fault of the clause
  b = a % (4 - 2 * 2);
  // CHECK: division-by-zero.t:[[@LINE-1]]:9: warning: remainder by zero: the result is 0, and each evaluation counts a fault of the clause
  a /= 0;
  // CHECK: division-by-zero.t:[[@LINE-1]]:5: warning: division by zero
  b = a / 2;
  exit();
}
// CHECK-NOT: warning:
