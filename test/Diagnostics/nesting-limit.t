// Hostile nesting is a diagnostic, never a stack overflow: the parser stops
// at -fbracket-depth (default 1024) levels of expressions and statements,
// and so bounds every later walk over the tree. Each shape below crashed
// tscc with SIGSEGV and no output at a million levels.
//
// The shapes: a million parentheses and unary minuses, a 20,000-arm `?:`
// chain, a million-term sum (a left-associative chain parses in a loop but
// is as deep a tree as it is long) and a million nested blocks.
// RUN: bash -c 'for shape in "parens 1000000" "unary 1000000" \
// RUN:     "ternary 20000" "sum 1000000" "blocks 1000000"; do \
// RUN:   %python %S/Inputs/nesting.py $shape > %t.deep.t; \
// RUN:   echo "shape: $shape"; %tscc %t.deep.t -o %t.o 2> %t.err; \
// RUN:   echo "rc=$?"; grep -v "^ " %t.err; \
// RUN: done' > %t.out
// RUN: FileCheck %s --check-prefix=DEEP --input-file %t.out
//
// The source lines, megabytes long, are left out of %t.out.
// DEEP-LABEL: shape: parens
// DEEP-NEXT: rc=1
// DEEP: :3:{{[0-9]+}}: error: nesting level exceeded maximum of 1024
// DEEP: :3:{{[0-9]+}}: note: use -fbracket-depth=N to increase the maximum nesting level
// DEEP: 1 error generated.
// DEEP-LABEL: shape: unary
// DEEP-NEXT: rc=1
// DEEP: :3:{{[0-9]+}}: error: nesting level exceeded maximum of 1024
// DEEP: 1 error generated.
// DEEP-LABEL: shape: ternary
// DEEP-NEXT: rc=1
// DEEP: :3:{{[0-9]+}}: error: nesting level exceeded maximum of 1024
// DEEP: 1 error generated.
// DEEP-LABEL: shape: sum
// DEEP-NEXT: rc=1
// DEEP: :3:{{[0-9]+}}: error: nesting level exceeded maximum of 1024
// DEEP: 1 error generated.
// DEEP-LABEL: shape: blocks
// DEEP-NEXT: rc=1
// DEEP: :3:{{[0-9]+}}: error: nesting level exceeded maximum of 1024
// DEEP: 1 error generated.
//
// Just under the limit compiles; one more level does not; the option moves
// the limit. The statement, `x`, `=` and the right-hand side put the
// parentheses four levels deep.
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
