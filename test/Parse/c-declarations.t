// C declarations are collected verbatim with the name they declare;
// everything else at top level is a script variable.
// RUN: %tscc --dump-ast %s | FileCheck %s

#include <signal.h>
// CHECK: CDecl <[[#@LINE-1]]:1, [[#@LINE-1]]:1> directive '<signal.h>'
#include "local.h"
// CHECK: CDecl {{.*}} directive '"local.h"'
#define BUFSZ (4096 * 2)
// CHECK: CDecl {{.*}} directive 'BUFSZ'
#define ADD(a, b) \
    ((a) + (b))
// CHECK: CDecl <[[#@LINE-2]]:1, [[#@LINE-2]]:1> directive 'ADD'
typedef unsigned long my_size;
// CHECK: CDecl <[[#@LINE-1]]:1, [[#@LINE-1]]:30> typedef 'my_size'
typedef struct { int a; } anon_t, *anon_p;
// CHECK: CDecl {{.*}} typedef 'anon_t'
typedef int (*handler_fn)(int sig);
// CHECK: CDecl {{.*}} typedef 'handler_fn'
struct __attribute__((packed)) pk {
  char c;
  int bits : 3;
  struct { int y; } inner;
  long arr[4];
};
// CHECK: CDecl <[[#@LINE-6]]:1, [[#@LINE-1]]:2> tag 'pk'
union u { int i; char c[4]; };
// CHECK: CDecl {{.*}} tag 'u'
enum color { RED, GREEN = 2 };
// CHECK: CDecl {{.*}} tag 'color'
int handle(struct req *r, int flags);
// CHECK: CDecl {{.*}} prototype 'handle'
void (*signal(int, void (*)(int)))(int);
// CHECK: CDecl {{.*}} prototype 'signal'
my_size strlen(const char *s) __attribute__((pure));
// CHECK: CDecl {{.*}} prototype 'strlen'
int printf(const char *, ...);
// CHECK: CDecl {{.*}} prototype 'printf'

// CHECK:      PrototypeName <[[#@LINE-9]]:5> 'handle'
// CHECK-NEXT: PrototypeName <[[#@LINE-8]]:8> 'signal'
// CHECK-NEXT: PrototypeName <[[#@LINE-7]]:9> 'strlen'
// CHECK-NEXT: PrototypeName <[[#@LINE-6]]:5> 'printf'

struct req *current;
// CHECK: VarDecl {{.*}} current __global implicit
// CHECK-NEXT: TypeSpec {{.*}} 'struct req *'
