// A block comment that never ends.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN { } /* no end
// CHECK: [[#@LINE-1]]:13: error: unterminated /* comment
