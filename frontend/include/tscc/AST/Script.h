//===- tscc/AST/Script.h - Probes, clauses, the script ----------*- C++ -*-===//
//
// ProbeSpec, Clause and Script: the top of the AST.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_AST_SCRIPT_H
#define TSCC_AST_SCRIPT_H

#include "tscc/AST/Expr.h"

namespace tscc {

//===----------------------------------------------------------------------===//

enum class ProbeProvider : uint8_t {
  Begin,
  End,
  Uft,
  Syscall,
  Interval,
  Unknown
};

/// "BEGIN", "END", "uft", "syscall", "interval", "unknown".
llvm::StringRef getProbeProviderName(ProbeProvider P);

/// One colon-separated field of a probe specification, as written.
struct ProbeField {
  llvm::StringRef Text; ///< For a regex field, including both slashes.
  SourceRange Range;    ///< Begin and End at first/last character.
  bool IsRegex = false; ///< Written as /.../.
};

/// `@@uft:*:a.out:handle:entry` split syntactically. Sema validates.
class ProbeSpec : public Node {
public:
  ProbeSpec(SourceRange R, llvm::StringRef Text,
            llvm::ArrayRef<ProbeField> Fields)
      : Node(NodeKind::ProbeSpec, R), Text(Text), Fields(Fields) {}
  /// The whole specification as written, including "@@".
  llvm::StringRef getText() const { return Text; }
  /// Fields[0] is the provider.
  llvm::ArrayRef<ProbeField> getFields() const { return Fields; }
  ProbeProvider getProvider() const;
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::ProbeSpec;
  }

private:
  llvm::StringRef Text;
  llvm::ArrayRef<ProbeField> Fields;
};

/// `spec [, spec]... [when (pred)] { body }`.
class Clause : public Node {
public:
  Clause(SourceRange R, unsigned Index, llvm::ArrayRef<ProbeSpec *> Probes,
         Expr *Pred, SourceLocation WhenLoc, CompoundStmt *Body)
      : Node(NodeKind::Clause, R), Index(Index), Probes(Probes), Pred(Pred),
        WhenLoc(WhenLoc), Body(Body) {}
  /// 0-based position among the script's clauses (clause N in codegen).
  unsigned getIndex() const { return Index; }
  llvm::ArrayRef<ProbeSpec *> getProbes() const { return Probes; }
  Expr *getPredicate() const { return Pred; } ///< May be null.
  void setPredicate(Expr *E) { Pred = E; }
  SourceLocation getWhenLoc() const { return WhenLoc; }
  CompoundStmt *getBody() const { return Body; }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::Clause;
  }

private:
  unsigned Index;
  llvm::ArrayRef<ProbeSpec *> Probes;
  Expr *Pred;
  SourceLocation WhenLoc;
  CompoundStmt *Body;
};

/// One piece of the declaration section that is handed to Clang verbatim.
struct CDeclChunk {
  enum class Kind : uint8_t {
    Directive, ///< `#include ...`, `#define ...`, any `#` line.
    Typedef,   ///< `typedef ...;`
    Tag,       ///< a struct/union/enum definition (with body)
    Prototype, ///< a function declaration
  };
  Kind K;
  SourceRange Range;
  llvm::StringRef Text; ///< Verbatim source text.
  /// The declared name when it is evident (typedef name, tag name, function
  /// name, macro name); may be empty.
  llvm::StringRef Name;
};

/// A function prototype declared in the script.
struct PrototypeName {
  llvm::StringRef Name;
  SourceLocation Loc;
};

class Script : public Node {
public:
  Script(SourceRange R, FileID File) : Node(NodeKind::Script, R), File(File) {}

  FileID getFileID() const { return File; }

  /// Everything for Clang, in source order, each chunk preceded by a
  /// `#line N "file"` marker and indented to its original column so that
  /// Clang's line:column positions are the script's.
  llvm::StringRef getCPrelude() const { return Prelude; }
  void setCPrelude(llvm::StringRef P) { Prelude = P; }
  llvm::ArrayRef<CDeclChunk> getCDecls() const { return CDecls; }
  void setCDecls(llvm::ArrayRef<CDeclChunk> C) { CDecls = C; }

  /// Top-level script variables in source order.
  llvm::ArrayRef<VarDecl *> getVars() const { return Vars; }
  void setVars(llvm::ArrayRef<VarDecl *> V) { Vars = V; }

  llvm::ArrayRef<Clause *> getClauses() const { return Clauses; }
  void setClauses(llvm::ArrayRef<Clause *> C) { Clauses = C; }

  /// Functions whose prototypes the script declares (so sema knows which
  /// names came from the script rather than from headers).
  llvm::ArrayRef<PrototypeName> getPrototypeNames() const { return Protos; }
  void setPrototypeNames(llvm::ArrayRef<PrototypeName> P) { Protos = P; }

  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::Script;
  }

private:
  FileID File;
  llvm::StringRef Prelude;
  llvm::ArrayRef<CDeclChunk> CDecls;
  llvm::ArrayRef<VarDecl *> Vars;
  llvm::ArrayRef<Clause *> Clauses;
  llvm::ArrayRef<PrototypeName> Protos;
};

} // namespace tscc

#endif // TSCC_AST_SCRIPT_H
