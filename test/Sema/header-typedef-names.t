// Typedef names a header declares are types to the parser whatever their
// spelling: `(word)-1` is a cast, `word *p;` a declaration, as in C; and a
// name ending in _t that nothing declares is not a type.
// RUN: %tscc %s -I %S/Inputs -o %t.o
// RUN: %tsrun %t.o | FileCheck %s
// RUN: printf '#include "words.h"\n@@BEGIN { printf("%%%%d\\n", (nosuch_t)-1); exit(); }\n' > %t.bad.t
// RUN: not %tscc -fsyntax-only -I %S/Inputs %t.bad.t 2>&1 | FileCheck %s --check-prefix=UNDECLARED
// CHECK: cast=1 sizeof(pair)=8 sizeof(word)=8 p=0
// UNDECLARED: error: use of undeclared identifier 'nosuch_t'
#include "words.h"

@@BEGIN {
  word *p = 0;
  printf("cast=%d sizeof(pair)=%d sizeof(word)=%d p=%ld\n", (word)-1 > 0,
         sizeof(pair), sizeof(word), (long)p);
  exit();
}
