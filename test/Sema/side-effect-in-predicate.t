// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
__global long n;
@@uft:*:a.out:main:entry when (n = 1) { }
// CHECK: [[#@LINE-1]]:34: error: a predicate cannot have side effects (assignment)
