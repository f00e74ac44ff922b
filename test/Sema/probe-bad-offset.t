// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@uft:*:a.out:main+0xzz { }
// CHECK: [[#@LINE-1]]:20: error: invalid offset '0xzz' in probe specification; expected a decimal or 0x-prefixed hexadecimal number
