// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@uft:*:a.out:main+8:entry { }
// CHECK: [[#@LINE-1]]:22: error: a FUNC+OFFSET probe takes no 'entry' or 'exit' field
