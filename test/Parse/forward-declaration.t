// A forward declaration `struct s;` is a C declaration handed to Clang, and
// the struct can then be completed or used through pointers.
// RUN: %tscc --dump-ast %s | FileCheck %s
// RUN: %tscc --dump-layout 'struct list' %s | FileCheck %s --check-prefix=LAYOUT
// RUN: %tscc %s -o %t.o

struct node;
// CHECK: CDecl <[[#@LINE-1]]:1, [[#@LINE-1]]:12> tag 'node'
union cell;
// CHECK: CDecl {{.*}} tag 'cell'
struct list { struct node *head; union cell *spare; int n; };
// CHECK: CDecl {{.*}} tag 'list'
struct node { struct node *next; long value; };

// LAYOUT: ILP32 struct list size=12 align=4
// LAYOUT: LP64 struct list size=24 align=8

@@BEGIN { printf("%d %d\n", sizeof(struct list), sizeof(struct node)); }
