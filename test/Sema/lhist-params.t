// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@uft:*:a.out:main:entry { @h = lhist(__pid, 10, 0, 1); }
// CHECK: [[#@LINE-1]]:46: error: lhist() bounds must be integer constants with lo < hi and step > 0
