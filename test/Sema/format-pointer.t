// RUN: %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@uft:*:a.out:main:entry { printf("%p\n", __pid); }
// CHECK: [[#@LINE-1]]:36: warning: format specifies type 'void *' but the argument has type 'int'
