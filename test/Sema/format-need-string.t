// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
int f(char *name);
@@uft:*:a.out:f:entry { printf("%s\n", __arg1); }
// CHECK: [[#@LINE-1]]:33: error: format specifies a String but the argument has type 'char *'
// CHECK: [[#@LINE-2]]:40: note: use get_userstring() to copy the string out of the traced process
