//===- CDeclarationsImpl.h - Clang state behind CDeclarations ---*- C++ -*-===//
//
// Private to sema/lib: the only header that names clang::. It keeps the
// CompilerInstance alive after parsing so lookups can still reach the AST
// and the preprocessor's macro table.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_SEMA_LIB_CDECLARATIONSIMPL_H
#define TSCC_SEMA_LIB_CDECLARATIONSIMPL_H

#include "tscc/Basic/Diagnostic.h"
#include "tscc/Sema/CDeclarations.h"
#include "tscc/Sema/TypeContext.h"

#include "clang/AST/Type.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace clang {
class NamedDecl;
class RecordDecl;
class EnumDecl;
} // namespace clang

namespace tscc {

/// Turns Clang diagnostics into tscc ones of \p Model's pass, which the
/// DiagnosticsEngine's merger compares with the other model's.
class DiagForwarder : public clang::DiagnosticConsumer {
public:
  DiagForwarder(DiagnosticsEngine &Diags, DataModel Model)
      : Diags(Diags), Model(Model) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

private:
  DiagnosticsEngine &Diags;
  DataModel Model;
};

class CDeclarations::Impl {
public:
  Impl(TypeContext &Types, DiagnosticsEngine &Diags, const CDeclOptions &Opts)
      : Types(Types), Diags(Diags), Opts(Opts),
        Forwarder(Diags, Types.getDataModel()) {}

  /// Builds the compiler instance and parses \p Prelude.
  void parse(llvm::StringRef Prelude);

  // Lookups (CDeclarationsLookup.cpp).
  template <typename DeclT> DeclT *lookupDecl(llvm::StringRef Name) const;
  const Type *convert(clang::QualType QT);
  const Type *convertRecord(const clang::RecordDecl *RD);
  const Type *convertEnum(const clang::EnumDecl *ED);
  std::optional<std::string> expandMacro(llvm::StringRef Name);
  /// Whether expanding \p Name was abandoned at MaxMacroExpansionTokens.
  bool isOversizedMacro(llvm::StringRef Name) const {
    return OversizedMacros.contains(Name);
  }

  TypeContext &Types;
  DiagnosticsEngine &Diags;
  CDeclOptions Opts;
  DiagForwarder Forwarder;
  std::unique_ptr<clang::CompilerInstance> CI;
  bool Parsed = false;

private:
  const Type *convertUncached(const clang::Type *T);
  const Type *convertBuiltin(const clang::BuiltinType *BT);
  const Type *convertOpaque(const clang::Type *T);
  std::string spellUnnamed(const clang::TagDecl *TD) const;

  /// Ends an expansion that passed the token budget (CDeclarationsLookup.cpp).
  void abandonExpansion();

  /// Records the macros the preprocessor enters while an expansion runs:
  /// only those can be on its lexer stack when an expansion is abandoned.
  class ExpansionRecorder;
  ExpansionRecorder *Recorder = nullptr; ///< Owned by the preprocessor.
  /// Expansions are deterministic once the prelude is parsed, and a script
  /// may use a macro many times in two models: expand each name once.
  llvm::StringMap<std::optional<std::string>> Expansions;
  llvm::StringSet<> OversizedMacros;

  llvm::DenseMap<const clang::Type *, const Type *> TypeCache;
  /// Keyed by canonical declaration: one tscc record per C record, laid out
  /// once.
  llvm::DenseMap<const clang::TagDecl *, const Type *> TagCache;
};

} // namespace tscc

#endif // TSCC_SEMA_LIB_CDECLARATIONSIMPL_H
