// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct hidden *make_hidden(void);
int f(struct hidden *p);
@@uft:*:a.out:f:entry { printf("%d\n", __arg1->x); }
// CHECK: [[#@LINE-1]]:48: error: member access into incomplete type 'struct hidden'
