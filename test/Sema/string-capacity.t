// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
__global String big[100000];
// CHECK: [[#@LINE-1]]:21: error: String capacity must be an integer constant from 1 to 4096
@@BEGIN { }
