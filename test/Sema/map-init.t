// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
__global long bytes[String] = 0;
// CHECK: [[#@LINE-1]]:31: error: an associative array cannot have an initializer
@@BEGIN { }
