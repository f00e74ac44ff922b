//===- tscc/Basic/DataModel.h - Target data models --------------*- C++ -*-===//
//
// The data models a script is compiled for. The enum lives in Basic so that
// the AST can carry one type slot per model without depending on sema; the
// helpers that describe a model (triple, pointer size, ...) live in
// tscc/Sema/DataModel.h.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_BASIC_DATAMODEL_H
#define TSCC_BASIC_DATAMODEL_H

#include <cstdint>

namespace tscc {

/// Same numbering as TSCC_DM_* in abi.h.
enum class DataModel : uint8_t { ILP32 = 0, LP64 = 1 };

/// Number of data models; the size of per-model arrays.
inline constexpr unsigned NumDataModels = 2;

/// Both models, in table order, for range-for loops.
inline constexpr DataModel AllDataModels[NumDataModels] = {DataModel::ILP32,
                                                           DataModel::LP64};

} // namespace tscc

#endif // TSCC_BASIC_DATAMODEL_H
