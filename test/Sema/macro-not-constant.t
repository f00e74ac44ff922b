// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
#define NAME "text"
@@BEGIN { printf("%d\n", NAME); }
// CHECK: [[#@LINE-1]]:26: error: macro 'NAME' expands to '"text"', which is not an integer constant
