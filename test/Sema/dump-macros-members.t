// Object-like macros are folded per model; macro member names (glibc's
// sa_handler) and anonymous members resolve to per-model offsets.
// RUN: %tscc --dump-sema %s 2>&1 | FileCheck %s
#include <signal.h>
#include <fcntl.h>
struct ev { int kind; union { long l; char *p; }; long long stamp; };
int sigaction(int, const struct sigaction *, struct sigaction *);
int handle(struct ev *e);

@@uft:*:*:sigaction:entry
when (__arg1 == SIGINT && __arg2 != 0)
{
  printf("%p %d\n", __arg2->sa_handler, O_CREAT);
}
// CHECK: [[#@LINE-4]]:17 DeclRefExpr 'SIGINT' ILP32 'int' = 2 LP64 'int' = 2
// CHECK: [[#@LINE-3]]:21 MemberExpr '->sa_handler' ILP32 '__sighandler_t' @0 LP64 '__sighandler_t' @0
// CHECK: [[#@LINE-4]]:41 DeclRefExpr 'O_CREAT' ILP32 'int' = 64 LP64 'int' = 64

@@uft:*:a.out:handle:entry
{
  printf("%p %lld %d\n", __arg1->p, __arg1->stamp, offsetof(struct ev, stamp));
}
// i386 aligns long long members to 4.
// CHECK: [[#@LINE-3]]:26 MemberExpr '->p' ILP32 'char *' @4 LP64 'char *' @8
// CHECK: [[#@LINE-4]]:37 MemberExpr '->stamp' ILP32 'long long' @8 LP64 'long long' @16
// CHECK: [[#@LINE-5]]:52 OffsetofExpr ILP32 'unsigned int' = 8 LP64 'unsigned long' = 16
