//===- DataModel.h - What a data model means for the target -----*- C++ -*-===//
//
// The DataModel enum, its index, widths and names are shared with the
// runtime in tscc/DataModel.h (next to abi.h); these helpers add what only
// the compiler needs: the Clang/LLVM triple and the LLVM data layout of the
// model's target. Never use the host's sizeof for a target type.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_SEMA_DATAMODEL_H
#define TSCC_SEMA_DATAMODEL_H

#include "tscc/DataModel.h"

#include "llvm/ADT/StringRef.h"

namespace tscc {

/// `i386-linux-gnu` for ILP32, `x86_64-linux-gnu` for LP64.
llvm::StringRef dataModelTriple(DataModel DM);
/// The LLVM data layout string Clang 19 uses for the model's triple.
llvm::StringRef dataModelDataLayout(DataModel DM);

} // namespace tscc

#endif // TSCC_SEMA_DATAMODEL_H
