// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { String s; s = __probe + "x"; }
// CHECK: [[#@LINE-1]]:33: error: Strings cannot be combined with '+'; string concatenation and arithmetic are not supported
