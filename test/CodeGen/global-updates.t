// RUN: %tscc -S --emit-llvm -O0 %s -o - | FileCheck %s
//
// Updates of global counters are plain loads and stores of the session's
// global block: every clause that touches a global runs under the session
// lock, so no locked instruction is needed (and none is emitted: a locked
// read-modify-write would cost a hit more than the rest of the clause). A
// __global long is 64-bit in both streams.
__global long hits;
__global int flags;

@@uft:*:a.out:main:entry
{
  hits++;
  hits += 5;
  flags |= 4;
  hits = hits * 2;
}

// CHECK-NOT:   atomicrmw
// CHECK-LABEL: define hidden void @tscc_clause0_action_ilp32(
// CHECK:       %hits = getelementptr inbounds i8, ptr %globals, i64 0
// CHECK:       load i64, ptr %hits
// CHECK:       add i64 %{{.*}}, 1
// CHECK:       store i64
// CHECK:       add i64 %{{.*}}, 5
// CHECK:       store i64
// CHECK:       %flags = getelementptr inbounds i8, ptr %globals{{[0-9]*}}, i64 8
// CHECK:       or i32 %{{.*}}, 4
// CHECK:       store i32
// CHECK:       mul i64
// CHECK:       store i64
// CHECK-LABEL: define hidden void @tscc_clause0_action_lp64(
// CHECK:       load i64, ptr %hits
// CHECK:       add i64 %{{.*}}, 1
// CHECK-NOT:   atomicrmw
