// '@@' alone is not a probe.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@ { }
// CHECK: [[#@LINE-1]]:1: error: expected a probe specification after '@@'
