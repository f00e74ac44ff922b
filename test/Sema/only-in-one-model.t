// An error found in only one data model's pass names that model.
// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct s {
#ifdef __x86_64__
  long wide;
#endif
  int a;
};
int f(struct s *p);
@@uft:*:a.out:f:entry { printf("%ld\n", __arg1->wide); }
// CHECK: [[#@LINE-1]]:50: error: no member named 'wide' in 'struct s'
// CHECK: [[#@LINE-2]]:50: note: this happens only in ILP32 processes
