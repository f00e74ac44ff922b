// -ferror-limit stops after N errors.
// RUN: not %tscc -ferror-limit=2 %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  a = ;
  b = ;
  c = ;
}
// CHECK: error: expected expression
// CHECK: error: expected expression
// CHECK-NOT: [[#@LINE-5]]:{{.*}}error
// CHECK: fatal error: too many errors emitted, stopping now
