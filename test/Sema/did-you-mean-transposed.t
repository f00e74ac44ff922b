// Two swapped letters are one edit (tscc/ClosestName.h, the rule tsrun's
// suggestions follow too), so even a three-letter name gets a suggestion.
// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { printf("%d\n", mni(1)); exit(); }
// CHECK: [[#@LINE-1]]:26: error: use of undeclared function 'mni'; did you mean 'min'?
@@uft:*:a.out:main:entry { printf("%d\n", __tdi); }
// CHECK: [[#@LINE-1]]:43: error: unknown built-in variable '__tdi'; did you mean '__tid'?
