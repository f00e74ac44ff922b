// RUN: %tscc -S --emit-llvm -O0 %s -o - | FileCheck %s
//
// __argN: LP64 arguments come from the register snapshot (rdi, rsi, rdx,
// ...); ILP32 arguments are read from target memory at esp + 4 + slot,
// where slot sums the 4-byte-rounded sizes of the earlier parameters.
int handle(int id, long long big, char *name);

@@uft:*:a.out:handle:entry
{
  printf("%d %lld %p\n", __arg1, __arg2, __arg3);
}

// CHECK-LABEL: define hidden void @tscc_clause0_action_ilp32(
// CHECK:       %esp = trunc i64 %rsp to i32
// CHECK:       %arg.addr = add i32 %esp, 4
// CHECK:       call i32 %read_mem{{[0-9]*}}(ptr %ctx, i64 %{{.*}}, ptr %{{.*}}, i64 4)
// CHECK:       add i32 %{{.*}}, 8
// CHECK:       call i32 %read_mem{{[0-9]*}}(ptr %ctx, i64 %{{.*}}, ptr %{{.*}}, i64 8)
// CHECK:       add i32 %{{.*}}, 16
// CHECK:       call i32 %read_mem{{[0-9]*}}(ptr %ctx, i64 %{{.*}}, ptr %{{.*}}, i64 4)
// CHECK-LABEL: define hidden void @tscc_clause0_action_lp64(
// CHECK-NOT:   read_mem
// CHECK:       %rdi = load i64
// CHECK:       %rsi = load i64
// CHECK:       %rdx = load i64
// CHECK-NOT:   read_mem
// CHECK:       ret void
