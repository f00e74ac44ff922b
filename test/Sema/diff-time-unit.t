// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { long d; d = diff_time(1, 2, 1000); }
// CHECK: [[#@LINE-1]]:39: error: the unit of diff_time() must be NANOSECONDS, MICROSECONDS, MILLISECONDS or SECONDS
