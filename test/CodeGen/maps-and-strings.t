// RUN: %tscc -S --emit-llvm -O0 %s -o - | FileCheck %s
//
// Map keys are serialised into a zeroed buffer (Strings NUL-padded to their
// capacity); reads look the key up without creating it, stores create it.
// Aggregation keys are serialised field after field.
__global long bytes[String];

@@syscall:*:write:entry
{
  bytes[__pname] = bytes[__pname] + 1;
  @calls[__pname, __arg1] = count();
}

// CHECK-LABEL: define hidden void @tscc_clause0_action_lp64(
// CHECK:       call void @llvm.memset.p0.i64(ptr align 8 %key, i8 0, i64 128, i1 false)
// CHECK:       call void @tscc_strcopy_lp64(ptr %key, i64 128, ptr %pname.str, i64 128)
// CHECK:       call ptr %map_lookup{{[0-9]*}}(ptr %ctx, i32 0, ptr %key{{[0-9]*}}, i32 128, i32 0)
// CHECK:       call ptr %map_lookup{{[0-9]*}}(ptr %ctx, i32 0, ptr %key{{[0-9]*}}, i32 128, i32 1)
// CHECK:       call void @llvm.memset.p0.i64(ptr align 8 %key{{[0-9]*}}, i8 0, i64 136, i1 false)
// CHECK:       %key.field = getelementptr inbounds i8, ptr %key{{[0-9]*}}, i64 128
// CHECK:       call void %agg_update(ptr %ctx, i32 0, ptr %key{{[0-9]*}}, i32 136, i64 1)
