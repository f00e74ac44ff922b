// RUN: %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { printf("%ls\n", __probe); }
// CHECK: [[#@LINE-1]]:19: warning: length modifier 'l' results in undefined behavior or no effect with 's' conversion specifier
