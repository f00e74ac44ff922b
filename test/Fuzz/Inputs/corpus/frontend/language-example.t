// The example of the language reference parses completely.
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
    printf("%d-bit pid %d req %d name %s (sizeof req %d)\n",
           __datamodel, __pid, __arg1->id, get_userstring(__arg1->name), sizeof(struct req));
}

@@uft:*:a.out:handle:exit
{
    @lat[__pname] = hist(diff_time(t0, timestamp(), MICROSECONDS));
}

@@uft:*:*:sigaction:entry
when (__arg2 != 0)
{
    printf("sig %d handler %p\n", __arg1, __arg2->sa_handler);
}

@@END { printf("total %ld\n", total); }

// CHECK:      Script
// CHECK-NEXT: |-CDecl <4:1, 4:1> directive '<signal.h>'
// CHECK-NEXT: |-CDecl <5:1, 5:45> tag 'req'
// CHECK-NEXT: |-CDecl <6:1, 6:37> prototype 'handle'
// CHECK-NEXT: |-CDecl {{.*}} prototype 'sigaction'
// CHECK-NEXT: |-PrototypeName <6:5> 'handle'
// CHECK-NEXT: |-PrototypeName <7:5> 'sigaction'
// CHECK-NEXT: |-VarDecl {{.*}} total __global
// CHECK-NEXT: | `-TypeSpec {{.*}} 'long'
// CHECK-NEXT: |-VarDecl {{.*}} t0 __thread
// CHECK:      |-Clause {{.*}} index=0
// CHECK-NEXT: | |-ProbeSpec {{.*}} '@@BEGIN' provider=BEGIN
// CHECK:      |-Clause {{.*}} index=1 when=
// CHECK-NEXT: | |-ProbeSpec {{.*}} '@@uft:*:a.out:handle:entry' provider=uft
// CHECK:      | |-BinaryOperator {{.*}} '>'
// CHECK-NEXT: | | |-MemberExpr {{.*}} ->len
// CHECK-NEXT: | | | `-BuiltinVarExpr {{.*}} '__arg1'
// CHECK:      |       `-SizeofExpr {{.*}} type
// CHECK-NEXT: |         `-TypeSpec {{.*}} 'struct req'
// CHECK:      |-Clause {{.*}} index=2
// CHECK:      |       |-AggregationExpr {{.*}} '@lat' keys=1
// CHECK-NEXT: |       | `-BuiltinVarExpr {{.*}} '__pname'
// CHECK-NEXT: |       `-CallExpr {{.*}} 'hist'
// CHECK-NEXT: |         `-CallExpr {{.*}} 'diff_time'
// CHECK:      |           `-DeclRefExpr {{.*}} 'MICROSECONDS'
// CHECK:      |-Clause {{.*}} index=3 when=
// CHECK:      `-Clause {{.*}} index=4
// CHECK-NEXT:   |-ProbeSpec {{.*}} '@@END' provider=END
