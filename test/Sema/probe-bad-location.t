// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@uft:*:a.out:main:entyr { }
// CHECK: [[#@LINE-1]]:20: error: expected 'entry' or 'exit' in probe specification, not 'entyr'
