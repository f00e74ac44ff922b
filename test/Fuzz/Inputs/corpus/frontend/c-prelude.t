// The C prelude handed to Clang: every chunk verbatim, in order, after a
// #line marker and at its original column, so that Clang's diagnostics
// point into the script.
// RUN: %tscc --dump-c-prelude %s | FileCheck %s

#include <stddef.h>
  struct s { int a; long b; };
__global long total;
int f(struct s *p,
      int n);
@@BEGIN { }
  #define N 4

// CHECK:      #line 6 "{{.*}}c-prelude.t"
// CHECK-NEXT: {{^}}#include <stddef.h>
// CHECK-NEXT: #line 7 "{{.*}}c-prelude.t"
// CHECK-NEXT: {{^}} struct s { int a; long b; };
// CHECK-NEXT: #line 9 "{{.*}}c-prelude.t"
// CHECK-NEXT: {{^}}int f(struct s *p,
// CHECK-NEXT: {{^}} int n);
// CHECK-NEXT: #line 12 "{{.*}}c-prelude.t"
// CHECK-NEXT: {{^}} #define N 4
// CHECK-NOT:  total
