// RUN: %tscc -S --emit-llvm -O0 %s -o - | FileCheck %s
//
// Updates of global counters are atomic read-modify-write operations on the
// session's global block; a __global long is 64-bit in both streams.
__global long hits;
__global int flags;

@@uft:*:a.out:main:entry
{
  hits++;
  hits += 5;
  flags |= 4;
  hits = hits * 2;
}

// CHECK-LABEL: define hidden void @tscc_clause0_action_ilp32(
// CHECK:       %hits = getelementptr inbounds i8, ptr %globals, i64 0
// CHECK:       atomicrmw add ptr %hits, i64 1 monotonic
// CHECK:       atomicrmw add ptr %hits{{[0-9]*}}, i64 5 monotonic
// CHECK:       %flags = getelementptr inbounds i8, ptr %globals{{[0-9]*}}, i64 8
// CHECK:       atomicrmw or ptr %flags, i32 4 monotonic
// CHECK:       mul i64
// CHECK:       store i64
// CHECK-LABEL: define hidden void @tscc_clause0_action_lp64(
// CHECK:       atomicrmw add ptr %hits, i64 1 monotonic
