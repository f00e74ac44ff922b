//===- LayoutDumper.cpp - --dump-layout -----------------------------------===//

#include "tscc/Sema/LayoutDumper.h"
#include "tscc/Basic/PerModelDiagnosticMerger.h"
#include "tscc/Sema/CDeclarations.h"
#include "tscc/Sema/Type.h"
#include "tscc/Sema/TypeContext.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace tscc;

static void dumpMembers(llvm::raw_ostream &OS, const RecordType *R,
                        const std::string &Prefix, uint64_t BaseBits);

/// One member line, then the members inside it.
static void dumpMember(llvm::raw_ostream &OS, const Field &F,
                       const std::string &Path, uint64_t Bits) {
  const Type *T = F.Ty;
  if (F.isBitField()) {
    OS << "  " << Path << " bit_offset=" << Bits << " bit_width=" << *F.BitWidth
       << " type=" << T->getName() << '\n';
    return;
  }
  OS << "  " << Path << " offset=" << Bits / 8 << " size=" << T->getSize();
  const auto *A = T->getAs<ArrayType>();
  if (A) {
    if (A->getNumElements())
      OS << " count=" << *A->getNumElements();
    OS << " elem_size=" << A->getElementType()->getSize();
  }
  OS << " type=" << T->getName() << '\n';

  // Records nested directly, or as the element of a (possibly
  // multi-dimensional) array: continue into the first element.
  std::string Sub = Path;
  const Type *Inner = T;
  while (const auto *Arr = Inner->getAs<ArrayType>()) {
    if (Arr->getNumElements().value_or(0) == 0)
      return;
    Sub += "[0]";
    Inner = Arr->getElementType();
  }
  if (const auto *R = Inner->getAs<RecordType>())
    dumpMembers(OS, R, Sub + ".", Bits);
}

static void dumpMembers(llvm::raw_ostream &OS, const RecordType *R,
                        const std::string &Prefix, uint64_t BaseBits) {
  for (const Field &F : R->fields()) {
    uint64_t Bits = BaseBits + F.BitOffset;
    if (F.isAnonymousMember()) {
      // C names these members as if they belonged to R.
      if (const auto *Anon = F.Ty->getAs<RecordType>())
        dumpMembers(OS, Anon, Prefix, Bits);
      continue;
    }
    dumpMember(OS, F, Prefix + F.Name, Bits);
  }
}

void tscc::dumpTypeLayout(llvm::raw_ostream &OS, const Type *T) {
  OS << dataModelName(T->getDataModel()) << ' ' << T->getName()
     << " size=" << T->getSize() << " align=" << T->getAlign() << '\n';
  if (const auto *R = T->getAs<RecordType>())
    dumpMembers(OS, R, "", 0);
}

/// \p TypeName as a complete type of \p Decls' model, or why not.
static llvm::Expected<const Type *> resolve(CDeclarations &Decls,
                                            llvm::StringRef TypeName) {
  llvm::Expected<const Type *> T = Decls.parseTypeName(TypeName);
  if (!T)
    return T.takeError();
  if (!(*T)->isComplete())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "'" + (*T)->getName() +
                                       "' is an incomplete type");
  return T;
}

llvm::Error tscc::dumpLayout(llvm::raw_ostream &OS, llvm::StringRef TypeName,
                             llvm::ArrayRef<CDeclarations *> Models) {
  // Resolve in every model before printing anything, so a failure leaves
  // no partial dump. A failure common to all models is said once; one
  // model's own is tagged like a diagnostic only its pass reported.
  std::vector<const Type *> Types;
  std::vector<std::pair<DataModel, std::string>> Errors;
  for (CDeclarations *Decls : Models) {
    llvm::Expected<const Type *> T = resolve(*Decls, TypeName);
    if (T)
      Types.push_back(*T);
    else
      Errors.emplace_back(Decls->getDataModel(), llvm::toString(T.takeError()));
  }
  if (!Errors.empty()) {
    bool Same = Errors.size() == Models.size() &&
                llvm::all_of(Errors, [&](const auto &E) {
                  return E.second == Errors.front().second;
                });
    std::string Msg;
    if (Same) {
      Msg = Errors.front().second;
    } else {
      for (const auto &[DM, Text] : Errors)
        Msg += (Msg.empty() ? "" : "; ") + Text +
               PerModelDiagnosticMerger::onlyInModelTag(DM);
    }
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot dump the layout of '" + TypeName +
                                       "': " + Msg);
  }
  for (const Type *T : Types)
    dumpTypeLayout(OS, T);
  return llvm::Error::success();
}
