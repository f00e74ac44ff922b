// A macro's expansion stops at 65536 tokens with a diagnostic. A chain of
// doubling macros is the classic blow-up: depth 20 took 17 s and 2.5 GB,
// depth 39 (a 1 KB script, 2^41 tokens) never finished.
//
// RUN: %python %S/Inputs/macro-chain.py 39 A39 A14 A3 > %t.deep.t
// RUN: not %tscc -fsyntax-only %t.deep.t 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: :42:16: error: expansion of macro 'A39' exceeds 65536 tokens
// An abandoned expansion leaves every macro usable: A14 and A3 still fold.
// DEEP-NOT: error
// DEEP: 1 error generated.
//
// The largest doubling that fits (65533 tokens) compiles and folds.
// RUN: %python %S/Inputs/macro-chain.py 14 A14 > %t.fits.t
// RUN: %tscc --dump-sema %t.fits.t | FileCheck %s --check-prefix=FITS
// FITS: DeclRefExpr 'A14' {{.*}} = 16384
// RUN: %python %S/Inputs/macro-chain.py 15 A15 > %t.over.t
// RUN: not %tscc -fsyntax-only %t.over.t 2>&1 | FileCheck %s --check-prefix=OVER
// OVER: error: expansion of macro 'A15' exceeds 65536 tokens
