// The -O1 clause pipeline optimises every clause up to 2048 basic blocks and
// leaves larger ones as emitted: SimplifyCFG and InstCombine are quadratic
// in the blocks of a deep `?:` chain (16,000 arms took 30 s, against 1.3 s
// with the gate), and no hand-written clause comes near the limit.
//
// 600 arms (602 blocks): optimised; the compare chain becomes switches.
// RUN: %python %S/../Diagnostics/Inputs/nesting.py ternary 600 > %t.small.t
// RUN: %tscc -S --emit-llvm -fbracket-depth=5000 %t.small.t -o - | FileCheck %s --check-prefix=SMALL
// SMALL-LABEL: define hidden void @tscc_clause0_action_lp64(
// SMALL: switch i64
//
// 700 arms (2102 blocks): as emitted, with its repeated loads of the
// context still there.
// RUN: %python %S/../Diagnostics/Inputs/nesting.py ternary 700 > %t.big.t
// RUN: %tscc -S --emit-llvm -fbracket-depth=5000 %t.big.t -o - | FileCheck %s --check-prefix=BIG
// BIG-LABEL: define hidden void @tscc_clause0_action_lp64(
// BIG: %globals.addr1 = getelementptr inbounds i8, ptr %ctx, i64 16
// BIG-NOT: switch
// BIG: {{^}}}
