// Every syntax error of a script is reported in one run, in source order,
// followed by a count; nothing is written.
// RUN: rm -f %t.o
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s
// RUN: not test -e %t.o

__global long total
// CHECK: [[#@LINE-1]]:20: error: expected ';' after top level declarator
@@BEGIN {
  x = 1
// CHECK: [[#@LINE-1]]:8: error: expected ';' after expression
  y = (2 + 3;
// CHECK: [[#@LINE-1]]:13: error: expected ')'
// CHECK: [[#@LINE-2]]:7: note: to match this '('
  z = ;
// CHECK: [[#@LINE-1]]:7: error: expected expression
}
@@END { a.; ` }
// CHECK: [[#@LINE-1]]:11: error: expected member name after '.'
// CHECK: [[#@LINE-2]]:13: error: invalid character '`' in source
// Then the type checker's errors, in what the parser recovered:
// CHECK: multiple-errors.t:10:3: error: use of undeclared identifier 'x'
// CHECK: multiple-errors.t:12:3: error: use of undeclared identifier 'y'
// CHECK: multiple-errors.t:18:9: error: use of undeclared identifier 'a'
// CHECK: 9 errors generated.
