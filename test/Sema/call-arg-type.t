// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@uft:*:a.out:main:entry { String s; s = get_userstring(__pname); }
// CHECK: [[#@LINE-1]]:57: error: argument 1 of 'get_userstring' must be a pointer (have 'String')
