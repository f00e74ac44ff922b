// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { printf("%p\n", &__datamodel); }
// CHECK: [[#@LINE-1]]:26: error: cannot take the address of an rvalue of type 'int'
