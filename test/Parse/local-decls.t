// Declarations inside actions default to __auto.
// RUN: %tscc --dump-ast %s | FileCheck %s

typedef unsigned int u32;
@@BEGIN {
  int a = 1, b;
// CHECK:      DeclStmt <[[#@LINE-1]]:3, [[#@LINE-1]]:15>
// CHECK-NEXT: VarDecl <[[#@LINE-2]]:3, [[#@LINE-2]]:11> a __auto implicit init
// CHECK-NEXT: TypeSpec {{.*}} 'int'
// CHECK-NEXT: IntegerLiteral {{.*}} 1
// CHECK-NEXT: VarDecl <[[#@LINE-5]]:3, [[#@LINE-5]]:14> b __auto implicit{{$}}
  __auto String s[64];
// CHECK:      VarDecl {{.*}} s __auto{{$}}
// CHECK-NEXT: TypeSpec {{.*}} 'String[64]'
  __thread long started;
// CHECK:      VarDecl {{.*}} started __thread{{$}}
  u32 *p;
// A script typedef makes this a declaration, not a multiplication.
// CHECK:      DeclStmt
// CHECK-NEXT: VarDecl {{.*}} p __auto implicit
// CHECK-NEXT: TypeSpec {{.*}} 'u32 *'
  size_t n = sizeof(u32);
// CHECK:      VarDecl {{.*}} n __auto implicit init
// CHECK-NEXT: TypeSpec {{.*}} 'size_t'
// CHECK-NEXT: SizeofExpr {{.*}} type
  a * b;
// Without a type name it is an expression.
// CHECK:      ExprStmt
// CHECK-NEXT: BinaryOperator {{.*}} '*'
}
