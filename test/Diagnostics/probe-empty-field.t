// A probe specification with an empty field.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@uft:*::handle:entry { }
// CHECK: [[#@LINE-1]]:9: error: empty field 3 in probe specification
