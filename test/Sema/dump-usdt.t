// RUN: %tscc --dump-sema %s | FileCheck %s
// A USDT probe's fields: MODULE, PROVIDER and NAME, each exact, a glob or
// a regex.
@@usdt:$1:libfoo.so:/^demo/:tick* { }
// CHECK: probe usdt pid $1 module exact 'libfoo.so' function glob 'tick*' provider regex '^demo'
