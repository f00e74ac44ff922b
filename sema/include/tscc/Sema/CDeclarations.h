//===- CDeclarations.h - Clang-backed C declarations ------------*- C++ -*-===//
//
// The script's C declarations (the "C prelude" the frontend collects:
// #include/#define lines, struct/union/enum definitions, typedefs and
// prototypes, with #line markers) parsed by Clang for one data model.
//
// This is the only place in the compiler that uses Clang. The prelude is
// parsed exactly as `gcc -m32` / `gcc -m64` would see it on this machine
// (same system header search, `i386` or `x86_64` Linux target), so every
// layout, typedef and macro is the target's. Clang's diagnostics are routed
// into tscc's DiagnosticsEngine at the script position the #line markers
// name. Answers are tscc Types of the model's TypeContext, converted lazily
// and cached, so each record is laid out once per model.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_SEMA_CDECLARATIONS_H
#define TSCC_SEMA_CDECLARATIONS_H

#include "tscc/Sema/DataModel.h"
#include "tscc/Sema/Type.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tscc {

class DiagnosticsEngine;
class TypeContext;

/// How the prelude is compiled (the `-I`/`-D`/`-U` of the tscc command
/// line).
struct CDeclOptions {
  /// Buffer name for prelude text before the first #line marker, and the
  /// directory searched first for `#include "..."` (like the directory of
  /// the including file in C).
  std::string ScriptPath = "<script>";
  std::vector<std::string> IncludeDirs;
  /// `-D NAME[=VALUE]` / `-U NAME`, applied in order like a C compiler's.
  struct Macro {
    std::string Name;
    std::string Value = "1";
    bool Undef = false;
  };
  std::vector<Macro> Macros;
};

/// The value of an enumeration constant. In C an enumerator has type `int`
/// unless its value does not fit (a GNU extension), so the type is given.
struct EnumeratorValue {
  int64_t Value = 0;
  const Type *Ty = nullptr;       ///< The enumerator's own type.
  const EnumType *Enum = nullptr; ///< The enum that declares it.
};

/// One step of an offsetof member designator: `.name` or `[index]`.
struct DesignatorStep {
  std::string Member; ///< Empty for an array index.
  uint64_t Index = 0;
  bool isIndex() const { return Member.empty(); }
};

class CDeclarations {
public:
  ~CDeclarations();
  CDeclarations(const CDeclarations &) = delete;
  CDeclarations &operator=(const CDeclarations &) = delete;

  /// Parses \p Prelude for the model of \p Types. Clang's diagnostics are
  /// reported to \p Diags (which must outlive the result). Never returns
  /// null: on errors, lookups answer from whatever Clang could recover.
  static std::unique_ptr<CDeclarations> create(TypeContext &Types,
                                               llvm::StringRef Prelude,
                                               const CDeclOptions &Opts,
                                               DiagnosticsEngine &Diags);

  /// Parses \p Prelude once per model, \p Types[M] being model M's context.
  /// A diagnostic Clang gives for both models is reported once; one that
  /// only one model produces is tagged with it ("... [ILP32 only]").
  static std::array<std::unique_ptr<CDeclarations>, NumDataModels>
  createForAllModels(std::array<TypeContext *, NumDataModels> Types,
                     llvm::StringRef Prelude, const CDeclOptions &Opts,
                     DiagnosticsEngine &Diags);

  DataModel getDataModel() const;
  TypeContext &getTypes() const;
  /// Whether Clang reported an error for this model.
  bool hasErrors() const;
  /// Every header file Clang read for this model (sorted, no duplicates):
  /// what a depfile (`tscc -MD`) lists so that build systems rebuild the
  /// probe object when one changes.
  std::vector<std::string> includedFiles() const;

  /// `typedef ... Name;` (including those from system headers).
  const Type *lookupTypedef(llvm::StringRef Name);
  /// Whether Clang saw a typedef named Name (in the script or a header):
  /// what the parser needs to tell `(word)-1` (a cast) from a subtraction.
  bool isTypedefName(llvm::StringRef Name) const;
  /// `struct Name` / `union Name`; the type may be incomplete when only
  /// declared. nullptr if no such tag, or the tag is of the other kind.
  const RecordType *lookupStruct(llvm::StringRef Name);
  const RecordType *lookupUnion(llvm::StringRef Name);
  const EnumType *lookupEnum(llvm::StringRef Name);
  std::optional<EnumeratorValue> lookupEnumerator(llvm::StringRef Name);
  /// The type of function \p Name from its prototype.
  const FunctionType *lookupFunction(llvm::StringRef Name);

  /// The full expansion of object-like macro \p Name as source text, with
  /// single spaces where the expansion had whitespace: SIGINT -> `2`,
  /// SIG_IGN -> `((__sighandler_t) 1)`, sa_handler ->
  /// `__sigaction_handler.sa_handler`. The text may be empty (`#define
  /// EMPTY`). nullopt if \p Name is not defined, is function-like, or its
  /// expansion is erroneous (Clang's diagnostic is reported then).
  std::optional<std::string> lookupMacro(llvm::StringRef Name);

  /// An expansion stops after this many tokens: a chain of `#define A1
  /// (A0 + A0)` doubles with every line, and no constant a script uses is
  /// anywhere near this long. lookupMacro then returns nullopt and
  /// isOversizedMacro says why.
  static constexpr unsigned MaxMacroExpansionTokens = 1u << 16;
  bool isOversizedMacro(llvm::StringRef Name) const;
  /// Whether \p Name is a function-like macro (for better diagnostics).
  bool isFunctionLikeMacro(llvm::StringRef Name) const;

  /// Member \p Name of \p R as C code would reach it: a direct member, a
  /// member of an anonymous struct/union member, or an object-like macro
  /// expanding to a member path (glibc's `sa_handler` is
  /// `__sigaction_handler.sa_handler`).
  std::optional<FieldPath> lookupMember(const RecordType *R,
                                        llvm::StringRef Name);

  /// Parses a C type name: `struct sigaction`, `unsigned long *`,
  /// `pid_t`, `char [16]`, `int (*)(int)`, `union sigval`.
  llvm::Expected<const Type *> parseTypeName(llvm::StringRef Text);
  /// sizeof(\p TypeName) in this model.
  llvm::Expected<uint64_t> evaluateSizeof(llvm::StringRef TypeName);

  /// offsetof(\p T, designator) in bytes; errors name the failing step
  /// (no such member, bit-field, subscript of a non-array).
  static llvm::Expected<uint64_t>
  evaluateOffsetof(const Type *T, llvm::ArrayRef<DesignatorStep> Steps);
  /// Parses a member designator such as `m[1].x` or `sa_mask.__val[3]`.
  static llvm::Expected<std::vector<DesignatorStep>>
  parseDesignator(llvm::StringRef Text);

  class Impl;

private:
  explicit CDeclarations(std::unique_ptr<Impl> I);
  std::unique_ptr<Impl> P;
};

} // namespace tscc

#endif // TSCC_SEMA_CDECLARATIONS_H
