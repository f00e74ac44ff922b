// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
int f(int a);
@@uft:*:a.out:f+4 { printf("%d\n", __arg1); }
// CHECK: [[#@LINE-1]]:36: error: '__arg1' is only available at entry probes: at FUNC+OFFSET the registers and stack no longer hold the arguments
