// RUN: %tscc -fsyntax-only %s 2>&1 | FileCheck %s
int f(char *name);
@@uft:*:a.out:f:entry { unsigned u; u = __arg1; printf("%u\n", u); }
// CHECK: [[#@LINE-1]]:39: warning: storing pointer type 'char *' in 'unsigned int' truncates the address in LP64 processes only
