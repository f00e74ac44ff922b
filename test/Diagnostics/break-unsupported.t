// Jumps other than return are rejected.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  break;
// CHECK: [[#@LINE-1]]:3: error: 'break' statements are not supported in trace scripts
}
