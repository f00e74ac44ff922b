//===- DataModel.h - What a data model means for the target -----*- C++ -*-===//
//
// The DataModel enum lives in Basic so the AST can index per-model slots;
// these helpers describe a model the way the rest of the compiler needs it:
// the Clang/LLVM triple, the LLVM data layout of that target, pointer and
// `long` widths, and the printable name. Never use the host's sizeof for a
// target type.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_SEMA_DATAMODEL_H
#define TSCC_SEMA_DATAMODEL_H

#include "tscc/Basic/DataModel.h"

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace tscc {

/// `i386-linux-gnu` for ILP32, `x86_64-linux-gnu` for LP64.
llvm::StringRef dataModelTriple(DataModel DM);
/// "ILP32" or "LP64".
llvm::StringRef dataModelName(DataModel DM);
/// Parses "ILP32"/"LP64" (case-insensitive); nullopt otherwise.
std::optional<DataModel> parseDataModel(llvm::StringRef Name);
/// The LLVM data layout string Clang 19 uses for the model's triple.
llvm::StringRef dataModelDataLayout(DataModel DM);
/// Size of a target pointer (and of `long`, `size_t`), in bytes.
unsigned dataModelPointerSize(DataModel DM);
/// Size of `long` in bytes.
inline unsigned dataModelLongSize(DataModel DM) {
  return dataModelPointerSize(DM);
}
/// The `__datamodel` value a script sees: 32 or 64.
inline unsigned dataModelBits(DataModel DM) {
  return dataModelPointerSize(DM) * 8;
}

} // namespace tscc

#endif // TSCC_SEMA_DATAMODEL_H
