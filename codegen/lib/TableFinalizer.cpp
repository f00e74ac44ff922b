//===- TableFinalizer.cpp - Write code offsets into tscc_clauses ----------===//
//
// LLVM decides where each clause function lands inside its text section only
// while it writes the object. Rather than describing those offsets with
// relocations (which every consumer would then have to apply), we read them
// back from the finished object's symbol table and store them as plain
// integers in the clause table.
//
//===----------------------------------------------------------------------===//

#include "tscc/CodeGen/ObjectEmitter.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

#include "llvm/Support/Endian.h"

#include <cstddef>
#include <cstring>

using namespace llvm;
using namespace llvm::object;
using namespace tscc;

namespace {

struct FunctionPlacement {
  std::string Section;
  uint64_t Offset;
  uint64_t Size;
};

Error malformed(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(),
                           "internal error: emitted object: " + Msg);
}

/// Every defined function symbol named tscc_clause*, by name.
Expected<StringMap<FunctionPlacement>>
collectClauseFunctions(const ELF64LEObjectFile &Obj) {
  StringMap<FunctionPlacement> Result;
  for (const ELFSymbolRef &Sym : Obj.symbols()) {
    Expected<StringRef> Name = Sym.getName();
    if (!Name)
      return Name.takeError();
    if (!Name->starts_with("tscc_clause"))
      continue;
    Expected<section_iterator> Sec = Sym.getSection();
    if (!Sec)
      return Sec.takeError();
    if (*Sec == Obj.section_end())
      return malformed("clause function '" + *Name + "' is undefined");
    Expected<StringRef> SecName = (*Sec)->getName();
    if (!SecName)
      return SecName.takeError();
    Expected<uint64_t> Value = Sym.getValue();
    if (!Value)
      return Value.takeError();
    Result[*Name] = {SecName->str(), *Value, Sym.getSize()};
  }
  return Result;
}

Expected<SectionRef> findSection(const ELF64LEObjectFile &Obj,
                                 StringRef Wanted) {
  for (const SectionRef &S : Obj.sections()) {
    Expected<StringRef> Name = S.getName();
    if (!Name)
      return Name.takeError();
    if (*Name == Wanted)
      return S;
  }
  return malformed("no section '" + Wanted + "'");
}

Error fillEntry(const StringMap<FunctionPlacement> &Functions, uint32_t Clause,
                tscc_data_model Model, tscc_stream_entry &Entry) {
  auto Lookup = [&](bool Pred, uint32_t &Offset, uint32_t &Size) -> Error {
    std::string Name = clauseFunctionName(Clause, Pred, Model);
    auto It = Functions.find(Name);
    if (It == Functions.end()) {
      if (!Pred)
        return malformed("clause " + Twine(Clause) + " has no function '" +
                         Name + "'");
      Offset = TSCC_NO_CODE;
      Size = 0;
      return Error::success();
    }
    const FunctionPlacement &P = It->second;
    if (P.Section != textSectionName(Model))
      return malformed("'" + Name + "' is in section '" + P.Section +
                       "', expected '" + textSectionName(Model) + "'");
    if (P.Offset >= TSCC_NO_CODE || P.Size > UINT32_MAX)
      return malformed("'" + Name + "' does not fit the clause table");
    Offset = static_cast<uint32_t>(P.Offset);
    Size = static_cast<uint32_t>(P.Size);
    return Error::success();
  };
  if (Error E = Lookup(/*Pred=*/true, Entry.pred_offset, Entry.pred_size))
    return E;
  return Lookup(/*Pred=*/false, Entry.action_offset, Entry.action_size);
}

} // namespace

/// Marks every tscc_* section SHF_GNU_RETAIN, so that a `--gc-sections`
/// link of the object keeps the tables and the code even though nothing
/// refers to them by symbol.
static Error retainTsccSections(const ELF64LEObjectFile &Obj,
                                MutableArrayRef<char> Object) {
  const auto &File = Obj.getELFFile();
  auto Sections = File.sections();
  if (!Sections)
    return Sections.takeError();
  for (const ELF64LE::Shdr &Sh : *Sections) {
    Expected<StringRef> Name = File.getSectionName(Sh);
    if (!Name)
      return Name.takeError();
    if (!Name->starts_with("tscc_"))
      continue;
    size_t At = reinterpret_cast<const char *>(&Sh) - Object.data() +
                offsetof(ELF64LE::Shdr, sh_flags);
    if (At + sizeof(uint64_t) > Object.size())
      return malformed("section header outside the object");
    uint64_t Flags = Sh.sh_flags | ELF::SHF_GNU_RETAIN;
    support::endian::write64le(Object.data() + At, Flags);
  }
  return Error::success();
}

Error tscc::finalizeClauseTable(MutableArrayRef<char> Object) {
  MemoryBufferRef Ref(StringRef(Object.data(), Object.size()), "probe.o");
  Expected<ELF64LEObjectFile> ObjOrErr = ELF64LEObjectFile::create(Ref);
  if (!ObjOrErr)
    return ObjOrErr.takeError();
  const ELF64LEObjectFile &Obj = *ObjOrErr;
  if (Error E = retainTsccSections(Obj, Object))
    return E;

  auto Functions = collectClauseFunctions(Obj);
  if (!Functions)
    return Functions.takeError();
  Expected<SectionRef> Clauses = findSection(Obj, TSCC_SEC_CLAUSES);
  if (!Clauses)
    return Clauses.takeError();

  // The section's bytes within our buffer: getContents() points into it.
  Expected<StringRef> Contents = Clauses->getContents();
  if (!Contents)
    return Contents.takeError();
  size_t Start = Contents->data() - Object.data();
  size_t Size = Contents->size();
  // A clause-less object still gets a (1-byte) placeholder section from
  // LLVM; only whole entries count.
  size_t Count = Size / sizeof(tscc_clause);
  if (Obj.getELFFile().getHeader().e_type != ELF::ET_REL)
    return malformed("not a relocatable object");

  for (size_t I = 0; I != Count; ++I) {
    char *At = Object.data() + Start + I * sizeof(tscc_clause);
    tscc_clause C;
    std::memcpy(&C, At, sizeof(C));
    for (int M = 0; M != TSCC_DM_COUNT; ++M)
      if (Error E = fillEntry(*Functions, C.id, static_cast<tscc_data_model>(M),
                              C.stream[M]))
        return E;
    std::memcpy(At, &C, sizeof(C));
  }
  return Error::success();
}
