// RUN: %tscc -S --emit-llvm -O0 %s -o - | FileCheck %s
//
// System-call arguments live in the syscall registers of the model:
// ebx, ecx, edx for i386; rdi, rsi, rdx for x86-64. __rv is sign-extended
// from eax in the ILP32 stream.
@@syscall:*:write:entry
{
  printf("%ld %ld\n", __arg1, __arg3);
}

@@syscall:*:write:exit
{
  printf("%ld\n", __rv);
}

// CHECK-LABEL: define hidden void @tscc_clause0_action_ilp32(
// CHECK:       %rbx = load i64
// CHECK:       %rdx = load i64
// CHECK-LABEL: define hidden void @tscc_clause0_action_lp64(
// CHECK:       %rdi = load i64
// CHECK:       %rdx = load i64
// CHECK-LABEL: define hidden void @tscc_clause1_action_ilp32(
// CHECK:       %rax = load i64
// CHECK:       sext i32 %{{.*}} to i64
// CHECK-LABEL: define hidden void @tscc_clause1_action_lp64(
// CHECK:       %rax = load i64
