// The C syntax of issue 20 in the AST: parenthesised declarators in type
// names, __typeof__, GNU x ?: y, _Generic, compound literals with
// designators, prefixed character constants.
// RUN: %tscc --dump-ast %s | FileCheck %s
@@BEGIN {
  x = (short (*)[3])p;
// CHECK:      CastExpr <[[#@LINE-1]]:7, [[#@LINE-1]]:21>
// CHECK-NEXT: TypeSpec <[[#@LINE-2]]:8, [[#@LINE-2]]:19> 'short (*)[3]'
// CHECK-NEXT: dimension
// CHECK-NEXT: IntegerLiteral {{.*}} 3
// CHECK-NEXT: nested <[[#@LINE-5]]:15, [[#@LINE-5]]:15> pointers=1
  x = sizeof(void (*)(int, ...));
// CHECK:      TypeSpec {{.*}} 'void (*)(int, ...)'
// CHECK-NEXT: function variadic
// CHECK-NEXT: TypeSpec {{.*}} 'int'
// CHECK-NEXT: nested {{.*}} pointers=1
  x = (int (*[2])(void))q;
// CHECK:      TypeSpec {{.*}} 'int (*[2])(void)'
  x = (__typeof__(y + 1))z;
// CHECK:      TypeSpec {{.*}} '__typeof__(expr)'
// CHECK-NEXT: typeof
// CHECK-NEXT: BinaryOperator {{.*}} '+'
  x = y ?: 2;
// CHECK:      ConditionalOperator <[[#@LINE-1]]:7, [[#@LINE-1]]:12>
// CHECK-NEXT: DeclRefExpr <[[#@LINE-2]]:7, [[#@LINE-2]]:7> 'y'
// CHECK-NEXT: OpaqueValueExpr <[[#@LINE-3]]:7, [[#@LINE-3]]:7>
// CHECK-NEXT: source <[[#@LINE-4]]:7, [[#@LINE-4]]:7>
// CHECK-NEXT: IntegerLiteral {{.*}} 2
  x = _Generic(y, long: 1, default: 2);
// CHECK:      GenericSelectionExpr
// CHECK-NEXT: DeclRefExpr {{.*}} 'y'
// CHECK-NEXT: association
// CHECK-NEXT: TypeSpec {{.*}} 'long'
// CHECK-NEXT: IntegerLiteral {{.*}} 1
// CHECK-NEXT: default
// CHECK-NEXT: IntegerLiteral {{.*}} 2
  x = (struct s){ .a = 1, [2] = 3, 4 }.a;
// CHECK:      CompoundLiteralExpr
// CHECK-NEXT: TypeSpec {{.*}} 'struct s'
// CHECK-NEXT: InitListExpr
// CHECK-NEXT: designated .a
// CHECK-NEXT: IntegerLiteral {{.*}} 1
// CHECK-NEXT: designated []
// CHECK-NEXT: IntegerLiteral {{.*}} 2
// CHECK-NEXT: IntegerLiteral {{.*}} 3
// CHECK-NEXT: IntegerLiteral {{.*}} 4
  x = L'a' + u'\xffff' + U'\U0001F600' + L'é';
// CHECK:      CharLiteral {{.*}} 97 L
// CHECK:      CharLiteral {{.*}} 65535 u
// CHECK:      CharLiteral {{.*}} 128512 U
// CHECK:      CharLiteral {{.*}} 233 L
}
