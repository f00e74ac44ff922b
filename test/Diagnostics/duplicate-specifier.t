// A repeated type keyword.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

unsigned unsigned x;
// CHECK: [[#@LINE-1]]:10: error: duplicate 'unsigned' declaration specifier
