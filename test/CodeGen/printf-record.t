// RUN: %tscc -S --emit-llvm -O0 %s -o - | FileCheck %s
//
// printf() builds a record instead of formatting: a 16-byte tscc_record
// header, then one 8-byte slot per scalar and a length-prefixed, 8-padded
// string, handed to helpers->emit.
@@BEGIN
{
  printf("%d %s!\n", 42, "hi");
}

// CHECK-LABEL: define hidden void @tscc_clause0_action_lp64(
// CHECK:       %printf.rec = alloca [160 x i8], align 8
// CHECK:       call void @llvm.memset.p0.i64(ptr align 8 %printf.rec, i8 0, i64 160, i1 false)
// CHECK:       %field = getelementptr inbounds i8, ptr %printf.rec, i64 16
// CHECK:       store i64 42, ptr %field
// CHECK:       %field1 = getelementptr inbounds i8, ptr %printf.rec, i64 24
// CHECK:       %str.len = call i64 @tscc_strlen_lp64(ptr @{{.*}}, i64 3)
// CHECK:       store i32 %{{.*}}, ptr %field1
// CHECK:       store i16 1, ptr %printf.rec
// CHECK:       call void %emit(ptr %ctx, ptr %printf.rec, i32 %rec.size)
