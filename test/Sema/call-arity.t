// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { long t; t = diff_time(timestamp(), timestamp()); }
// CHECK: [[#@LINE-1]]:57: error: too few arguments to 'diff_time', expected 3, have 2
