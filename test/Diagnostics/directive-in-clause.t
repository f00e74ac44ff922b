// A preprocessor directive inside a clause is one error per directive, in
// source order, and the clause is checked as if it were not there: no
// errors from a clause cut short or from C code that is not C.
// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
__global long n;
@@uft:*:*:main:entry {
#ifndef FOO
// CHECK: [[#@LINE-1]]:1: error: preprocessor directives are only allowed at the top level of a script
  n++;
#endif
// CHECK: [[#@LINE-1]]:1: error: preprocessor directives are only allowed at the top level of a script
  printf("x\n");
}
@@END { printf("%ld\n", n); }
// CHECK: 2 errors generated.
