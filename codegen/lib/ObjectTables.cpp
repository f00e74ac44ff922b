//===- ObjectTables.cpp - The abi.h tables of one object ------------------===//

#include "tscc/CodeGen/ObjectTables.h"
#include "tscc/CodeGen/CodeGenOptions.h"

#include "llvm/Config/llvm-config.h"

#include <cstring>

using namespace tscc;

// The emitter copies these structs byte for byte; pin the layouts abi.h
// promises so that a change to abi.h cannot silently change the wire format.
static_assert(sizeof(tscc_header) == 112, "tscc_header layout changed");
static_assert(sizeof(tscc_clause) == 56, "tscc_clause layout changed");
static_assert(sizeof(tscc_probe) == 48, "tscc_probe layout changed");
static_assert(sizeof(tscc_format) == 16, "tscc_format layout changed");
static_assert(sizeof(tscc_field) == 8, "tscc_field layout changed");
static_assert(sizeof(tscc_map) == 24, "tscc_map layout changed");
static_assert(sizeof(tscc_agg) == 48, "tscc_agg layout changed");
static_assert(sizeof(tscc_record) == 16, "tscc_record layout changed");

uint32_t ObjectStringTable::add(llvm::StringRef S) {
  S = S.take_until([](char C) { return C == '\0'; });
  if (S.empty())
    return 0;
  auto [It, Inserted] = Offsets.try_emplace(S, size());
  if (Inserted) {
    Data.insert(Data.end(), S.begin(), S.end());
    Data.push_back('\0');
  }
  return It->second;
}

std::string tscc::getCompilerVersionString() {
  return "tscc 0.1.0 (LLVM " LLVM_VERSION_STRING ")";
}

uint64_t tscc::fnv1a64(const char *Data, size_t Size) {
  uint64_t Hash = 0xcbf29ce484222325ULL;
  for (size_t I = 0; I != Size; ++I) {
    Hash ^= static_cast<unsigned char>(Data[I]);
    Hash *= 0x100000001b3ULL;
  }
  return Hash;
}

ObjectTables::ObjectTables() {
  // memset, not `{}`: the header has tail padding, and the bytes of the
  // object must not depend on what was on the stack.
  std::memset(&Header, 0, sizeof(Header));
  Header.global_align = 8;
  Header.thread_align = 8;
}

void ObjectTables::finishHeader(llvm::StringRef SourceName,
                                llvm::StringRef SourceText) {
  std::memcpy(Header.magic, TSCC_MAGIC, TSCC_MAGIC_SIZE);
  Header.abi_major = TSCC_ABI_MAJOR;
  Header.abi_minor = TSCC_ABI_MINOR;
  Header.header_size = sizeof(tscc_header);
  Header.source_hash = fnv1a64(SourceText.data(), SourceText.size());
  Header.source_name = Strings.add(SourceName);
  Header.compiler_version = Strings.add(getCompilerVersionString());
  Header.clause_count = static_cast<uint32_t>(Clauses.size());
  Header.probe_count = static_cast<uint32_t>(Probes.size());
  Header.format_count = static_cast<uint32_t>(Formats.size());
  Header.field_count = static_cast<uint32_t>(Fields.size());
  Header.map_count = static_cast<uint32_t>(Maps.size());
  Header.agg_count = static_cast<uint32_t>(Aggs.size());
  Header.within_count = static_cast<uint32_t>(Within.size());
  // Last: the strings added above must be counted.
  Header.strtab_size = Strings.size();
}

tscc_clause ObjectTables::makeClause(uint32_t Id) {
  tscc_clause C;
  std::memset(&C, 0, sizeof(C));
  C.id = Id;
  for (tscc_stream_entry &E : C.stream) {
    E.pred_offset = TSCC_NO_CODE;
    E.action_offset = TSCC_NO_CODE;
  }
  return C;
}

llvm::StringRef tscc::dataModelSuffix(tscc_data_model Model) {
  return Model == TSCC_DM_ILP32 ? "ilp32" : "lp64";
}

llvm::StringRef tscc::textSectionName(tscc_data_model Model) {
  return Model == TSCC_DM_ILP32 ? TSCC_SEC_TEXT_ILP32 : TSCC_SEC_TEXT_LP64;
}

std::string tscc::clauseFunctionName(uint32_t Clause, bool Predicate,
                                     tscc_data_model Model) {
  return "tscc_clause" + std::to_string(Clause) +
         (Predicate ? "_pred_" : "_action_") + dataModelSuffix(Model).str();
}
