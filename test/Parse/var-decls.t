// Script variables: storage classes (explicit or implied), associative
// arrays, String capacities, pointers, arrays, initialisers.
// RUN: %tscc --dump-ast %s | FileCheck %s

__global long total;
// CHECK:      VarDecl <[[#@LINE-1]]:1, [[#@LINE-1]]:15> total __global{{$}}
// CHECK-NEXT: TypeSpec <[[#@LINE-2]]:10, [[#@LINE-2]]:10> 'long'
__thread long t0;
// CHECK:      VarDecl {{.*}} t0 __thread{{$}}
long implied;
// CHECK:      VarDecl {{.*}} implied __global implicit{{$}}
__global long bytes[String];
// CHECK:      VarDecl <[[#@LINE-1]]:1, [[#@LINE-1]]:27> bytes __global keys=1
// CHECK-NEXT: TypeSpec {{.*}} 'long'
// CHECK-NEXT: key
// CHECK-NEXT: TypeSpec <[[#@LINE-4]]:21, [[#@LINE-4]]:21> 'String'
__thread long start[long];
// CHECK:      VarDecl {{.*}} start __thread keys=1
// CHECK:      TypeSpec {{.*}} 'long'
long pairs[String, unsigned int];
// CHECK:      VarDecl {{.*}} pairs __global implicit keys=2
// CHECK:      key
// CHECK-NEXT: TypeSpec {{.*}} 'String'
// CHECK-NEXT: key
// CHECK-NEXT: TypeSpec {{.*}} 'unsigned int'
String name;
// CHECK:      VarDecl {{.*}} name __global implicit
// CHECK-NEXT: TypeSpec {{.*}} 'String'{{$}}
String s[256];
// CHECK:      VarDecl {{.*}} s __global implicit
// CHECK-NEXT: TypeSpec {{.*}} 'String[256]'
// CHECK-NEXT: capacity
// CHECK-NEXT: IntegerLiteral <[[#@LINE-4]]:10, [[#@LINE-4]]:10> 256
unsigned long long big = 0xFFFFFFFFFFFFFFFFULL, *p, **pp;
// CHECK:      VarDecl <[[#@LINE-1]]:1, [[#@LINE-1]]:26> big __global implicit init
// CHECK-NEXT: TypeSpec {{.*}} 'unsigned long long'
// CHECK-NEXT: IntegerLiteral {{.*}} 18446744073709551615 radix=16 suffix=ull
// CHECK:      VarDecl {{.*}} p __global implicit
// CHECK-NEXT: TypeSpec {{.*}} 'unsigned long long *'
// CHECK:      VarDecl {{.*}} pp __global implicit
// CHECK-NEXT: TypeSpec {{.*}} 'unsigned long long **'
char buf[BUFSZ][2];
// CHECK:      VarDecl {{.*}} buf __global implicit
// CHECK-NEXT: TypeSpec {{.*}} 'char [BUFSZ][2]'
// CHECK-NEXT: dimension
// CHECK-NEXT: DeclRefExpr {{.*}} 'BUFSZ'
// CHECK-NEXT: dimension
// CHECK-NEXT: IntegerLiteral {{.*}} 2
const struct req *const_req;
// CHECK:      TypeSpec {{.*}} 'const struct req *'
myint_from_header counter = -1;
// An unknown identifier in type position is a type name for sema to check.
// CHECK:      VarDecl {{.*}} counter __global implicit init
// CHECK-NEXT: TypeSpec {{.*}} 'myint_from_header'
// CHECK-NEXT: UnaryOperator {{.*}} prefix '-'
