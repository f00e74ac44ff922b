// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct req { int id; long len; };
int f(struct req *r);
@@uft:*:a.out:f:entry { long n; n = *__arg1; }
// CHECK: [[#@LINE-1]]:37: error: values of type 'struct req' cannot be copied; use copy_userdata() to copy target memory into a script variable
