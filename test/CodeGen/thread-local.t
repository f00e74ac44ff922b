// RUN: %tscc -S --emit-llvm -O0 %s -o - | FileCheck %s
//
// Thread-locals carry a "written" bit: a store sets it, and a read of a
// never-written one makes the predicate false (or reads as 0 in an action).
__thread long t0;

@@uft:*:a.out:work:entry
{
  t0 = 5;
}

@@uft:*:a.out:work:exit
when (t0 > 0)
{
  printf("%ld\n", t0);
}

// CHECK-LABEL: define hidden void @tscc_clause0_action_lp64(
// CHECK:       %tls.bits = load i8
// CHECK:       or i8 %tls.bits, 1
// CHECK:       store i64 5
// CHECK-LABEL: define hidden i32 @tscc_clause1_pred_lp64(
// CHECK:       %tls.written = icmp ne i8
// CHECK:       br i1 %tls.is.written, label %tls.set, label %pred.false
// CHECK:       pred.false:
// CHECK-NEXT:  ret i32 0
// CHECK-LABEL: define hidden void @tscc_clause1_action_lp64(
// CHECK:       %tls.value = phi i64 [ 0, %tls.checked ], [ %load, %tls.set ]
