// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
__auto int n;
// CHECK: [[#@LINE-1]]:1: error: '__auto' variables can only be declared inside an action
@@BEGIN { }
