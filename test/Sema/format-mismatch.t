// RUN: %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@uft:*:a.out:main:entry { long long big; big = 1; printf("%d\n", big); }
// CHECK: [[#@LINE-1]]:60: warning: format specifies type 'int' but the argument has type 'long long'
