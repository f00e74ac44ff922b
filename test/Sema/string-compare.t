// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { if (__probe < "x") exit(); }
// CHECK: [[#@LINE-1]]:23: error: Strings can only be compared with '==' and '!='
