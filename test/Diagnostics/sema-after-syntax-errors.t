// After syntax errors the type checker still checks what the parser
// recovered, so a user sees every class of error in one run (as with
// Clang); no object is written.
// RUN: rm -f %t.o
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s
// RUN: not test -e %t.o
struct req { int id; long len; };
int handle(struct req *r);
__global long total;
@@uft:*:a.out:handle:entry
{
    total += __arg1->len
    printf("%d\n", __arg1->length);
}
@@uft:*:a.out:handle:exit
{
    prinf("x %d\n", total;
}
@@END { printf("%s\n", total); }
// CHECK: sema-after-syntax-errors.t:12:25: error: expected ';' after expression
// CHECK: sema-after-syntax-errors.t:17:26: error: expected ')'
// CHECK: sema-after-syntax-errors.t:13:28: error: no member named 'length' in 'struct req'
// CHECK: sema-after-syntax-errors.t:17:5: error: use of undeclared function 'prinf'; did you mean 'printf'?
// CHECK: sema-after-syntax-errors.t:19:17: error: format specifies a String but the argument has type 'long'
// CHECK: 5 errors generated.
