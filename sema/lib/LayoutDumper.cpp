//===- LayoutDumper.cpp - --dump-layout -----------------------------------===//

#include "tscc/Sema/LayoutDumper.h"
#include "tscc/Sema/CDeclarations.h"
#include "tscc/Sema/Type.h"
#include "tscc/Sema/TypeContext.h"

#include "llvm/Support/raw_ostream.h"

using namespace tscc;

static void dumpMembers(llvm::raw_ostream &OS, const RecordType *R,
                        const std::string &Prefix, uint64_t BaseBits);

/// One member line, then the members inside it.
static void dumpMember(llvm::raw_ostream &OS, const Field &F,
                       const std::string &Path, uint64_t Bits) {
  const Type *T = F.Ty;
  if (F.isBitField()) {
    OS << "  " << Path << " bit_offset=" << Bits
       << " bit_width=" << *F.BitWidth << " type=" << T->getName() << '\n';
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

llvm::Error tscc::dumpLayout(llvm::raw_ostream &OS, llvm::StringRef TypeName,
                             llvm::ArrayRef<CDeclarations *> Models) {
  for (CDeclarations *Decls : Models) {
    llvm::StringRef Model = dataModelName(Decls->getDataModel());
    llvm::Expected<const Type *> T = Decls->parseTypeName(TypeName);
    if (!T)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(), "--dump-layout: %s (%s)",
          llvm::toString(T.takeError()).c_str(), Model.str().c_str());
    if (!(*T)->isComplete())
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "--dump-layout: '%s' is an incomplete type (%s)",
          (*T)->getName().c_str(), Model.str().c_str());
    dumpTypeLayout(OS, *T);
  }
  return llvm::Error::success();
}
