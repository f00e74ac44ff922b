// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@uft:x12:a.out:main:entry { }
// CHECK: [[#@LINE-1]]:7: error: invalid process id 'x12' in probe specification; expected '*', a process id or $N
