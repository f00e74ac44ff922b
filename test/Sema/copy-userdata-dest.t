// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
int f(long *p);
@@uft:*:a.out:f:entry { copy_userdata(__arg1, 5); }
// CHECK: [[#@LINE-1]]:47: error: the second argument of 'copy_userdata' must be a script variable
