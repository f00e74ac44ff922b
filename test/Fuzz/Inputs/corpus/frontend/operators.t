// C precedence and associativity.
// RUN: %tscc --dump-ast %s | FileCheck %s

@@BEGIN {
  x = a + b * c;
// CHECK:      AssignExpr {{.*}} '='
// CHECK-NEXT: DeclRefExpr {{.*}} 'x'
// CHECK-NEXT: BinaryOperator <[[#@LINE-3]]:7, [[#@LINE-3]]:15> '+'
// CHECK-NEXT: DeclRefExpr {{.*}} 'a'
// CHECK-NEXT: BinaryOperator <[[#@LINE-5]]:11, [[#@LINE-5]]:15> '*'
  x = a - b - c;
// CHECK:      BinaryOperator <[[#@LINE-1]]:7, [[#@LINE-1]]:15> '-'
// CHECK-NEXT: BinaryOperator <[[#@LINE-2]]:7, [[#@LINE-2]]:11> '-'
  x = y = z;
// CHECK:      AssignExpr <[[#@LINE-1]]:3, [[#@LINE-1]]:11> '='
// CHECK-NEXT: DeclRefExpr {{.*}} 'x'
// CHECK-NEXT: AssignExpr <[[#@LINE-3]]:7, [[#@LINE-3]]:11> '='
  x = a << 1 < b == c & d ^ e | f && g || h;
// CHECK:      BinaryOperator {{.*}} '||'
// CHECK-NEXT: BinaryOperator {{.*}} '&&'
// CHECK-NEXT: BinaryOperator {{.*}} '|'
// CHECK-NEXT: BinaryOperator {{.*}} '^'
// CHECK-NEXT: BinaryOperator {{.*}} '&'
// CHECK-NEXT: BinaryOperator {{.*}} '=='
// CHECK-NEXT: BinaryOperator {{.*}} '<'
// CHECK-NEXT: BinaryOperator {{.*}} '<<'
  x = c ? a : b ? d : e;
// CHECK:      ConditionalOperator <[[#@LINE-1]]:7, [[#@LINE-1]]:23>
// CHECK-NEXT: DeclRefExpr {{.*}} 'c'
// CHECK-NEXT: DeclRefExpr {{.*}} 'a'
// CHECK-NEXT: ConditionalOperator <[[#@LINE-4]]:15, [[#@LINE-4]]:23>
  x = -a * !b + ~c % *p;
// CHECK:      BinaryOperator {{.*}} '+'
// CHECK-NEXT: BinaryOperator {{.*}} '*'
// CHECK-NEXT: UnaryOperator {{.*}} prefix '-'
// CHECK:      UnaryOperator {{.*}} prefix '!'
// CHECK:      BinaryOperator {{.*}} '%'
// CHECK-NEXT: UnaryOperator {{.*}} prefix '~'
// CHECK:      UnaryOperator {{.*}} prefix '*'
  x = *p++ + ++q - r-- - --s + &t;
// CHECK:      UnaryOperator {{.*}} prefix '*'
// CHECK-NEXT: UnaryOperator {{.*}} postfix '++'
// CHECK:      UnaryOperator {{.*}} prefix '++'
// CHECK:      UnaryOperator {{.*}} postfix '--'
// CHECK:      UnaryOperator {{.*}} prefix '--'
// CHECK:      UnaryOperator {{.*}} prefix '&'
  x += 1; x -= 1; x *= 2; x /= 2; x %= 3; x <<= 1; x >>= 1; x &= 1; x ^= 1; x |= 1;
// CHECK: AssignExpr {{.*}} '+='
// CHECK: AssignExpr {{.*}} '-='
// CHECK: AssignExpr {{.*}} '*='
// CHECK: AssignExpr {{.*}} '/='
// CHECK: AssignExpr {{.*}} '%='
// CHECK: AssignExpr {{.*}} '<<='
// CHECK: AssignExpr {{.*}} '>>='
// CHECK: AssignExpr {{.*}} '&='
// CHECK: AssignExpr {{.*}} '^='
// CHECK: AssignExpr {{.*}} '|='
  x = (a + b) * c;
// CHECK:      BinaryOperator {{.*}} '*'
// CHECK-NEXT: ParenExpr <[[#@LINE-2]]:7, [[#@LINE-2]]:13>
// CHECK-NEXT: BinaryOperator {{.*}} '+'
}
