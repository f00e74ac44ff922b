// RUN: %tscc -S --emit-llvm -O0 %s -o - | FileCheck %s
//
// One member access, two layouts: in `struct sigaction` the handler union
// is a pointer, so sa_mask sits at offset 4 for i386 and at 8 for x86-64.
// Each stream reads target memory with its own model's offset.
#include <signal.h>
int sigaction(int, const struct sigaction *, struct sigaction *);

@@BEGIN { }

@@uft:*:*:sigaction:entry
when (__arg2 != 0)
{
  printf("%p %d\n", &__arg2->sa_mask, __arg2->sa_flags);
}

// CHECK-LABEL: define hidden void @tscc_clause1_action_ilp32(
// CHECK:       %sa_mask = add i32 %{{.*}}, 4
// CHECK:       %sa_flags = add i32 %{{.*}}, 132
// CHECK:       call i32 %read_mem{{[0-9]*}}(ptr %ctx, i64 %{{.*}}, ptr %{{.*}}, i64 4)
// CHECK-LABEL: define hidden void @tscc_clause1_action_lp64(
// CHECK:       %sa_mask = add i64 %{{.*}}, 8
// CHECK:       %sa_flags = add i64 %{{.*}}, 136
// CHECK:       call i32 %read_mem{{[0-9]*}}(ptr %ctx, i64 %{{.*}}, ptr %{{.*}}, i64 4)
