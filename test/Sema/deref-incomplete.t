// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct hidden *make_hidden(void);
int f(struct hidden *p);
@@uft:*:a.out:f:entry { printf("%p\n", &*__arg1); }
// CHECK: [[#@LINE-1]]:41: error: dereferencing a pointer to incomplete type 'struct hidden'
