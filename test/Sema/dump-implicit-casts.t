// --dump-sema shows the implicit conversions sema decided, per model, under
// the expression whose value they convert (like clang's ImplicitCastExpr),
// compound assignments' computation types, and constants folded per model.
// RUN: %tscc --dump-sema %s 2>/dev/null | FileCheck %s
// RUN: %tscc --dump-sema %s 2>&1 >/dev/null | FileCheck --check-prefix=WARN %s
struct req { int id; long len; char name[16]; unsigned flag : 1; };
int handle(struct req *r, unsigned int flags);

@@uft:*:a.out:handle:entry
{
  __auto long n;
  __auto unsigned long long u;
  // unsigned int + long: ILP32 converts both sides to unsigned long, LP64
  // only the unsigned int (to long); the sum is stored into a long.
  n = __arg2 + __arg1->len;
  // An array decays to a pointer; 0 becomes a pointer; the test to _Bool.
  if (__arg1->name != 0)
    n = 1;
  // Shifts promote each side on their own; the computation type is the
  // promoted left side.
  n <<= (char)2;
  u += n;
  // A bit-field narrower than int promotes to int, as in gcc and clang.
  n = __arg1->flag - 1;
  // Folded with the conversions above: a pointer compares at its own
  // width (gcc -m32 says 1, -m64 says 0).
  n = (char *)0xFFFFFFFF == -1;
  n = -1L < 0U;
}

// Pointers to integers and to other pointers, tests to _Bool, and the
// computation type of pointer arithmetic (the integer is not converted).
@@uft:*:a.out:handle:entry
{
  __auto long m = __arg1;
  __auto char *p = __arg1;
  __auto int b;
  b = !__arg1 && __arg2;
  p += 2;
}

// CHECK-LABEL: expressions:
// CHECK:      [[#]]:7 BinaryOperator ILP32 'unsigned long' LP64 'long'
// CHECK-NEXT:   implicit ILP32 <IntegralCast> 'long' LP64 -
// CHECK-NEXT: BuiltinVarExpr '__arg2' ILP32 'unsigned int' LP64 'unsigned int'
// CHECK-NEXT:   implicit ILP32 <IntegralCast> 'unsigned long' LP64 <IntegralCast> 'long'
// CHECK-NEXT: MemberExpr '->len' ILP32 'long' @4 LP64 'long' @8
// CHECK-NEXT:   implicit ILP32 <IntegralCast> 'unsigned long' LP64 -

// CHECK:      BinaryOperator ILP32 'int' LP64 'int'
// CHECK-NEXT:   implicit ILP32 <IntegralToBoolean> '_Bool' LP64 <IntegralToBoolean> '_Bool'
// CHECK-NEXT: MemberExpr '->name' ILP32 'char[16]' @8 LP64 'char[16]' @16
// CHECK-NEXT:   implicit ILP32 <ArrayToPointerDecay> 'char *' LP64 <ArrayToPointerDecay> 'char *'
// CHECK-NEXT: BuiltinVarExpr '__arg1'
// CHECK-NEXT: IntegerLiteral ILP32 'int' LP64 'int'
// CHECK-NEXT:   implicit ILP32 <IntegralToPointer> 'char *' LP64 <IntegralToPointer> 'char *'

// CHECK:      :3 AssignExpr ILP32 'long' LP64 'long'
// CHECK-NEXT:   computation ILP32 'long' LP64 'long'
// CHECK-NEXT: DeclRefExpr 'n'
// CHECK-NEXT: CastExpr ILP32 'char' = 2 LP64 'char' = 2
// CHECK-NEXT:   implicit ILP32 <IntegralCast> 'int' LP64 <IntegralCast> 'int'
// CHECK:      AssignExpr ILP32 'unsigned long long' LP64 'unsigned long long'
// CHECK-NEXT:   computation ILP32 'unsigned long long' LP64 'unsigned long long'
// CHECK-NEXT: DeclRefExpr 'u'
// CHECK-NEXT: DeclRefExpr 'n' ILP32 'long' LP64 'long'
// CHECK-NEXT:   implicit ILP32 <IntegralCast> 'unsigned long long' LP64 <IntegralCast> 'unsigned long long'

// CHECK:      BinaryOperator ILP32 'int' LP64 'int'
// CHECK-NEXT:   implicit ILP32 <IntegralCast> 'long' LP64 <IntegralCast> 'long'
// CHECK-NEXT: MemberExpr '->flag' ILP32 'unsigned int' @24.0:1 LP64 'unsigned int' @32.0:1
// CHECK-NEXT:   implicit ILP32 <IntegralCast> 'int' LP64 <IntegralCast> 'int'
// CHECK-NEXT: BuiltinVarExpr '__arg1'
// CHECK-NEXT: IntegerLiteral ILP32 'int' LP64 'int'
// CHECK-NOT:    implicit

// CHECK:      BinaryOperator ILP32 'int' = 1 LP64 'int' = 0
// CHECK-NEXT:   implicit ILP32 <IntegralCast> 'long' LP64 <IntegralCast> 'long'
// CHECK-NEXT: CastExpr ILP32 'char *' = 4294967295 LP64 'char *' = 4294967295
// CHECK-NEXT: IntegerLiteral ILP32 'unsigned int' LP64 'unsigned int'
// CHECK-NEXT: UnaryOperator ILP32 'int' = -1 LP64 'int' = -1
// CHECK-NEXT:   implicit ILP32 <IntegralToPointer> 'char *' LP64 <IntegralToPointer> 'char *'

// CHECK:      BinaryOperator ILP32 'int' = 0 LP64 'int' = 1
// CHECK-NEXT:   implicit ILP32 <IntegralCast> 'long' LP64 <IntegralCast> 'long'
// CHECK-NEXT: UnaryOperator ILP32 'long' = -1 LP64 'long' = -1
// CHECK-NEXT:   implicit ILP32 <IntegralCast> 'unsigned long' LP64 -
// CHECK-NEXT: IntegerLiteral ILP32 'long' LP64 'long'
// CHECK-NEXT: IntegerLiteral ILP32 'unsigned int' LP64 'unsigned int'
// CHECK-NEXT:   implicit ILP32 <IntegralCast> 'unsigned long' LP64 <IntegralCast> 'long'

// CHECK:      BuiltinVarExpr '__arg1' ILP32 'struct req *' LP64 'struct req *'
// CHECK-NEXT:   implicit ILP32 <PointerToIntegral> 'long' LP64 <PointerToIntegral> 'long'
// CHECK-NEXT: BuiltinVarExpr '__arg1' ILP32 'struct req *' LP64 'struct req *'
// CHECK-NEXT:   implicit ILP32 <BitCast> 'char *' LP64 <BitCast> 'char *'
// CHECK:      BinaryOperator ILP32 'int' LP64 'int'
// CHECK-NEXT: UnaryOperator ILP32 'int' LP64 'int'
// CHECK-NEXT:   implicit ILP32 <IntegralToBoolean> '_Bool' LP64 <IntegralToBoolean> '_Bool'
// CHECK-NEXT: BuiltinVarExpr '__arg1'
// CHECK-NEXT:   implicit ILP32 <PointerToBoolean> '_Bool' LP64 <PointerToBoolean> '_Bool'
// CHECK-NEXT: BuiltinVarExpr '__arg2'
// CHECK-NEXT:   implicit ILP32 <IntegralToBoolean> '_Bool' LP64 <IntegralToBoolean> '_Bool'
// CHECK:      AssignExpr ILP32 'char *' LP64 'char *'
// CHECK-NEXT:   computation ILP32 'char *' LP64 'char *'
// CHECK-NEXT: DeclRefExpr 'p'
// CHECK-NEXT: IntegerLiteral ILP32 'int' LP64 'int'
// CHECK-NOT:    implicit

// WARN: :27:26: warning: this comparison is true in ILP32 processes but false in LP64 processes
// WARN: :28:11: warning: this comparison is false in ILP32 processes but true in LP64 processes
