// The tables codegen turns into abi.h rows: maps, aggregations, formats,
// within() names, probes and clause flags.
// RUN: %tscc --dump-sema %s 2>&1 | FileCheck %s
__global long bytes[String];
__thread long start[long];
__global String who = "nobody";
// CHECK: header: {{.*}} params 2 uses-stack uses-exit
// CHECK: #2 who __global ILP32 'String' size 128 offset 0 LP64 'String' size 128 offset 0 init "nobody"
// CHECK: maps:
// CHECK-NEXT: #0 bytes global key string:128 value s64:8
// CHECK-NEXT: #1 start thread key s64:8 value s64:8
// CHECK: aggregations:
// CHECK-NEXT: #0 @calls count keys [string:128 s64:8]
// CHECK-NEXT: #1 @sizes lhist keys [] lhist 0 4096 256
// CHECK: formats:
// CHECK-NEXT: #0 clause 0 printf "%s wrote %ld\n" [string:128 s64:8]
// CHECK-NEXT: #1 clause 1 trace "" [u64:8 s64:8]
// CHECK: within: parse_request

@@syscall:$1:write:exit
when (__rv > 0 && within("parse_request"))
{
  bytes[__pname] += __rv;
  @calls[__pname, __pid] = count();
  @sizes = lhist(__rv, 0, 4096, 256);
  printf("%s wrote %ld\n", __pname, __rv);
}
// CHECK: #0 line [[#@LINE-8]] probes 0+1 predicate syscall
// CHECK-NEXT: probe syscall-exit pid $1 module any '*' function exact 'write' nr 4/1

@@uft:$2:libc.so.6:/^mem(cpy|move)$/:entry
{
  start[__tid] = 1;
  trace(7, sizeof(long), __arg1);
  stktrace(8);
  exit();
}
// CHECK: #1 line [[#@LINE-7]] probes 1+1 uses-thread max-arg 1
// CHECK-NEXT: probe uft-entry pid $2 module exact 'libc.so.6' function regex '^mem(cpy|move)$'

@@interval:*:clock:250 { print(@calls, 10); clear(@sizes); }
// CHECK: #2 line [[#@LINE-1]] probes 2+1 no-process
// CHECK-NEXT: probe interval pid * module any '*' function any '*' period 250
