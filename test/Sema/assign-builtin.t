// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@uft:*:a.out:main:entry { __pid = 1; }
// CHECK: [[#@LINE-1]]:28: error: cannot assign to built-in value '__pid'
