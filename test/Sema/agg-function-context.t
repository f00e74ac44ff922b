// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { long n; n = count(); }
// CHECK: [[#@LINE-1]]:23: error: 'count' can only be used as the value of an aggregation: '@name[keys] = count(...)'
