// Member access, subscripts, calls and aggregations.
// RUN: %tscc --dump-ast %s | FileCheck %s

@@BEGIN {
  x = __arg1->name[3];
// CHECK:      ArraySubscriptExpr <[[#@LINE-1]]:7, [[#@LINE-1]]:21>
// CHECK-NEXT: MemberExpr <[[#@LINE-2]]:7, [[#@LINE-2]]:15> ->name
// CHECK-NEXT: BuiltinVarExpr {{.*}} '__arg1'
// CHECK-NEXT: IntegerLiteral {{.*}} 3
  x = (*r).inner.y;
// CHECK:      MemberExpr {{.*}} .y
// CHECK-NEXT: MemberExpr {{.*}} .inner
// CHECK-NEXT: ParenExpr
  bytes[__pname, __tid] += 1;
// CHECK:      ArraySubscriptExpr
// CHECK-NEXT: DeclRefExpr {{.*}} 'bytes'
// CHECK-NEXT: BuiltinVarExpr {{.*}} '__pname'
// CHECK-NEXT: BuiltinVarExpr {{.*}} '__tid'
  @lat[__pname] = hist(x);
// CHECK:      AggregationExpr <[[#@LINE-1]]:3, [[#@LINE-1]]:15> '@lat' keys=1
  @total = count();
// CHECK:      AggregationExpr <[[#@LINE-1]]:3, [[#@LINE-1]]:3> '@total'{{$}}
// CHECK-NEXT: CallExpr <[[#@LINE-2]]:12, [[#@LINE-2]]:18> 'count'
  @h[] = lhist(x, 0, 100, 10);
// CHECK:      AggregationExpr {{.*}} '@h' keys=0
// CHECK-NEXT: CallExpr {{.*}} 'lhist'
  print(@lat, 10);
// CHECK:      CallExpr {{.*}} 'print'
// CHECK-NEXT: AggregationExpr {{.*}} '@lat'
// CHECK-NEXT: IntegerLiteral {{.*}} 10
  x = $1 + $12;
// CHECK:      ParamExpr <[[#@LINE-1]]:7, [[#@LINE-1]]:7> $1
// CHECK-NEXT: ParamExpr {{.*}} $12
}
