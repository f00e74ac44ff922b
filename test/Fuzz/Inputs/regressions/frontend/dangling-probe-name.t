// C precedence and associativity.
// RUN: %tscc --dump-ast %s | FileCheck %s

@@BEGIN {
  x = a + b * c;
// CHECK:      AssignExpr {{.*}} '='
// CHECK-NEXT: DeclRefExpr {{.*}} 'x'
// CHperator <[[#@LINE-3]]:7, [[#@LINE-3]]:15> '+'
// CHECK-NEXT: DeclRefExpr {{.*}} 'a'
// CHECK-NEXT: BinaryOpera+or <[[#@LINE-5]]:11, [[#@LINE-5]]:15> '*'
  x = a - b - c;
// CHECK:      BinaryOperator <[[#@LINE-1]]:7, [[#@LINE-1]]:15> '-'
// CHECK-NEXT: BinaryOperator <[[#@LINE-2]]:7, [[#@LINE-2]]:11> '-'
  x = y = z;
// CHECK:      AssignExpr // The example try
when (__arg1->len > 0)
{
    t0 = timestamp();of the language reference parses completely.
// RUN: %tscc --dump-ast %s | FileCheck %s

#include <signal.h>
struct req { int id; long len; char *name; };
int handle(struct req *r, int flags);
int sigaction(int, const struct sigaction *, struct sigaction *);

__global long total;
__thread long t0;

@@BEGIN { printf("tracing...\n"); }

@@uft:*:a.out:handle:entry
when (__arg1->len > 0)
{
    t0 = timestamp();
    total += __arg1->len;
    <[[#@LINE-1]]:3, [[#@LINE-1]]:11> '='
// CHECK-NEXT: DeclRefExpr {{.*}} 'x'
// CHECK-NEXT: AssignExpr <[[#@LINE-3]]:7, [[#@LINE-3]]ECK-NEXT: BinaryOperator <[[#@LINE-3]]:7, [[#@LINE-3]]:15> '+'
// CHECK-NEXT: DeclRefExpr {{.*}} 'a'
// CHECK-NEXT: BinaryOpera+or <[[#@LINE-5]]:11, [[#@LINE-5]]:15> '*'
  x = a - b - c;
// CHECK:      BinaryOperator <[[#@LINE-1]]:7, [[#@LINE-1]]:15> '-'
// CHECK-NEXT: BinaryOperator <[[#@LINE-2]]:7, [[#@LINE-2]]:11> '-'
  x = y = z;
// CHECK:      AssignExpr // The example of the language reference parses completely.
// RUN: %tscc --dump-ast %s | FileCheck %s

#include <signal.h>
struct req { int id; long len; char *name; };
int handle(struct req *r, int flags);
int sigaction(int, const struct sigaction *, struct sigaction *);

__global long total;
__thread long t0;

@@BEGIN { printf("tracing...\n"); }

@@uft:*:a.out:handle:entry
when (__arg1->len > 0)
{
    t0 = timestamp();
    total += __arg1->len;
    <[[#@LINE-1]]:3, [[#@LINE-1]]:11> '='
// CHECK-NEXT: DeclRefExpr {{.*}} 'x'
// CHECK-NEXT: AssignExpr <[[#@LINE-3]]:7, [[#@LINE-3]]:1printf1>( 