// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
int f(char *name);
@@uft:*:a.out:f:entry { printf("%s\n", (String)__arg1); }
// CHECK: [[#@LINE-1]]:40: error: cannot cast to a String; use get_userstring() to copy a string out of the traced process
