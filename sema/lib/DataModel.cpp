//===- DataModel.cpp - Data model helpers ---------------------------------===//

#include "tscc/Sema/DataModel.h"

#include "llvm/Support/ErrorHandling.h"

using namespace tscc;

llvm::StringRef tscc::dataModelTriple(DataModel DM) {
  switch (DM) {
  case DataModel::ILP32:
    return "i386-linux-gnu";
  case DataModel::LP64:
    return "x86_64-linux-gnu";
  }
  llvm_unreachable("bad data model");
}

llvm::StringRef tscc::dataModelDataLayout(DataModel DM) {
  // What clang-19 -target <triple> -emit-llvm writes; a unit test checks
  // these against Clang's TargetInfo so they cannot drift.
  switch (DM) {
  case DataModel::ILP32:
    return "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i128:128-f64:32:64-"
           "f80:32-n8:16:32-S128";
  case DataModel::LP64:
    return "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-"
           "n8:16:32:64-S128";
  }
  llvm_unreachable("bad data model");
}
