// Casts, sizeof, _Alignof and offsetof; type names are told apart from
// expressions like a C compiler does.
// RUN: %tscc --dump-ast %s | FileCheck %s

typedef unsigned long my_size;
@@BEGIN {
  x = (long)__arg2;
// CHECK:      CastExpr <[[#@LINE-1]]:7, [[#@LINE-1]]:13>
// CHECK-NEXT: TypeSpec <[[#@LINE-2]]:8, [[#@LINE-2]]:8> 'long'
// CHECK-NEXT: BuiltinVarExpr
  x = (struct req *)__arg1;
// CHECK:      CastExpr
// CHECK-NEXT: TypeSpec {{.*}} 'struct req *'
  x = (my_size)-1;
// A script typedef: a cast of -1.
// CHECK:      CastExpr
// CHECK-NEXT: TypeSpec {{.*}} 'my_size'
// CHECK-NEXT: UnaryOperator {{.*}} prefix '-'
  x = (size_t)-1;
// Header type names end in _t.
// CHECK:      CastExpr
// CHECK-NEXT: TypeSpec {{.*}} 'size_t'
  x = (n)-1;
// Not a type name: a subtraction.
// CHECK:      BinaryOperator {{.*}} '-'
// CHECK-NEXT: ParenExpr
  x = (uintptr)p;
// `(x) y` can only be a cast.
// CHECK:      CastExpr
// CHECK-NEXT: TypeSpec {{.*}} 'uintptr'
  if (n) x = 1;
// CHECK:      IfStmt
// CHECK-NEXT: DeclRefExpr {{.*}} 'n'
  x = sizeof(struct req) + sizeof x + sizeof(my_size) + sizeof(long long *);
// CHECK:      SizeofExpr <[[#@LINE-1]]:7, [[#@LINE-1]]:24> type
// CHECK-NEXT: TypeSpec {{.*}} 'struct req'
// CHECK:      SizeofExpr {{.*}} expr
// CHECK-NEXT: DeclRefExpr {{.*}} 'x'
// CHECK:      SizeofExpr {{.*}} type
// CHECK-NEXT: TypeSpec {{.*}} 'my_size'
// CHECK:      SizeofExpr {{.*}} type
// CHECK-NEXT: TypeSpec {{.*}} 'long long *'
  x = _Alignof(double) + __alignof__(struct s);
// CHECK:      AlignofExpr {{.*}} type
// CHECK-NEXT: TypeSpec {{.*}} 'double'
// CHECK:      AlignofExpr {{.*}} type
  x = offsetof(struct pk, m[1].x) + offsetof(struct pk, a);
// CHECK:      OffsetofExpr <[[#@LINE-1]]:7, [[#@LINE-1]]:33> 'm[1].x'
// CHECK-NEXT: TypeSpec {{.*}} 'struct pk'
// CHECK-NEXT: IntegerLiteral {{.*}} 1
// CHECK:      OffsetofExpr {{.*}} 'a'
  x = (String)y;
// CHECK:      CastExpr
// CHECK-NEXT: TypeSpec {{.*}} 'String'
}
