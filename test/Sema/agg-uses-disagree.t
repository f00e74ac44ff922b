// Every assignment of one @name must agree with the first: one kind, one
// key shape, one set of lhist() bounds (the object has one row per name).
// The collector reports it, with a note at the first assignment, also
// across clauses with and without a process.
// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { @n = count(); @k[1] = count(); @l = lhist(1, 0, 10, 1); }
@@uft:*:a.out:f:entry
{
  @n = sum(__arg1);
  @k["s"] = count();
  @l = lhist(__arg1, 0, 20, 1);
  @k[2] = count();
  print(@n);
}
// CHECK: 9:8: error: aggregation '@n' is a count() aggregation; it cannot also be assigned sum()
// CHECK: 6:11: note: '@n' is first assigned here
// CHECK: 10:3: error: aggregation '@k' is keyed by (String) here but by (signed integer) where it is first assigned
// CHECK: 6:25: note: '@k' is first assigned here
// CHECK: 11:22: error: aggregation '@l' has lhist() buckets [0, 10) of width 1; it cannot also use [0, 20) of width 1
// CHECK: 6:42: note: '@l' is first assigned here
// CHECK: 3 errors generated.
