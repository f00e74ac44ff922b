// Statements: blocks, if/else (the else binds to the nearest if), return,
// empty statements.
// RUN: %tscc --dump-ast %s | FileCheck %s

@@BEGIN
{
  if (a) if (b) x = 1; else x = 2;
// CHECK:      IfStmt <[[#@LINE-1]]:3, [[#@LINE-1]]:34>{{$}}
// CHECK-NEXT: DeclRefExpr {{.*}} 'a'
// CHECK-NEXT: IfStmt <[[#@LINE-3]]:10, [[#@LINE-3]]:34> has_else
  if (a) { return; } else { ; }
// CHECK:      IfStmt {{.*}} has_else
// CHECK-NEXT: DeclRefExpr
// CHECK-NEXT: CompoundStmt
// CHECK-NEXT: ReturnStmt <[[#@LINE-4]]:12, [[#@LINE-4]]:18>
// CHECK-NEXT: CompoundStmt
// CHECK-NEXT: NullStmt
  { { } }
// CHECK:      CompoundStmt <[[#@LINE-1]]:3, [[#@LINE-1]]:9>
// CHECK-NEXT: CompoundStmt <[[#@LINE-2]]:5, [[#@LINE-2]]:7>
  exit();
// CHECK:      ExprStmt
// CHECK-NEXT: CallExpr {{.*}} 'exit'
}
// CHECK-NOT: Stmt
