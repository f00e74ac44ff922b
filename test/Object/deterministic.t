// RUN: %tscc %s -o %t1.o
// RUN: %tscc %s -o %t2.o
// RUN: cmp %t1.o %t2.o
// RUN: %tscc -S --emit-llvm %s -o %t1.ll
// RUN: %tscc -S --emit-llvm %s -o %t2.ll
// RUN: cmp %t1.ll %t2.ll
//
// Compiling the same script twice gives byte-identical objects and IR.
__global long bytes[String];
__thread long t0;

@@syscall:*:read:entry
{
  t0 = timestamp();
  bytes[__pname] += __arg3;
  @calls[__pname, __tid] = count();
}

@@syscall:*:read:exit
when (t0 != 0)
{
  printf("%s %ld\n", __pname, diff_time(t0, timestamp(), MICROSECONDS));
}
