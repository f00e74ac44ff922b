// Wide and UTF string literals are rejected with the reason; prefixed
// character constants are accepted (Sema/dump-gcc-semantics.t).
// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN
{
  printf("%d\n", sizeof(L"wide"));
// CHECK: [[#@LINE-1]]:25: error: L"..." string literals are not supported: a script's strings are byte strings (String); write a plain "..." literal
  printf("%d\n", sizeof(u8"utf"));
// CHECK: [[#@LINE-1]]:25: error: u8"..." string literals are not supported
}
