// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@interval:42:clock:100 { }
// CHECK: [[#@LINE-1]]:12: error: an interval probe takes '*' as its process field
