// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@END { print(@ghost); }
// CHECK: [[#@LINE-1]]:15: error: aggregation '@ghost' is never assigned a value
