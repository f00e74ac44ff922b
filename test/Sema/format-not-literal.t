// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { printf(__probe); }
// CHECK: [[#@LINE-1]]:18: error: the format of 'printf' must be a string literal
