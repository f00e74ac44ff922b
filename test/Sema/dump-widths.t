// Width rules: the same expressions typed and laid out once per data model.
// RUN: %tscc --dump-sema %s 2>&1 | FileCheck %s
struct req { int id; long len; char *name; };
int handle(struct req *r, int flags);

__global long total;
__thread long t0;
__thread int hits;

// Globals are one LP64-layout block: a __global long is 64-bit storage and
// arithmetic in the ILP32 stream too.
// CHECK: header: global_size 8 global_align 8 thread_size ILP32 16 LP64 24 thread_bitmap 8
// CHECK: #0 total __global ILP32 'long long' size 8 offset 0 LP64 'long' size 8 offset 0
// Thread-locals follow the firing process, after the "written" bitmap.
// CHECK: #1 t0 __thread bit 0 ILP32 'long' size 4 offset 8 LP64 'long' size 8 offset 8
// CHECK: #2 hits __thread bit 1 ILP32 'int' size 4 offset 12 LP64 'int' size 4 offset 16

@@uft:*:a.out:handle:entry
{
  total += __arg1->len + sizeof(struct req) + 3000000000;
  t0 = __arg2;
}
// CHECK: #0 line [[#@LINE-5]] probes 0+1 uses-thread max-arg 2 ILP32 'int (struct req *, int)' LP64 'int (struct req *, int)'
// CHECK: [[#@LINE-4]]:12 MemberExpr '->len' ILP32 'long' @4 LP64 'long' @8
// CHECK: [[#@LINE-5]]:12 BuiltinVarExpr '__arg1' ILP32 'struct req *' LP64 'struct req *'
// CHECK: [[#@LINE-6]]:26 SizeofExpr ILP32 'unsigned int' = 12 LP64 'unsigned long' = 24
// An integer literal takes the first type it fits with the model's widths.
// CHECK: [[#@LINE-8]]:47 IntegerLiteral ILP32 'long long' LP64 'long'
