// Model-dependent warnings are warnings; -Werror makes them errors.
// RUN: %tscc -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: not %tscc -fsyntax-only -Werror %s 2>&1 | FileCheck %s --check-prefix=ERR
int f(long len);
@@uft:*:a.out:f:entry { int n; n = __arg1; printf("%d\n", n); }
// WARN: [[#@LINE-1]]:34: warning: implicit conversion from 'long' to 'int' truncates the value in LP64 processes only
// ERR: [[#@LINE-2]]:34: error: implicit conversion from 'long' to 'int' truncates the value in LP64 processes only
