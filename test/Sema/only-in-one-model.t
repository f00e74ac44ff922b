// An error found in only one data model's pass names that model.
// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=note:
#ifdef __x86_64__
struct s { long wide; int a; };
#else
struct s { int a; };
#endif
int f(struct s *p);
@@uft:*:a.out:f:entry { printf("%ld\n", __arg1->wide); }
// CHECK: [[#@LINE-1]]:49: error: no member named 'wide' in 'struct s' [ILP32 only]{{$}}
