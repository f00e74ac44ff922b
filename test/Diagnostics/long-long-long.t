// Three longs.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

long long long x;
// CHECK: [[#@LINE-1]]:11: error: 'long long long' is too long
