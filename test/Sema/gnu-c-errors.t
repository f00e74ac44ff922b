// What gcc also rejects in the constructs of issue 20, and what tscc
// rejects with a reason.
// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
struct s { unsigned long long b : 40; int x; int arr[2]; };
void f(struct s *p, long i);
@@uft:*:a.out:f:entry
{
  __auto long n;
  n = __alignof__(__arg1->b);
// CHECK: [[#@LINE-1]]:7: error: invalid application of '__alignof__' to a bit-field
  n = sizeof(__typeof__(__arg1->b));
// CHECK: [[#@LINE-1]]:25: error: '__typeof__' applied to a bit-field
  n = _Generic(__arg2, int: 1, unsigned: 2);
// CHECK: [[#@LINE-1]]:16: error: controlling expression type 'long' not compatible with any generic association type
  n = _Generic(__arg2, long: 1, long: 2, default: 3);
// CHECK: [[#@LINE-1]]:33: error: type 'long' in generic association compatible with previously specified type 'long'
  n = (int[2]){1, 2, 3}[0];
// CHECK: [[#@LINE-1]]:22: error: excess elements in initializer
  n = (struct s){ .y = 1 }.x;
// CHECK: [[#@LINE-1]]:19: error: designator '.y' does not name a subobject of 'struct s'
  n = (long)&(int){1};
// CHECK: [[#@LINE-1]]:13: error: cannot take the address of script variable 'compound literal'
  n = "abc"[4];
// CHECK: [[#@LINE-1]]:13: error: index 4 is past the end of the string literal, which has 4 bytes
}
