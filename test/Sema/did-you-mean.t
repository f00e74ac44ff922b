// Misspelled built-ins get Clang-style "did you mean" suggestions; names
// too far from any built-in get none.
// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { prinf("%d\n", 1); exit(); }
// CHECK: [[#@LINE-1]]:11: error: use of undeclared function 'prinf'; did you mean 'printf'?
@@uft:*:a.out:main:entry { printf("%d %d\n", __pidd, __arg9); get_userstrnig(__arg1); }
// CHECK: [[#@LINE-1]]:46: error: unknown built-in variable '__pidd'; did you mean '__pid'?
// CHECK: [[#@LINE-2]]:54: error: '__arg9' exists only in USDT probes; function probes have __arg1 to __arg8
// CHECK: [[#@LINE-3]]:63: error: use of undeclared function 'get_userstrnig'; did you mean 'get_userstring'?
@@uft:*:a.out:main:exit { printf("%d\n", __datamdoel); frobnicate(); }
// CHECK: [[#@LINE-1]]:42: error: unknown built-in variable '__datamdoel'; did you mean '__datamodel'?
// CHECK: [[#@LINE-2]]:56: error: use of undeclared function 'frobnicate'; scripts can only call built-in functions
