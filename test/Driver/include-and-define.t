// -I DIR and -IDIR both add include directories; -D defines macros for the
// C declarations.
// RUN: %tscc -fsyntax-only -I %S/Inputs/include %s
// RUN: %tscc -fsyntax-only -I%S/Inputs/include -DEXTRA=3 %s
// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
// CHECK: drv-inc.h' file not found

#include "drv-inc.h"
@@BEGIN { printf("%d %d\n", (int)sizeof(struct from_include), FROM_INCLUDE); }
