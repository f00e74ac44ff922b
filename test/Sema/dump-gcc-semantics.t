// --dump-sema shows what gcc computes where tscc once differed (issue 20):
// a pointer widened to an integer is sign-extended in ILP32, __alignof__ is
// gcc's alignment and _Alignof C11's, a wide bit-field has gcc's N-bit type
// (the conversion to it is shown), a string literal is a char array, size_t
// is unsigned int in ILP32, and _Generic selects per model.
// RUN: %tscc --dump-sema %s 2>/dev/null | FileCheck %s
struct wide { unsigned long long b48 : 48; long long s40 : 40; unsigned long long u32 : 32; long long ll; int arr[4]; char c; };
void f(struct wide *w, long i, void *hi);
@@uft:*:a.out:f:entry
{
  __auto long long n;
  n = (long long)(struct wide *)0xfffffff0;
// CHECK: [[#@LINE-1]]:7 CastExpr ILP32 'long long' = -16 LP64 'long long' = 4294967280
  n = __alignof__(long long) + _Alignof(long long) + __alignof__(__arg1->ll);
// CHECK: [[#@LINE-1]]:7 AlignofExpr ILP32 'unsigned int' = 8 LP64 'unsigned long' = 8
// CHECK-NEXT: [[#@LINE-2]]:32 AlignofExpr ILP32 'unsigned int' = 4 LP64 'unsigned long' = 8
// CHECK-NEXT: [[#@LINE-3]]:54 AlignofExpr ILP32 'unsigned int' = 4 LP64 'unsigned long' = 8
  n = __arg1->b48 << 15u;
// CHECK: [[#@LINE-1]]:7 BinaryOperator ILP32 'unsigned long long:48' LP64 'unsigned long long:48'
// CHECK: [[#@LINE-2]]:7 MemberExpr '->b48' ILP32 'unsigned long long' @0.0:48 LP64 'unsigned long long' @0.0:48
// CHECK-NEXT: implicit ILP32 <IntegralCast> 'unsigned long long:48' LP64 <IntegralCast> 'unsigned long long:48'
  n = __arg1->b48 == -1;
// CHECK: [[#@LINE-1]]:22 UnaryOperator ILP32 'int' = -1 LP64 'int' = -1
// CHECK-NEXT: implicit ILP32 <IntegralCast> 'unsigned long long:48' LP64 <IntegralCast> 'unsigned long long:48'
  n = __arg1->s40 + __arg1->u32;
// CHECK: [[#@LINE-1]]:7 BinaryOperator ILP32 'long long:40' LP64 'long long:40'
// CHECK: [[#@LINE-2]]:21 MemberExpr '->u32'
// CHECK-NEXT: implicit ILP32 <IntegralCast> 'long long:40' LP64 <IntegralCast> 'long long:40'
  n = sizeof("abc") + "abc"[1];
// CHECK: [[#@LINE-1]]:7 SizeofExpr ILP32 'unsigned int' = 4 LP64 'unsigned long' = 4
// CHECK: [[#@LINE-2]]:23 ArraySubscriptExpr ILP32 'char' = 98 LP64 'char' = 98
  n = L'a' + u'a' + U'a';
// CHECK: [[#@LINE-1]]:7 CharLiteral ILP32 'long' LP64 'int'
// CHECK: [[#@LINE-2]]:14 CharLiteral ILP32 'unsigned short' LP64 'unsigned short'
// CHECK: [[#@LINE-3]]:21 CharLiteral ILP32 'unsigned int' LP64 'unsigned int'
  n = sizeof(int (*)[3]) + sizeof(void (*)(int)) + sizeof(*(short (*)[3])0);
// CHECK: [[#@LINE-1]]:7 SizeofExpr ILP32 'unsigned int' = 4 LP64 'unsigned long' = 8
// CHECK: [[#@LINE-2]]:28 SizeofExpr ILP32 'unsigned int' = 4 LP64 'unsigned long' = 8
// CHECK: [[#@LINE-3]]:52 SizeofExpr ILP32 'unsigned int' = 6 LP64 'unsigned long' = 6
  n = _Generic(sizeof(int), unsigned long: 1, unsigned int: 2);
// CHECK: [[#@LINE-1]]:7 GenericSelectionExpr ILP32 'int' = 2 LP64 'int' = 1
  n = _Generic(__arg1->u32, unsigned int: 1, default: 2) + _Generic(__arg1->b48, unsigned long long: 3, default: 4);
// CHECK: [[#@LINE-1]]:7 GenericSelectionExpr ILP32 'int' = 1 LP64 'int' = 1
// CHECK: [[#@LINE-2]]:60 GenericSelectionExpr ILP32 'int' = 4 LP64 'int' = 4
  n = __arg1->ll ?: 9;
// CHECK: [[#@LINE-1]]:7 ConditionalOperator ILP32 'long long' LP64 'long long'
// CHECK: [[#@LINE-2]]:7 OpaqueValueExpr ILP32 'long long' LP64 'long long'
  n = (__typeof__(__arg1->c))300;
// CHECK: [[#@LINE-1]]:7 CastExpr ILP32 'char' = 44 LP64 'char' = 44
  n = (struct wide){ .ll = 5, .arr[1] = 3 }.arr[1];
// CHECK: [[#@LINE-1]]:7 CompoundLiteralExpr ILP32 'struct wide' LP64 'struct wide'
}
