// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@uft:*:a.out:main:entry when (within(__func)) { }
// CHECK: [[#@LINE-1]]:39: error: the argument of 'within' must be a string literal naming a function
