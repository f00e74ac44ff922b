// RUN: %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@uft:*:a.out:main:entry { if (sizeof(long) == 8) printf("64-bit\n"); }
// CHECK: [[#@LINE-1]]:45: warning: this comparison is false in ILP32 processes but true in LP64 processes
