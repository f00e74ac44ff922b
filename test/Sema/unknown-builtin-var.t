// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@uft:*:a.out:main:entry { printf("%d\n", __nosuch); }
// CHECK: [[#@LINE-1]]:43: error: unknown built-in variable '__nosuch'
