// Hostile nesting is a diagnostic, never a stack overflow: the parser stops
// at -fbracket-depth (default 1024) levels of expressions and statements,
// and so bounds every later walk over the tree. Each shape below crashed
// tscc with SIGSEGV and no output at a million levels.
//
// RUN: %python %S/Inputs/nesting.py parens 1000000 > %t.parens.t
// RUN: bash -c '%tscc %t.parens.t -o %t.o; echo "rc=$?"' > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=DEEP --input-file %t.out
// RUN: %python %S/Inputs/nesting.py unary 1000000 > %t.unary.t
// RUN: bash -c '%tscc %t.unary.t -o %t.o; echo "rc=$?"' > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=DEEP --input-file %t.out
// RUN: %python %S/Inputs/nesting.py ternary 20000 > %t.ternary.t
// RUN: bash -c '%tscc %t.ternary.t -o %t.o; echo "rc=$?"' > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=DEEP --input-file %t.out
// A left-associative chain parses in a loop but is as deep a tree as it
// is long.
// RUN: %python %S/Inputs/nesting.py sum 1000000 > %t.sum.t
// RUN: bash -c '%tscc %t.sum.t -o %t.o; echo "rc=$?"' > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=DEEP --input-file %t.out
// RUN: %python %S/Inputs/nesting.py blocks 1000000 > %t.blocks.t
// RUN: bash -c '%tscc %t.blocks.t -o %t.o; echo "rc=$?"' > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=DEEP --input-file %t.out
//
// DEEP: :3:{{[0-9]+}}: error: nesting level exceeded maximum of 1024
// DEEP: :3:{{[0-9]+}}: note: use -fbracket-depth=N to increase the maximum nesting level
// DEEP: 1 error generated.
// DEEP-NEXT: rc=1
//
// Just under the limit compiles; one more level does not; the option moves
// the limit. `x = (...)` is four levels around the parentheses.
// RUN: %python %S/Inputs/nesting.py parens 1020 > %t.under.t
// RUN: %tscc %t.under.t -o %t.o
// RUN: %python %S/Inputs/nesting.py parens 1021 > %t.over.t
// RUN: not %tscc %t.over.t -o %t.o 2>&1 | FileCheck %s --check-prefix=OVER
// RUN: %tscc -fbracket-depth=1025 %t.over.t -o %t.o
// RUN: not %tscc -fbracket-depth=20 %t.under.t -o %t.o 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: not %tscc -fbracket-depth=0 %t.under.t -o %t.o 2>&1 | FileCheck %s --check-prefix=ZERO
//
// OVER: :3:1028: error: nesting level exceeded maximum of 1024
// SMALL: :3:24: error: nesting level exceeded maximum of 20
// ZERO: error: invalid value '0' in '-fbracket-depth=0'
