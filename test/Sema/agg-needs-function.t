// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { @n = 5; }
// CHECK: [[#@LINE-1]]:16: error: an aggregation can only be assigned an aggregation function (count, sum, min, max, avg, stats, hist, lhist)
