// stktrace() as an aggregation key: a stack-id key field of 8 bytes (alone
// or next to other keys, also of bpftrace's anonymous `@`), and the header
// says stacks are used.
// RUN: %tscc --dump-sema %s 2>&1 | FileCheck %s
// CHECK: header: {{.*}}uses-stack
// CHECK: aggregations:
// CHECK-NEXT: #0 @paths count keys [stack-id:8]
// CHECK-NEXT: #1 @bytes sum keys [string:128 stack-id:8]
// CHECK-NEXT: #2 @ count keys [stack-id:8]
@@uft:*:a.out:leaf:entry {
  @paths[stktrace()] = count();
  @bytes[__pname, stktrace(4)] = sum(__arg1);
  @[stktrace(1)] = count();
}
