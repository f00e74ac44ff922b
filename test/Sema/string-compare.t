// Strings compare with == and != and order with < > <= >= (bytes, as
// strcmp); a String against a number is still an error.
// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { if (__probe < "x" || __probe >= "@@BEGIN") exit(); }
// CHECK-NOT: [[#@LINE-1]]:{{.*}}error
@@END { if (__probe < 3) exit(); }
// CHECK: [[#@LINE-1]]:21: error: invalid operands to binary expression ('String' and 'int')
