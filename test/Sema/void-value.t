// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { long n; n = exit(); }
// CHECK: [[#@LINE-1]]:23: error: 'exit' does not produce a value
