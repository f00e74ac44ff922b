// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@interval:*:cpu:100 { }
// CHECK: [[#@LINE-1]]:14: error: expected 'clock' in interval probe specification, not 'cpu'
