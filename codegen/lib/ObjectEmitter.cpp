//===- ObjectEmitter.cpp - LLVM module to probe object --------------------===//

#include "tscc/CodeGen/ObjectEmitter.h"

#include "llvm-c/Target.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <mutex>

using namespace llvm;
using namespace tscc;

// Both code streams of the object are x86-64 code: they run in the tracer
// and in the in-process agent of 64-bit processes. Only the data model they
// interpret differs. The i386 stream (abi.h, tscc_streams) runs in the agent
// of 32-bit processes: every x86-64 machine has SSE2, so its floating point
// stays out of the x87 stack the program may be using.
const EmitterTarget EmitterTarget::Host = {"x86_64-linux-gnu", "x86-64", "",
                                           false};
const EmitterTarget EmitterTarget::I386 = {"i386-linux-gnu", "pentium4",
                                           "+sse2", true};

static void initializeX86Once() {
  static std::once_flag Flag;
  std::call_once(Flag, [] {
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86Target();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86AsmPrinter();
  });
}

// -O1, the default, is the clause pipeline below with the cheapest back-end
// level (FastISel and the fast register allocator): clause code is
// straight-line stores into a record and calls to helpers, which LLVM's
// generic O2 barely changes (docs/performance.md has the measurements).
// -O2 and -O3 remain LLVM's own pipelines.
static CodeGenOptLevel toCodeGenLevel(unsigned Level) {
  switch (Level) {
  case 0:
    return CodeGenOptLevel::None;
  case 1:
    // The machine passes of CodeGenOptLevel::Less cost three times what
    // the whole rest of the compilation does (0.75 s of 1.05 s at 500
    // clauses); -O2 is there for smaller code (docs/performance.md).
    return CodeGenOptLevel::None;
  case 2:
    return CodeGenOptLevel::Default;
  default:
    return CodeGenOptLevel::Aggressive;
  }
}

static OptimizationLevel toPipelineLevel(unsigned Level) {
  return Level >= 3 ? OptimizationLevel::O3 : OptimizationLevel::O2;
}

namespace {
/// Runs \p Passes only on functions of at most MaxBlocks basic blocks. The
/// clause pipeline is an optimisation, not a need, and SimplifyCFG and
/// InstCombine are quadratic in the blocks of a deep `?:` chain (8,000 arms:
/// 7.7 s, 16,000: 30 s, against 0.6 s without them). Straight-line code
/// stays optimised whatever its length; only a clause with more than
/// MaxBlocks blocks, far beyond any hand-written one, compiles unoptimised.
class SizeGatedPasses : public PassInfoMixin<SizeGatedPasses> {
public:
  static constexpr size_t MaxBlocks = 2048;
  explicit SizeGatedPasses(FunctionPassManager Passes)
      : Passes(std::move(Passes)) {}
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &FAM) {
    if (F.size() > MaxBlocks)
      return PreservedAnalyses::all();
    return Passes.run(F, FAM);
  }
  static bool isRequired() { return false; }

private:
  FunctionPassManager Passes;
};
} // namespace

/// The passes that earn their time on clause code: SROA puts the
/// codegen's allocas (locals, temporaries of ?: and &&) into registers,
/// EarlyCSE folds the repeated loads of the context and of globals'
/// addresses, InstCombine folds the casts between the two data models'
/// widths, and SimplifyCFG merges the blocks the statement emitter leaves.
/// Straight-line code costs them linear time: one clause of 100k
/// statements costs what 100k small clauses cost.
static ModulePassManager buildClausePipeline() {
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(EarlyCSEPass(/*UseMemorySSA=*/false));
  FPM.addPass(InstCombinePass());
  FPM.addPass(SimplifyCFGPass());
  ModulePassManager MPM;
  MPM.addPass(
      createModuleToFunctionPassAdaptor(SizeGatedPasses(std::move(FPM))));
  return MPM;
}

ObjectEmitter::ObjectEmitter(const CodeGenOptions &Opts,
                             std::unique_ptr<TargetMachine> TM)
    : Opts(Opts), TM(std::move(TM)) {}

ObjectEmitter::~ObjectEmitter() = default;

Expected<std::unique_ptr<ObjectEmitter>>
ObjectEmitter::create(const CodeGenOptions &Opts, const EmitterTarget &For) {
  initializeX86Once();
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(For.Triple, Err);
  if (!T)
    return createStringError(inconvertibleErrorCode(),
                             std::string("cannot initialise the ") +
                                 For.Triple + " target: " + Err);
  TargetOptions TO;
  // The IR is already optimised and clause code is mostly calls to helpers
  // and straight-line loads and stores, which FastISel selects as well as
  // SelectionDAG does, at a quarter less backend time. Anything FastISel
  // cannot handle falls back to SelectionDAG per block.
  TO.EnableFastISel = true;
  // Clause code has no exceptions and no unwinder; without unwind tables the
  // object carries no .eh_frame and no relocations the loader must apply to
  // it.
  std::unique_ptr<TargetMachine> TM(
      T->createTargetMachine(For.Triple, For.CPU, For.Features, TO,
                             For.Static ? Reloc::Static : Reloc::PIC_,
                             CodeModel::Small, toCodeGenLevel(Opts.OptLevel)));
  if (!TM)
    return createStringError(inconvertibleErrorCode(),
                             std::string("cannot create the ") + For.Triple +
                                 " target machine");
  return std::unique_ptr<ObjectEmitter>(new ObjectEmitter(Opts, std::move(TM)));
}

void ObjectEmitter::configureModule(Module &M) const {
  M.setTargetTriple(TM->getTargetTriple().str());
  M.setDataLayout(TM->createDataLayout());
}

static GlobalVariable *addSectionData(Module &M, StringRef Section,
                                      ArrayRef<uint8_t> Bytes,
                                      unsigned Alignment) {
  Constant *Init = ConstantDataArray::get(M.getContext(), Bytes);
  auto *GV = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                                GlobalValue::InternalLinkage, Init,
                                "__" + Section.str());
  GV->setSection(Section);
  GV->setAlignment(Align(Alignment));
  return GV;
}

template <typename T>
static ArrayRef<uint8_t> bytesOf(const std::vector<T> &V) {
  return {reinterpret_cast<const uint8_t *>(V.data()), V.size() * sizeof(T)};
}

void ObjectEmitter::addTables(Module &M, const ObjectTables &Tables) const {
  SmallVector<GlobalValue *, 16> Used;
  auto Add = [&](StringRef Section, ArrayRef<uint8_t> Bytes) {
    Used.push_back(addSectionData(M, Section, Bytes, 8));
  };
  Add(TSCC_SEC_HEADER,
      {reinterpret_cast<const uint8_t *>(&Tables.Header), sizeof(tscc_header)});
  Add(TSCC_SEC_CLAUSES, bytesOf(Tables.Clauses));
  Add(TSCC_SEC_PROBES, bytesOf(Tables.Probes));
  Add(TSCC_SEC_FORMATS, bytesOf(Tables.Formats));
  Add(TSCC_SEC_FIELDS, bytesOf(Tables.Fields));
  Add(TSCC_SEC_MAPS, bytesOf(Tables.Maps));
  Add(TSCC_SEC_AGGS, bytesOf(Tables.Aggs));
  Add(TSCC_SEC_WITHIN, bytesOf(Tables.Within));
  StringRef Str = Tables.Strings.data();
  Add(TSCC_SEC_STRTAB,
      {reinterpret_cast<const uint8_t *>(Str.data()), Str.size()});

  // Clause functions are reached only through the clause table, so nothing
  // in the module refers to them; llvm.compiler.used keeps them (and the
  // tables) through the optimiser. Not llvm.used: the backend would put
  // every retained global into its own section, and each tscc_* section
  // must be exactly one section. finalizeObject() sets SHF_GNU_RETAIN on
  // the sections instead.
  for (Function &F : M)
    if (!F.isDeclaration() && F.getSection().starts_with("tscc_text"))
      Used.push_back(&F);
  appendToCompilerUsed(M, Used);
}

/// Library calls the optimiser may not invent: the loader resolves only
/// memcpy/memset/memmove, which the backend still emits for the memory
/// intrinsics. Anything else (memcmp from MergeICmps, strlen, ...) would be
/// an unresolved symbol at load time.
static TargetLibraryInfoImpl makeLibraryInfo(const Triple &T) {
  TargetLibraryInfoImpl TLII(T);
  TLII.disableAllFunctions();
  return TLII;
}

Error ObjectEmitter::optimize(Module &M) const {
  if (Opts.VerifyModule) {
    std::string Msg;
    raw_string_ostream OS(Msg);
    if (verifyModule(M, &OS))
      return createStringError(inconvertibleErrorCode(),
                               "internal error: invalid IR: " + OS.str());
  }

  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  // Clause code is short straight-line code around helper calls, with only
  // the bounded string loops: vectorising and unrolling find nothing to do
  // but cost a good part of the compile time, so the pipeline skips them.
  PipelineTuningOptions PTO;
  PTO.LoopVectorization = false;
  PTO.SLPVectorization = false;
  PTO.LoopUnrolling = false;
  PTO.LoopInterleaving = false;
  PassBuilder PB(TM.get(), PTO);
  TargetLibraryInfoImpl TLII = makeLibraryInfo(TM->getTargetTriple());
  // Registered before the defaults, so this one wins.
  FAM.registerPass([&] { return TargetLibraryAnalysis(TLII); });
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);

  ModulePassManager MPM;
  if (Opts.OptLevel == 0)
    MPM = PB.buildO0DefaultPipeline(OptimizationLevel::O0);
  else if (Opts.OptLevel == 1)
    MPM = buildClausePipeline();
  else
    MPM = PB.buildPerModuleDefaultPipeline(toPipelineLevel(Opts.OptLevel));
  MPM.run(M, MAM);
  return Error::success();
}

Error ObjectEmitter::emitRaw(Module &M, SmallVectorImpl<char> &Out) const {
  Out.clear();
  raw_svector_ostream OS(Out);
  legacy::PassManager PM;
  TargetLibraryInfoImpl TLII = makeLibraryInfo(TM->getTargetTriple());
  PM.add(new TargetLibraryInfoWrapperPass(TLII));
  if (TM->addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::ObjectFile))
    return createStringError(inconvertibleErrorCode(),
                             "the " + TM->getTargetTriple().str() +
                                 " target cannot emit object files");
  PM.run(M);
  return Error::success();
}

Error ObjectEmitter::emit(Module &M, SmallVectorImpl<char> &Out) const {
  if (Error E = emitRaw(M, Out))
    return E;
  return finalizeClauseTable(MutableArrayRef<char>(Out.data(), Out.size()));
}

Error ObjectEmitter::emitAssembly(Module &M, raw_pwrite_stream &OS) const {
  legacy::PassManager PM;
  TargetLibraryInfoImpl TLII = makeLibraryInfo(TM->getTargetTriple());
  PM.add(new TargetLibraryInfoWrapperPass(TLII));
  if (TM->addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::AssemblyFile))
    return createStringError(inconvertibleErrorCode(),
                             "the x86-64 target cannot emit assembly");
  PM.run(M);
  return Error::success();
}
