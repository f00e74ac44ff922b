// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
int f(char *name);
@@uft:*:a.out:f:entry { String s; s = __arg1; }
// CHECK: [[#@LINE-1]]:39: error: a value of type 'char *' cannot be stored in a String; use get_userstring() to copy a string out of the traced process
