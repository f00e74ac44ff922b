//===- tscc/DataModel.h - The data models, for compiler and runtime -*- C++ -*-//
//
// The one definition of a data model for both sides of abi.h: the compiler
// (AST type slots, sema, codegen) and the runtime (targets, output). It is
// LLVM-free, like everything next to abi.h. A DataModel's value is its
// TSCC_DM_* number, which is also the index of its slot in every per-model
// array (`stream[]`, `thread_size[]`, AST type slots): index with
// modelIndex(), never with a cast of one's own.
//
// What only the compiler needs (triples, LLVM data layouts) lives in
// tscc/Sema/DataModel.h.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_DATAMODEL_H
#define TSCC_DATAMODEL_H

#include "tscc/abi.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace tscc {

enum class DataModel : uint8_t { ILP32 = TSCC_DM_ILP32, LP64 = TSCC_DM_LP64 };

/// Number of data models; the size of per-model arrays.
inline constexpr unsigned NumDataModels = TSCC_DM_COUNT;

/// Both models, in index order, for range-for loops.
inline constexpr DataModel AllDataModels[NumDataModels] = {DataModel::ILP32,
                                                           DataModel::LP64};

/// The model's slot in a per-model array; equal to its TSCC_DM_* number.
constexpr unsigned modelIndex(DataModel DM) {
  return static_cast<unsigned>(DM);
}

/// The model a TSCC_DM_* number (tscc_ctx::data_model, a trace's field)
/// names; nullopt for anything else.
constexpr std::optional<DataModel> dataModelFromIndex(uint32_t Index) {
  switch (Index) {
  case TSCC_DM_ILP32:
    return DataModel::ILP32;
  case TSCC_DM_LP64:
    return DataModel::LP64;
  }
  return std::nullopt;
}

/// Size of a target pointer (and of `long`, `size_t`), in bytes.
constexpr unsigned dataModelPointerSize(DataModel DM) {
  return DM == DataModel::ILP32 ? 4 : 8;
}
/// Size of `long` in bytes.
constexpr unsigned dataModelLongSize(DataModel DM) {
  return dataModelPointerSize(DM);
}
/// The `__datamodel` value a script sees: 32 or 64.
constexpr unsigned dataModelBits(DataModel DM) {
  return dataModelPointerSize(DM) * 8;
}

/// "ILP32" or "LP64", as diagnostics, dumps and traces spell a model.
constexpr const char *dataModelName(DataModel DM) {
  return DM == DataModel::ILP32 ? "ILP32" : "LP64";
}
/// "i386" or "x86-64": the architecture of the model's processes.
constexpr const char *dataModelArchName(DataModel DM) {
  return DM == DataModel::ILP32 ? "i386" : "x86-64";
}

/// Parses "ILP32"/"LP64" (case-insensitive); nullopt otherwise.
constexpr std::optional<DataModel> parseDataModel(std::string_view Name) {
  for (DataModel DM : AllDataModels) {
    std::string_view Want = dataModelName(DM);
    if (Name.size() != Want.size())
      continue;
    bool Same = true;
    for (size_t I = 0; I < Name.size() && Same; ++I) {
      char C = Name[I];
      if (C >= 'a' && C <= 'z')
        C = static_cast<char>(C - 'a' + 'A');
      Same = C == Want[I];
    }
    if (Same)
      return DM;
  }
  return std::nullopt;
}

// The runtime's namespace sees the same definitions.
namespace rt {
using ::tscc::AllDataModels;
using ::tscc::DataModel;
using ::tscc::dataModelArchName;
using ::tscc::dataModelBits;
using ::tscc::dataModelFromIndex;
using ::tscc::dataModelName;
using ::tscc::dataModelPointerSize;
using ::tscc::modelIndex;
using ::tscc::NumDataModels;
using ::tscc::parseDataModel;
} // namespace rt

} // namespace tscc

#endif // TSCC_DATAMODEL_H
