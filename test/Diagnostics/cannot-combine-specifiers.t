// Conflicting type keywords.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

long char c;
// CHECK: [[#@LINE-1]]:6: error: cannot combine with previous 'long' declaration specifier
