//===- StreamI386.cpp - The ILP32 clauses as i386 code ----------------------===//
//
// See ExtraStreams.h. The script is generated a second time into a module
// configured for i386 (so that host pointers, the context's and the helper
// table's, are 32 bits wide), everything but the ILP32 clauses of clauses
// that fire in processes is dropped, and the rest is compiled with the
// static relocation model: the runtime relocates the image for the one
// address it gets in each 32-bit process.
//
//===----------------------------------------------------------------------===//

#include "ExtraStreams.h"

#include "CodeGenModule.h"

#include "tscc/CodeGen/ObjectEmitter.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <cstring>

using namespace llvm;
using namespace tscc;

namespace {

Error internal(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(),
                           "internal error: the i386 stream: " + Msg);
}

/// Drops the LP64 stream and the ILP32 code of clauses that never run in a
/// process (BEGIN, END, interval: their ILP32 entries only mirror LP64).
void keepProcessClauses(Module &M, const ObjectTables &Tables) {
  StringMap<bool> Unwanted;
  for (uint32_t I = 0; I < Tables.Clauses.size(); ++I)
    if (Tables.Clauses[I].flags & TSCC_CLAUSE_NO_PROCESS)
      for (bool Pred : {true, false})
        Unwanted[clauseFunctionName(I, Pred, TSCC_DM_ILP32)] = true;
  std::vector<Function *> Dead;
  for (Function &F : M)
    if (F.getSection() == TSCC_SEC_TEXT_LP64 || Unwanted.count(F.getName()))
      Dead.push_back(&F);
  for (Function *F : Dead)
    F->dropAllReferences();
  for (Function *F : Dead)
    F->eraseFromParent();
  // Support functions only the dropped ones called.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Function &F : make_early_inc_range(M))
      if (!F.isDeclaration() && F.use_empty() &&
          !F.getName().starts_with("tscc_clause")) {
        F.eraseFromParent();
        Changed = true;
      }
  }
  SmallVector<GlobalValue *, 16> Used;
  for (Function &F : M)
    if (!F.isDeclaration() && F.getSection() == TSCC_SEC_TEXT_ILP32)
      Used.push_back(&F);
  appendToCompilerUsed(M, Used);
}

/// Each clause's offsets in the image's tscc_text_ilp32, from its symbols.
Expected<std::vector<tscc_stream_entry>> entriesOf(ArrayRef<char> Image,
                                                   uint32_t ClauseCount) {
  Expected<object::ELF32LEObjectFile> Obj = object::ELF32LEObjectFile::create(
      MemoryBufferRef(StringRef(Image.data(), Image.size()), "i386"));
  if (!Obj)
    return Obj.takeError();
  StringMap<std::pair<uint64_t, uint64_t>> Functions;
  for (const object::ELFSymbolRef &Sym : Obj->symbols()) {
    Expected<StringRef> Name = Sym.getName();
    Expected<object::section_iterator> Sec = Sym.getSection();
    if (!Name || !Sec)
      return internal("unreadable symbol table");
    if (!Name->starts_with("tscc_clause") || *Sec == Obj->section_end())
      continue;
    Expected<StringRef> SecName = (*Sec)->getName();
    Expected<uint64_t> Value = Sym.getValue();
    if (!SecName || !Value || *SecName != TSCC_SEC_TEXT_ILP32)
      return internal("clause function '" + *Name + "' outside the text");
    Functions[*Name] = {*Value, Sym.getSize()};
  }
  std::vector<tscc_stream_entry> Entries(ClauseCount);
  for (uint32_t I = 0; I < ClauseCount; ++I) {
    tscc_stream_entry &E = Entries[I];
    E = {TSCC_NO_CODE, 0, TSCC_NO_CODE, 0};
    auto Pred = Functions.find(clauseFunctionName(I, true, TSCC_DM_ILP32));
    auto Act = Functions.find(clauseFunctionName(I, false, TSCC_DM_ILP32));
    if (Pred != Functions.end()) {
      E.pred_offset = static_cast<uint32_t>(Pred->second.first);
      E.pred_size = static_cast<uint32_t>(Pred->second.second);
    }
    if (Act != Functions.end()) {
      E.action_offset = static_cast<uint32_t>(Act->second.first);
      E.action_size = static_cast<uint32_t>(Act->second.second);
    }
  }
  return Entries;
}

} // namespace

Expected<ExtraStream> tscc::buildI386Stream(const CodeGenInput &In,
                                            const CodeGenOptions &Opts) {
  Expected<std::unique_ptr<ObjectEmitter>> Emitter =
      ObjectEmitter::create(Opts, EmitterTarget::I386);
  if (!Emitter)
    return Emitter.takeError();
  LLVMContext Ctx;
  Ctx.setDiscardValueNames(true);
  Module M("i386", Ctx);
  (*Emitter)->configureModule(M);
  // No diagnostics: the script was checked and generated once already.
  CodeGenModule CGM(M, In.TheScript, In.Info, nullptr);
  if (!CGM.emitScript())
    return internal("code generation failed");
  ObjectTables Tables = CGM.buildTables(In.SourceName, In.SourceText);
  keepProcessClauses(M, Tables);
  if (Error E = (*Emitter)->optimize(M))
    return E;
  ExtraStream S;
  if (Error E = (*Emitter)->emitRaw(M, S.Image))
    return E;
  auto Clauses = static_cast<uint32_t>(Tables.Clauses.size());
  Expected<std::vector<tscc_stream_entry>> Entries =
      entriesOf(S.Image, Clauses);
  if (!Entries)
    return Entries.takeError();
  S.Entries = std::move(*Entries);
  S.Row.machine = ELF::EM_386;
  S.Row.data_model = TSCC_DM_ILP32;
  S.Row.elf_class = ELF::ELFCLASS32;
  S.Row.clause_count = Clauses;
  return S;
}

void tscc::addStreamSections(Module &M, ArrayRef<ExtraStream> Streams) {
  // tscc_streams: the table, the rows, then each row's entries;
  // tscc_stream_images: the images, each 16-aligned.
  std::vector<uint8_t> Table, Images;
  auto Append = [](std::vector<uint8_t> &V, const void *P, size_t N) {
    size_t At = V.size();
    V.resize(At + N);
    if (N)
      memcpy(V.data() + At, P, N);
  };
  tscc_stream_table Head{static_cast<uint32_t>(Streams.size()),
                         sizeof(tscc_stream)};
  Append(Table, &Head, sizeof(Head));
  uint64_t EntriesAt = sizeof(Head) + Streams.size() * sizeof(tscc_stream);
  for (const ExtraStream &S : Streams) {
    tscc_stream Row = S.Row;
    Images.resize((Images.size() + 15) & ~size_t(15));
    Row.image_offset = Images.size();
    Row.image_size = S.Image.size();
    Row.entries_offset = EntriesAt;
    Append(Images, S.Image.data(), S.Image.size());
    EntriesAt += S.Entries.size() * sizeof(tscc_stream_entry);
    Append(Table, &Row, sizeof(Row));
  }
  for (const ExtraStream &S : Streams)
    Append(Table, S.Entries.data(), S.Entries.size() * sizeof(S.Entries[0]));
  SmallVector<GlobalValue *, 2> Used;
  for (auto [Name, Bytes, Align] :
       {std::tuple<const char *, std::vector<uint8_t> *, unsigned>{
            TSCC_SEC_STREAMS, &Table, 8},
        {TSCC_SEC_STREAM_IMAGES, &Images, 16}}) {
    Constant *Init = ConstantDataArray::get(M.getContext(), *Bytes);
    auto *GV = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                                  GlobalValue::InternalLinkage, Init,
                                  std::string("__") + Name);
    GV->setSection(Name);
    GV->setAlignment(llvm::Align(Align));
    Used.push_back(GV);
  }
  appendToCompilerUsed(M, Used);
}
