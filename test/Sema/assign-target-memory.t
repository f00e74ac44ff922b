// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct req { int id; long len; };
int f(struct req *r);
@@uft:*:a.out:f:entry { __arg1->len = 0; }
// CHECK: [[#@LINE-1]]:37: error: cannot modify memory of the traced process; tracing is read-only
