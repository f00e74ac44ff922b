//===- LayoutDumper.h - --dump-layout ---------------------------*- C++ -*-===//
//
// Prints how a C type is laid out in each data model, in a line format a C
// program can reproduce with sizeof/offsetof/_Alignof (the layout tests do
// exactly that and diff the two):
//
//   ILP32 struct sigaction size=140 align=4
//     __sigaction_handler offset=0 size=4 type=union (unnamed at ...)
//     __sigaction_handler.sa_handler offset=0 size=4 type=__sighandler_t
//     sa_mask offset=4 size=128 type=__sigset_t
//     sa_mask.__val offset=4 size=128 count=32 elem_size=4 type=unsigned
//     long[32] flags bit_offset=35 bit_width=3 type=unsigned int
//   LP64 struct sigaction size=152 align=8
//     ...
//
// One header line per model, then one line per member in declaration order,
// depth first. Member paths are C member designators relative to the dumped
// type: nested records add `.name`; an array of records continues into its
// first element as `name[0].x`; members of anonymous struct/union members
// appear under their own names (as C accesses them), without a line for the
// anonymous member itself. Bit-fields give bit offset and width instead of
// offset and size. `type=` always ends the line.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_SEMA_LAYOUTDUMPER_H
#define TSCC_SEMA_LAYOUTDUMPER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tscc {

class CDeclarations;
class Type;

/// Prints the layout of one already resolved type (header line and
/// members), for the type's own data model.
void dumpTypeLayout(llvm::raw_ostream &OS, const Type *T);

/// Resolves \p TypeName (`struct X`, `union U`, a typedef name, any C type
/// name) in each of \p Models (normally ILP32 then LP64) and dumps it.
/// Fails, naming the model, if the name does not resolve to a complete
/// type.
llvm::Error dumpLayout(llvm::raw_ostream &OS, llvm::StringRef TypeName,
                       llvm::ArrayRef<CDeclarations *> Models);

} // namespace tscc

#endif // TSCC_SEMA_LAYOUTDUMPER_H
