// A stack key is an i64 from the stack_id helper (offset 120 of the helper
// table, ABI 1.4), called only when the runtime's table is long enough to
// have it (size >= 128), else 0; in both streams. The clause is flagged
// calls-stack-id so that the runtime runs it where it can unwind.
// RUN: %tscc -S --emit-llvm -O0 %s -o - | FileCheck %s
// RUN: %tscc %s -o %t.o
// RUN: %tsreport --describe %t.o | FileCheck %s --check-prefix=OBJ
// CHECK-LABEL: define hidden void @tscc_clause0_action_ilp32(
// CHECK: %has.stack_id = icmp uge i32 %helpers.size, 128
// CHECK-NEXT: br i1 %has.stack_id, label %stack_id, label %stack_id.cont
// CHECK: %stack_id.addr = getelementptr inbounds i8, ptr %helpers, i64 120
// CHECK: [[ID:%[0-9]+]] = call i64 %stack_id{{[0-9]*}}(ptr %ctx, i32 3)
// CHECK: %stack.id = phi i64 [ 0, %entry ], [ [[ID]], %stack_id ]
// CHECK: store i64 %stack.id, ptr %key.field
// CHECK: call void %agg_update(ptr %ctx, i32 0, ptr %key, i32 16, i64 1)
// CHECK-LABEL: define hidden void @tscc_clause0_action_lp64(
// CHECK: call i64 %stack_id{{[0-9]*}}(ptr %ctx, i32 3)
// OBJ: abi: 1.6
// OBJ: calls-stack-id
// OBJ: @paths count keys s64:8,stack-id:8
@@uft:*:a.out:leaf:entry { @paths[__tid, stktrace(3)] = count(); }
