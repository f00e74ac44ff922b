// A '}' with no clause open.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN { }
}
// CHECK: [[#@LINE-1]]:1: error: extraneous closing brace ('}')
